// Sensitivity of the seeds' claims to the model's costs: every cost parameter of
// include/blab_model.h (set through `blab sim --params FILE`) at 75 % and 125 % of its default,
// one at a time, each claim re-measured on seed 1 at a quarter of its pages and compared with
// the same run at the defaults (45 runs of every claim at full size would take about an hour
// of the shared 2-core machine; a quarter of the pages keeps the mechanisms, with more noise).
// A claim flips when its verdict changes (inside its band <-> outside), or a direction-only
// claim changes sign. A flip under an estimated cost ([est] in docs/model.md) marks the claim
// fragile, and the lesson that teaches it says so.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { inBand } from './claims.mjs';
import { cellsRead, runCells } from './experiments.mjs';
import { signed } from './stats.mjs';

// the cost parameters (docs/model.md's sources); the sizes, topology, fill_buffers (a count,
// not a cost), the memory's channels and transfer rate (a data sheet's) are not varied. list_op_cycles also sets the workloads' fault (x250) and
// unmap (x25) work: fault_cycles and unmap_cycles default to 0, which derives them from it
// (model_fault_cycles(), include/blab_model.h), so they are not varied apart.
export const COSTS = [
  ['l1_cycles', 'anandtech'], ['l2_cycles', 'anandtech'], ['llc_cycles', 'anandtech'],
  ['xcore_cycles', 'lat'], ['xsocket_cycles', 'lat'], ['mem_cycles', 'anandtech'],
  ['lock_handoff_cycles', 'lat'], ['lock_handoff_remote_cycles', 'lat'], ['atomic_cycles', 'agner'],
  ['clear_page_cycles', 'est'], ['list_op_cycles', 'est'], ['prefetch_issue_cycles', 'est'],
  // the memory controllers' sustained fraction of their data-sheet peak (a rate, not a cost:
  // a claim that moves with it is one the memory wall decides)
  ['mem_sustained_pct', 'stream'],
];

/** model_params_default()'s value of each cost, read from its source (one place to change) */
export function costDefaults(paramsC = 'wasm-core/src/machine/model/params.c') {
  const src = readFileSync(paramsC, 'utf8');
  return Object.fromEntries(COSTS.map(([k]) => {
    const m = src.match(new RegExp(`p->${k} = (\\d+);`));
    if (!m) throw new Error(`${paramsC}: no default for ${k}`);
    return [k, Number(m[1])];
  }));
}

/** claim's value on seed 1 (at a quarter of the pages), under the --params file `params`
 *  (undefined: the defaults); only the presets the claim reads are run */
async function measureAt(runner, claim, e, params) {
  const cells = {};
  for (const [t, presets] of cellsRead(claim)) {
    const got = await runCells(runner, e, t, { seed: 1, quick: true, params, presets: [...presets] });
    Object.assign(cells, got.cells);
  }
  return claim.measure((t, p) => cells[t][p]);
}

/**
 * Runs every claim of `claims` at the defaults and at each cost x 0.75 and x 1.25 (seed 1,
 * a quarter of the pages). `runner` is the fidelity runner. Returns the rows the table is
 * written from.
 */
export async function runSensitivity({ runner, claims, exp, dir = 'build/fidelity-params' }) {
  mkdirSync(dir, { recursive: true });
  const dflt = costDefaults();
  const variants = [];
  for (const [key, source] of COSTS)
    for (const f of [0.75, 1.25]) {
      const value = Math.round(dflt[key] * f);
      variants.push({ key, source, f, value, same: value === dflt[key] });
    }
  const jobs = [];
  for (const v of variants) {
    if (v.same) continue;
    const file = `${dir}/${v.key}-${v.value}.params`;
    writeFileSync(file, `# make fidelity-sensitivity: ${v.key} at ${v.f * 100} % of ${dflt[v.key]}\n${v.key} = ${v.value}\n`);
    v.values = {};
    for (const claim of claims) {
      const e = exp[claim.exp];
      if (e.workload === 'hackbench') continue; // blab sim's hackbench takes no --params
      jobs.push((async () => {
        v.values[claim.id] = await measureAt(runner, claim, e, file);
      })());
    }
  }
  const base = {};
  jobs.push(...claims.filter((c) => exp[c.exp].workload !== 'hackbench')
    .map(async (c) => { base[c.id] = await measureAt(runner, c, exp[c.exp], undefined); }));
  await Promise.all(jobs);
  return { variants, dflt, base };
}

