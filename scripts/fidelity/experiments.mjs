// The runs behind docs/fidelity.md: each experiment a workload at task counts x presets,
// `seeds` of them (1, 2, ...: the report gives their mean and min..max). One `blab sim` runs
// one preset at one task count and seed (runCells): a preset's run does not depend on the
// other presets beside it, so experiments that ask for the same preset share its run, and the
// runner spreads the presets of a slow task count over its workers.
//
// Sizes (docs/fidelity.md, "Sizes and noise"): page_fault1 maps 4096 pages per task; with 4.x
// pcp lists the L2 and LLC are divided by 8 (--cache-scale 8, the lessons' size), which keeps
// will-it-scale's 128 MB footprint-to-cache ratio. The 5.14+ presets run at the real cache
// sizes: their pcp `high` (576 pages) is a reuse distance set by the kernel, not by the
// footprint, and a bulk free re-reads pages up to `high` frees old; an L2 divided by 8
// (128 KB, shared by two SMT threads) no longer holds them, which a real 1 MB L2 does.
// `full` runs will-it-scale's own 32768 pages on the real caches to check both choices.

/** Seed 004's "base": the tree Aaron Lu's RFC v2 was posted against, 4.16 with his 4.17
 * two-pass bulk free and buddy prefetch (0a5f4e5b4562, 97334162e4d7), which the RFC's 2/4 and
 * 4/4 edit: the model's v4.17 (docs/skipmerge.md) */
export const RFC_BASE = 'v4.17';

export const PF_PAGES = 4096;

// shorthands: the sizes a preset family's page_fault1 / parallel_free runs use
const V4 = { pages: PF_PAGES, cacheScale: 8 };
const V514 = { pages: PF_PAGES, cacheScale: 1 };

