// The results card a run ends in: the score with its unit and what explains it (zone->lock
// contention, lock acquisitions per page, prefetch hits / late / wasted, pcp refills and
// drains), each with its label, then every parameter of the run and the native command that
// makes it again. Numbers are the run's counters (simstats.ts); the refill and drain counts from
// the run's own event log.
import type { SimStats } from '../engine/simstats';
import { acqPerPage, bindingLimit, memGbs, memLimitGbs } from '../engine/simstats';
import { JUMP_KINDS, type JumpKind } from '../log/player';
import { EV, type EventLog } from '../log/events';
import { blabCommand, runParameters, runTasks, type RunParams } from '../scenario/request';
import { workloadEntry } from '../scenario/workloads';
import { CORE_PRESETS } from '../scenario/core-schema';
import { el } from '../ui/dom';
import { howMadeLine } from '../ui/provenance';
import { nsText } from './latency-data';

export interface RunResult {
  request: RunParams;
  stats: SimStats;
  /** the run's event log, for the refill and drain counts */
  log: EventLog;
}

/** True when the log stopped at its bound: the core's last record is then LOG_FULL. */
export function logWasCut(log: EventLog): boolean {
  return log.length > 0 && log.type[log.length - 1] === EV.LOG_FULL;
}

/** How many times the log starts a drain or refill (the player's jump kinds, so "next drain" stops at each). */
export function countStarts(log: EventLog, kind: JumpKind): number {
  const t = JUMP_KINDS[kind].test;
  let n = 0;
  for (let i = 0; i < log.length; i++) if (t(log, i)) n++;
  return n;
}

/** The pages the log's refills asked for, or its drains returned (each start record's arg0:
 * blocks of the record's order, counted in pages). */
export function pagesMoved(log: EventLog, kind: 'refill' | 'drain'): number {
  const t = JUMP_KINDS[kind].test;
  const type = kind === 'refill' ? EV.RMQUEUE_BULK : EV.PCP_DRAIN;
  let n = 0;
  for (let i = 0; i < log.length; i++) if (log.type[i] === type && t(log, i)) n += log.arg0[i]! * (kind === 'refill' ? 2 ** log.order[i]! : 1);
  return n;
}

/** 6.7+ presets tune each list's high between high_min and high_max: the run's `high` is high_min. */
const tunedHigh = (preset: string) => (CORE_PRESETS.find((p) => p.name === preset)?.strategy.highMode ?? 0) >= 2;

const int = (v: number) => Math.round(v).toLocaleString('en');
/** "32 drains, 992 pages": how many times, and how much they moved */
const events = (n: number, what: string, pages: number) => `${int(n)} ${what}${n === 1 ? '' : 's'}, ${int(pages)} ${pages === 1 ? 'page' : 'pages'}`;

/** One labelled figure: [measure id, label, value text, what it counts]. */
type Row = [string, string, string, string?];

export function resultRows(r: RunResult): Row[] {
  const { stats: s, request: q } = r;
  const unit = workloadEntry(q.workload)?.unit ?? 'per second';
  const rows: Row[] = [];
  if (q.workload === 'stress_highalloc') {
    rows.push(['score', 'score', `${s.score} ${unit}`, `${s.hiSuccess ?? 0} of ${s.hiAttempts ?? 0} order-9 attempts got a block`]);
  } else {
    rows.push(['score', 'score', `${int(s.score)} ${unit}`, q.workload === 'hackbench' ? 'messages sent and read per second of model time' : 'summed over tasks, the warm-up round left out']);
  }
  rows.push(
    // page_fault1's score leaves the warm-up out, and so does its contention (the core times the
    // scored rounds' spin too); the other workloads' figures are of the whole run
    q.workload === 'page_fault1'
      ? ['zone-contention', 'zone->lock contention', `${(s.scoredZoneBp / 100).toFixed(2)} %`, `of the scored rounds’ CPU time spent spinning on zone->lock (${(s.zoneBp / 100).toFixed(2)} % over the whole run, warm-up included)`]
      : [
          'zone-contention',
          'zone->lock contention',
          `${(s.zoneBp / 100).toFixed(2)} %`,
          `of all CPUs’ time spent spinning on zone->lock${workloadEntry(q.workload)?.partScored ? ', over the whole run: the set-up the score leaves out included' : ''}`,
        ],
    ['acq-per-page', 'zone->lock acquisitions per page', acqPerPage(s).toFixed(3), 'fewer: more pages per lock hold (pcp batching)'],
  );
  if (q.workload === 'hackbench') {
    rows.push(['prefetch', 'freelist prefetches: in time / late / wasted', `${int(s.slabPfHit ?? 0)} / ${int(s.slabPfLate ?? 0)} / ${int(s.slabPfWasted ?? 0)}`, 'prefetch_freepointer(): landed before use, still in flight, never used']);
  } else {
    rows.push(['prefetch', 'buddy prefetches: in time / late / wasted', `${int(s.pfHit)} / ${int(s.pfLate)} / ${int(s.pfWasted)}`, 'prefetch_buddy(): landed before use, still in flight, never used']);
  }
  rows.push(...memoryRows(s));
  const cut = logWasCut(r.log);
  const where = cut ? 'in the recorded part of the run' : 'in the whole run';
  rows.push(
    ['refills', 'pcp refills (rmqueue_bulk)', events(countStarts(r.log, 'refill'), 'refill', pagesMoved(r.log, 'refill')), `each one zone->lock hold moving pages from the buddy lists to a pcp list, ${where}`],
    ['drains', 'pcp drains (free_pcppages_bulk)', events(countStarts(r.log, 'drain'), 'drain', pagesMoved(r.log, 'drain')), `each one bulk free from a pcp list that reached its high back to the buddy lists, ${where}`],
    [
      'pcp',
      'pcp lists',
      `batch ${s.batch}, ${tunedHigh(q.preset) ? 'high_min' : 'high'} ${s.high}`,
      q.batch !== undefined || q.high !== undefined
        ? 'as set for this run'
        : `the preset’s, computed for the model’s 96 GB node, not from this run’s zone${tunedHigh(q.preset) ? '; 6.7+ lets each list’s high grow from high_min towards high_max' : ''}`,
    ],
  );
  return rows;
}