/** the markdown of the sensitivity section from runSensitivity()'s rows, and the claims it
 *  finds fragile. `noise[id]`: the claim's spread over seeds (max - min) at its full size; a
 *  move no larger than that is the seed's, not the cost's, and flips nothing. */
export function sensitivityMarkdown({ variants, dflt, base }, claims, noise = {}) {
  const flips = (claim, x) => x !== undefined && inBand(claim, x) !== inBand(claim, base[claim.id]) &&
    Math.abs(x - base[claim.id]) > (noise[claim.id] ?? 0);
  const fmt = (claim, x) => `${claim.unit === '%' ? signed(x) : x.toFixed(1)}${claim.unit}`;
  const lines = [
    'Seed 1, each run at a quarter of its pages (the claims\' own sizes are in the table at the top; a quarter keeps the ' +
      'mechanisms and is four times faster, with more noise), every figure against the same quarter-size run at the defaults. ' +
      'A claim flips when its figure crosses its band\'s edge by a move larger than its spread over seeds in the claims ' +
      'table (a smaller move is within what the seed alone does).',
    '',
    '| parameter | default | source | at 75 % | claims that flip | at 125 % | claims that flip |',
    '|---|---:|---|---:|---|---:|---|',
  ];
  const fragile = new Map(); // claim id -> the estimated costs it flips under
  const touchy = new Map();  // claim id -> every cost it flips under
  for (const [key, source] of COSTS) {
    const lo = variants.find((v) => v.key === key && v.f === 0.75);
    const hi = variants.find((v) => v.key === key && v.f === 1.25);
    const side = (v) => {
      if (v.same) return [`${v.value}`, 'not varied: rounds to the default'];
      const ids = claims.filter((c) => flips(c, v.values[c.id]));
      for (const c of ids) {
        (touchy.get(c.id) ?? touchy.set(c.id, []).get(c.id)).push(`${key} ${v.value}`);
        if (source === 'est') (fragile.get(c.id) ?? fragile.set(c.id, []).get(c.id)).push(`${key} ${v.value}`);
      }
      return [`${v.value}`, ids.length ? ids.map((c) => `${c.id} (${fmt(c, v.values[c.id])})`).join(', ') : 'none'];
    };
    lines.push(`| \`${key}\` | ${dflt[key]} | [${source}] | ${side(lo).join(' | ')} | ${side(hi).join(' | ')} |`);
  }
  const runs = variants.filter((v) => !v.same).length;
  lines.push('', `Each claim at the defaults (seed 1) and the range of its figure over the ${runs} varied runs; ` +
    'hackbench (seed 003) is not varied: `blab sim --workload hackbench` takes no `--params`.', '',
    '| claim | band | at the defaults | seed spread | lowest .. highest under +-25 % | flips under | fragile |',
    '|---|---|---:|---:|---|---|---|');
  for (const c of claims) {
    if (base[c.id] === undefined) {
      lines.push(`| ${c.id} | ${bandText(c)} | | | not varied | | |`);
      continue;
    }
    const xs = variants.filter((v) => !v.same && v.values[c.id] !== undefined).map((v) => v.values[c.id]);
    if (!xs.length) {
      lines.push(`| ${c.id} | ${bandText(c)} | | | not varied | | |`);
      continue;
    }
    lines.push(`| ${c.id} | ${bandText(c)} | ${fmt(c, base[c.id])} | ${(noise[c.id] ?? 0).toFixed(1)} | ${fmt(c, Math.min(...xs))} .. ${fmt(c, Math.max(...xs))} | ` +
      `${(touchy.get(c.id) ?? []).join(', ') || 'none'} | ${fragile.has(c.id) ? `**fragile**: ${fragile.get(c.id).join(', ')}` : 'no'} |`);
  }
  return { markdown: lines.join('\n'), fragile: [...fragile.keys()] };
}

/** "[3.75, 15.0] %": a claim's band as the report writes it */
export function bandText(c) {
  const e = (x) => (x === Infinity ? '∞' : x === -Infinity ? '-∞' : x.toFixed(x % 1 ? 2 : 0));
  return `${e(c.band.lo)} .. ${e(c.band.hi)}${c.unit}`;
}