export const EXP = {
  // seed 001: 2.5.44 against 2.5.45 at the 8-way's CPU counts
  pcp2002: { workload: 'page_fault1', cpus: [1, 2, 4, 8], presets: ['v2.5.44', 'v2.5.45'], ...V4, seeds: 3 },
  // seed 000 on the 2-socket Skylake (112 CPUs) and the 4-socket one (224)
  lu2018: { workload: 'page_fault1', cpus: [1, 56, 112], presets: ['v4.16', 'v4.17-pick', 'v4.17'], ...V4, seeds: 3 },
  lu2018_4s: { workload: 'page_fault1', cpus: [224], presets: ['v4.16', 'v4.17-pick', 'v4.17'], ...V4, sockets: 4, seeds: 3 },
  // seed 002 like for like (5.14+ sizes on both sides), page_fault1 and one task's trunc
  mel2022: { workload: 'page_fault1', cpus: [2, 48, 79, 110], presets: ['v5.17', 'v5.18-prefetch', 'v5.18'], ...V514, seeds: 3 },
  trunc: { workload: 'trunc', cpus: [1], presets: ['v5.17', 'v5.18-prefetch', 'v5.18'], pages: 16384, cacheScale: 1, seeds: 3 },
  // ... at the seed's topology: a zone and an LRU list per node (--node-zones), and the tasks
  // out of step, each at its own point of its loop as will-it-scale's processes are minutes
  // into a run (three rounds, --out-of-step: docs/sim.md, "Tasks in step"); the plateau:
  // v5.17 from 40 to 112 tasks
  mel2022_nodes: { workload: 'page_fault1', cpus: [48, 110], presets: ['v5.17', 'v5.18'], ...V514, nodeZones: true, outOfStep: true, seeds: 3 },
  plateau: { workload: 'page_fault1', cpus: [40, 80, 112], presets: ['v5.17'], ...V514, nodeZones: true, outOfStep: true, seeds: 3 },
  // ... and with the tasks in step (the default), to show what being out of step changes
  mel2022_nodes_step: { workload: 'page_fault1', cpus: [48, 110], presets: ['v5.17', 'v5.18'], ...V514, nodeZones: true, seeds: 1 },
  // v5.18 against v4.17 literally (a 5.14+ preset: the real cache sizes)
  literal: { workload: 'page_fault1', cpus: [56, 112], presets: ['v4.17', 'v5.18'], ...V514, seeds: 3 },
  // seed 003: hackbench, the lesson's 4000 messages per sender, remote frees and the control;
  // a message is an skb as __alloc_skb() makes it in 3.x: the head (256 bytes) and a data
  // buffer from kmalloc, 100 bytes + skb_shared_info rounded up to 512: blab sim's default
  // message, so the command the report prints is the one a user types
  hackbench: { workload: 'hackbench', groups: [2, 4, 8], loops: 4000, preset: 'v4.16', seeds: 3 },
  hackbench_same: { workload: 'hackbench', groups: [2, 4, 8], loops: 4000, preset: 'v4.16', sameCpu: true, seeds: 1 },
  // the same with a bare head, one object a message (--data-size 0; the model before the data
  // buffer), to show what the second object changes
  hackbench_one: { workload: 'hackbench', groups: [2, 4, 8], loops: 4000, preset: 'v4.16', dataSize: 0, seeds: 1 },
  // seed 004: page_fault1 at 56 and 112 tasks, steady state (the scored rounds); the base is
  // the tree the RFC was posted against, 4.16 with 4.17's two-pass bulk free: the model's v4.17
  rfc004: { workload: 'page_fault1', cpus: [56, 112], presets: [RFC_BASE, 'lu-rfc-p2', 'lu-rfc-p3', 'lu-rfc-p4'], ...V4, seeds: 3 },
  // ... and with a zone per node, as the seed's machine has them
  rfc004_nodes: { workload: 'page_fault1', cpus: [56, 112], presets: [RFC_BASE, 'lu-rfc-p2', 'lu-rfc-p4'], ...V4, nodeZones: true, seeds: 3 },
  // seed 004's parallel free on its 4-socket Skylake, one zone and a zone per node
  lu2018_pfree: { workload: 'parallel_free', cpus: [112, 224], presets: [RFC_BASE, 'lu-rfc-p2', 'lu-rfc-p3', 'lu-rfc-p4'], pages: PF_PAGES / 2, cacheScale: 8, sockets: 4, seeds: 3 },
  lu2018_pfree_nodes: { workload: 'parallel_free', cpus: [112, 224], presets: [RFC_BASE, 'lu-rfc-p2', 'lu-rfc-p3', 'lu-rfc-p4'], pages: PF_PAGES / 2, cacheScale: 8, sockets: 4, nodeZones: true, seeds: 1 },
  // parallel_free on 2 sockets, 4.16 to 5.18 (mixed families: the real cache sizes)
  pfree: { workload: 'parallel_free', cpus: [1, 56, 112], presets: ['v4.16', 'v4.17', 'v5.17', 'v5.18'], pages: PF_PAGES / 2, cacheScale: 1, seeds: 1 },
  // seed 000's setup with a zone per node
  lu2018_nodes: { workload: 'page_fault1', cpus: [56, 112], presets: ['v4.16', 'v4.17-pick', 'v4.17'], ...V4, nodeZones: true, seeds: 1 },
  // noise against run length: seed 000's comparison at 112 tasks, five seeds, at half, the
  // same and twice the pages, the caches divided so that the footprint-to-cache ratio stays
  // will-it-scale's (len4k's first three seeds are lu2018's runs; slow, as the size check)
  len2k: { workload: 'page_fault1', cpus: [112], presets: ['v4.16', 'v4.17-pick', 'v4.17'], pages: PF_PAGES / 2, cacheScale: 16, seeds: 5, slow: 'length' },
  len4k: { workload: 'page_fault1', cpus: [112], presets: ['v4.16', 'v4.17-pick', 'v4.17'], ...V4, seeds: 5, slow: 'length' },
  len8k: { workload: 'page_fault1', cpus: [112], presets: ['v4.16', 'v4.17-pick', 'v4.17'], pages: PF_PAGES * 2, cacheScale: 4, seeds: 5, slow: 'length' },
  // the sizes cross-checked against will-it-scale's 32768 pages on the real caches (seed 1;
  // slow: run by make fidelity-sensitivity only, and kept by make fidelity)
  full000: { workload: 'page_fault1', cpus: [112], presets: ['v4.16', 'v4.17-pick', 'v4.17'], pages: 32768, cacheScale: 1, seeds: 1, slow: 'sizes' },
  real000: { workload: 'page_fault1', cpus: [112], presets: ['v4.16', 'v4.17-pick', 'v4.17'], pages: PF_PAGES, cacheScale: 1, seeds: 1, slow: 'sizes' },
  full002: { workload: 'page_fault1', cpus: [110], presets: ['v5.17', 'v5.18'], pages: 32768, cacheScale: 1, seeds: 1, slow: 'sizes' },
  scaled002: { workload: 'page_fault1', cpus: [110], presets: ['v5.17', 'v5.18'], pages: PF_PAGES, cacheScale: 8, seeds: 1, slow: 'sizes' },
};