/** Memory bandwidth used and the limit that binds (docs/model.md, "Memory bandwidth"). */
export function memoryRows(s: SimStats): Row[] {
  const lim = memLimitGbs(s);
  const b = bindingLimit(s);
  return [
    [
      'memory',
      'memory bandwidth',
      lim ? `${memGbs(s).toFixed(1)} GB/s, ${(s.memUtilBp / 100).toFixed(1)} % of a socket’s ${lim.toFixed(1)} GB/s` : `${memGbs(s).toFixed(1)} GB/s (no limit)`,
      `DRAM line fills, clear_page()’s write-backs and reads for ownership, all sockets; the % is the busiest socket’s; CPUs waited on memory ${(s.memWaitBp / 100).toFixed(1)} % of their time`,
    ],
    ['binds', 'the limit that binds', b.text, b.name === 'none' ? 'the CPUs’ own work sets the pace' : `the CPUs spent ${b.share.toFixed(1)} % of their time waiting on it, more than on any other`],
  ];
}

/**
 * The run's latencies, when it counted them (the workbench's runs do): p50 / p99 / p99.9 of
 * every allocation and every free, and of each rmqueue_bulk() refill and free_pcppages_bulk()
 * drain call, in model time; the longest of each in its note.
 */
export function latencyRows(s: SimStats): Row[] {
  const mhz = s.latCpuMhz;
  if (!mhz) return [];
  const t = (c: number) => nsText((c * 1000) / mhz);
  const kinds: [string, string, number, number, number, number, number, string][] = [
    ['lat-alloc', 'allocation latency p50 / p99 / p99.9', s.latAllocCount, s.latAllocP50, s.latAllocP99, s.latAllocP999, s.latAllocMax, 'allocations'],
    ['lat-free', 'free latency p50 / p99 / p99.9', s.latFreeCount, s.latFreeP50, s.latFreeP99, s.latFreeP999, s.latFreeMax, 'frees'],
    ['lat-refill', 'rmqueue_bulk() p50 / p99 / p99.9', s.latRefillCount, s.latRefillP50, s.latRefillP99, s.latRefillP999, s.latRefillMax, 'refills'],
    ['lat-drain', 'free_pcppages_bulk() p50 / p99 / p99.9', s.latDrainCount, s.latDrainP50, s.latDrainP99, s.latDrainP999, s.latDrainMax, 'drain calls'],
  ];
  return kinds
    .filter(([, , n]) => n > 0)
    .map(([id, label, n, p50, p99, p999, max, what]): Row => [id, label, `${t(p50)} / ${t(p99)} / ${t(p999)}`, `longest ${t(max)}; ${int(n)} ${what}, model time at ${int(mhz)} cycles a µs; lower is better (the latency view draws them)`]);
}

/** The card, replacing whatever `box` held. */
export function renderResults(box: HTMLElement, r: RunResult): void {
  const q = r.request;
  const title = el('h3', { id: 'results-title', text: `Results: ${q.workload} on ${q.preset}, ${runTasks(q)} ${q.workload === 'hackbench' ? 'groups' : q.workload === 'stress_highalloc' ? 'CPUs' : 'tasks'}` });
  const dl = el('dl', { class: 'results-grid' });
  for (const [id, label, value, note] of [...resultRows(r), ...latencyRows(r.stats)]) {
    dl.append(
      el(
        'div',
        { class: 'results-item', 'data-measure': id },
        el('dt', { text: label }),
        el('dd', {}, el('span', { class: 'results-value', text: value }), ...(note ? [el('span', { class: 'results-note', text: note })] : [])),
      ),
    );
  }
  const params = el('dl', { class: 'results-params' });
  for (const [k, v] of runParameters(q)) params.append(el('dt', { text: k }), el('dd', { text: typeof v === 'number' ? v.toLocaleString('en') : v }));
  const cut = logWasCut(r.log)
    ? [el('p', { class: 'hint', text: `The event log was cut at its bound: the views replay the first ${r.log.length.toLocaleString('en')} events; the figures above are the whole run’s.` })]
    : [];
  box.replaceChildren(
    title,
    dl,
    ...cut,
    el('details', { class: 'results-more' }, el('summary', { text: 'Every parameter of this run' }), params),
    howMadeLine([blabCommand(q)], 'numbers'),
  );
  box.hidden = false;
}