/** The `blab sim` arguments of experiment e at task count `cpus` (a number or a list) and
 *  seed; `quick` runs a quarter of the pages (a smoke run), `params` a --params file,
 *  `preset` one of the experiment's presets instead of all of them. */
export function simArgs(e, cpus, { seed, quick = false, params, preset } = {}) {
  const a = ['--workload', e.workload];
  if (e.workload === 'hackbench') {
    a.push('--groups', String(cpus), '--loops', String(quick ? e.loops >> 2 : e.loops), '--preset', e.preset);
    if (e.dataSize !== undefined) a.push('--data-size', String(e.dataSize));
    if (e.sameCpu) a.push('--same-cpu');
  } else {
    a.push('--cpus', String(cpus), '--preset', preset ?? e.presets.join(','),
      '--pages', String(quick ? Math.max(64, e.pages >> 2) : e.pages));
    if (e.cacheScale > 1) a.push('--cache-scale', String(e.cacheScale));
    if (e.sockets) a.push('--sockets', String(e.sockets));
    if (e.nodeZones) a.push('--node-zones');
    if (e.outOfStep) a.push('--iterations', '3', '--out-of-step');
  }
  if (seed !== undefined && seed !== 1) a.push('--seed', String(seed));
  if (params) a.push('--params', params);
  return a;
}

/** The task counts of experiment e (hackbench: groups). */
export const taskCounts = (e) => e.cpus ?? e.groups;

/**
 * A run's document as results[cpus][preset] cells. page_fault1, parallel_free and trunc
 * give one row with a cell per preset; hackbench gives a run per prefetch setting, named
 * "off" and "on".
 */
export function cellsOf(e, doc) {
  if (e.workload === 'hackbench') {
    const out = {};
    for (const r of doc.runs) (out[r.groups] ??= {})[r.slub_prefetch ? 'on' : 'off'] = r;
    return out;
  }
  return { [doc.rows[0].tasks]: doc.rows[0].presets };
}

/**
 * Experiment e at task count `cpus` and `seed`, one `runner.sim` per preset (`presets`: a
 * subset; default all), merged into cells[tasks][preset]. Returns { cells, seconds }, seconds
 * being the runs' own wall times added up. hackbench is one run (its two settings are one
 * blab sim's).
 */
export async function runCells(runner, e, cpus, { seed, quick, params, presets } = {}) {
  const one = e.workload === 'hackbench' ? [undefined] : (presets ?? e.presets);
  const cells = {};
  let seconds = 0;
  await Promise.all(one.map(async (preset) => {
    const args = simArgs(e, cpus, { seed, quick, params, preset });
    const doc = await runner.sim(args);
    seconds += runner.secondsOf(args) ?? 0;
    for (const [t, row] of Object.entries(cellsOf(e, doc))) Object.assign((cells[t] ??= {}), row);
  }));
  return { cells, seconds };
}

/** The cells a claim's measure reads, as a Map tasks -> Set of presets: the measure is run
 *  once on stand-in cells whose every field is 1. */
export function cellsRead(claim) {
  const need = new Map();
  const standIn = new Proxy({}, { get: () => 1 });
  claim.measure((t, p) => {
    if (!need.has(t)) need.set(t, new Set());
    need.get(t).add(p);
    return standIn;
  });
  return need;
}
