// The seeds' claims that docs/fidelity.md holds the model to: each a number (or a direction)
// from a seed mail, the band the model's figure must fall in, and how that figure is computed
// from one seed's runs. The bands follow one rule per kind of claim:
//   a gain or loss the seed measured: the same sign, within a factor of 2 of it;
//   "within noise": inside the seed's own spread, rounded out to whole percent;
//   a lock's contention given as a number: within 10 points; "almost 0": below 5 %;
//   a benchmark the model does not run (SDET): the direction only.
// A claim outside its band names why (`gap`), and the lesson that teaches it says so too:
// the report checks that the lesson's text cites the claim's id. `table` (the lesson's table
// that shows it) and `compare` (a compare view of the same configurations, in the browser's
// one zone) are the "How close is the model?" page's links to run it again.
import { RFC_BASE } from './experiments.mjs';

const gain = (a, b) => (b.score / a.score - 1) * 100; // b against a, %
const factor2 = (v) => (v > 0 ? { lo: v / 2, hi: v * 2 } : { lo: v * 2, hi: v / 2 });
const RULE_F2 = 'same sign, within a factor of 2';
const RULE_PTS = 'within 10 points';
const RULE_ZERO = 'below 5 %';
const bp = (x) => x / 100;

export const CLAIMS = [
  {
    id: '001-pcp', seed: '001', lesson: 'lessons/02-hotcold.md',
    table: 'sdet', compare: '?compare=v2.5.44,v2.5.45&cpus=8&pages=4096&tasks=1,2,4,8',
    what: '2.5.45 (pcp lists, rmqueue_bulk) against 2.5.44, 8 CPUs',
    says: 'SDET +10.3..+12.1 %', band: { lo: 0, hi: Infinity }, rule: 'direction only (SDET is not modelled; page_fault1 is all page allocation)',
    exp: 'pcp2002', cpus: [8], unit: '%', measure: (c) => gain(c(8, 'v2.5.44'), c(8, 'v2.5.45')),
  },
  {
    id: '000-both-112', seed: '000', lesson: 'lessons/03-prefetch-buddy.md',
    table: 'pf1', compare: '?compare=v4.16,v4.17-pick,v4.17&cpus=112&pages=4096&tasks=1,56,112',
    what: 'both 4.17 patches against 4.16, page_fault1, 112 tasks (Skylake 2S)',
    says: '+7.5 % (+4.6 % then +2.8 %)', band: factor2(7.5), rule: RULE_F2,
    exp: 'lu2018', cpus: [112], unit: '%', measure: (c) => gain(c(112, 'v4.16'), c(112, 'v4.17')),
  },
  {
    id: '000-pick-112', seed: '000', lesson: 'lessons/03-prefetch-buddy.md',
    table: 'pf1', compare: '?compare=v4.16,v4.17-pick,v4.17&cpus=112&pages=4096&tasks=1,56,112',
    what: 'pick outside zone->lock (v4.17-pick) against 4.16, 112 tasks',
    says: '+4.6 %', band: factor2(4.6), rule: RULE_F2,
    exp: 'lu2018', cpus: [112], unit: '%', measure: (c) => gain(c(112, 'v4.16'), c(112, 'v4.17-pick')),
    gap: 'the model charges each load of the one-pass pick in turn, so taking the pick out of the lock saves what its loads cost, a few cycles a page; a real core also has the next page\'s line in flight while the current one merges, which the model leaves out (out-of-order overlap), and the seed\'s other machines range from +2.9 % to +10.8 %. Without the memory controllers the figure sat at its band\'s edge, +2.5 % over seeds 1-8 (+1.7..+3.8); with them it is +1.8 % (-0.2..+3.9): zone->lock still binds, the CPUs wait on memory 0.3-0.4 % of their time, and that small wait, in the fault half of each round when the tasks clear their pages together, moves when each task reaches zone->lock, which doubles the spread over seeds (v4.16 the same, 8.21 against 8.23 M pages/s; v4.17-pick 0.5 % slower)',
  },
  {
    id: '000-prefetch-112', seed: '000', lesson: 'lessons/03-prefetch-buddy.md',
    table: 'pf1', compare: '?compare=v4.16,v4.17-pick,v4.17&cpus=112&pages=4096&tasks=1,56,112',
    what: 'the buddy prefetch (v4.17 against v4.17-pick), 112 tasks',
    says: '+2.8 %', band: factor2(2.8), rule: RULE_F2,
    exp: 'lu2018', cpus: [112], unit: '%', measure: (c) => gain(c(112, 'v4.17-pick'), c(112, 'v4.17')),
  },
  {
    id: '000-both-224', seed: '000', lesson: 'lessons/03-prefetch-buddy.md',
    table: 'pf1', compare: '?compare=v4.16,v4.17-pick,v4.17&cpus=224&pages=4096&tasks=112,224',
    what: 'both 4.17 patches against 4.16, 224 tasks (Skylake 4S)',
    says: '+12.0 % (+10.8 % then +1.1 %)', band: factor2(12.0), rule: RULE_F2,
    exp: 'lu2018_4s', cpus: [224], unit: '%', measure: (c) => gain(c(224, 'v4.16'), c(224, 'v4.17')),
    gap: 'the model\'s pick outside the lock saves about what it saves at 112 tasks, where the seed\'s 4-socket Skylake gained +10.8 % from the pick alone (its other three machines +2.9..+6.3 %); the seed does not say what made the pick worth that much more on that one machine, and the model, whose pick loads are cache hits charged at their latency, has no mechanism that would. The memory controllers are not it: on 4 sockets the busiest carries 17 % of its limit and zone->lock binds (+5.7 % without them, +4.6 % with them)',
  },
  {
    id: '002-pf1-48', seed: '002', lesson: 'lessons/04-single-pass.md',
    table: 'noise', compare: '?compare=v5.17,v5.18&cpus=48&pages=4096&tasks=2,48,79,110',
    what: 'single pass (v5.18) against two passes (v5.17), page_fault1, 48 tasks, a zone per node (the seed\'s topology)',
    says: '-0.08 % (all 16 rows -0.23..+0.19 %)', band: { lo: -1, hi: 1 }, rule: 'within the seed\'s spread, rounded out to 1 %',
    exp: 'mel2022_nodes', cpus: [48], unit: '%', measure: (c) => gain(c(48, 'v5.17'), c(48, 'v5.18')),
  },
  {
    id: '002-pf1-110', seed: '002', lesson: 'lessons/04-single-pass.md',
    table: 'noise', compare: '?compare=v5.17,v5.18&cpus=110&pages=4096&tasks=2,48,79,110',
    what: 'single pass (v5.18) against two passes (v5.17), page_fault1, 110 tasks, a zone per node',
    says: '-0.23 %', band: { lo: -1, hi: 1 }, rule: 'within the seed\'s spread, rounded out to 1 %',
    exp: 'mel2022_nodes', cpus: [110], unit: '%', measure: (c) => gain(c(110, 'v5.17'), c(110, 'v5.18')),
  },
  {
    id: '002-plateau', seed: '002', lesson: 'lessons/04-single-pass.md',
    table: 'noise', compare: '?compare=v5.17,v5.18&cpus=112&pages=4096&tasks=40,80,112',
    what: 'the plateau: v5.17\'s page_fault1 score at 40, 80 and 112 tasks, a zone per node: the highest over the lowest',
    says: 'flat from 30 to 320 processes: 25.2..27.7 M pages/s (+10 %)', band: { lo: 0, hi: 10 }, rule: 'within 10 % of each other, as the seed\'s rows are',
    exp: 'plateau', cpus: [40, 80, 112], unit: '%',
    measure: (c) => {
      const s = [40, 80, 112].map((t) => c(t, 'v5.17').score);
      return (Math.max(...s) / Math.min(...s) - 1) * 100;
    },
  },
  {
    id: '002-trunc', seed: '002', lesson: 'lessons/04-single-pass.md',
    compare: '?compare=v5.17,v5.18-prefetch,v5.18&workload=trunc&cpus=1&pages=16384',
    what: 'trunc, one task: elapsed time, v5.18 against v5.17',
    says: '-2.39 % (1S), -3.59 % (2S)', band: { lo: -7.18, hi: -1.2 }, rule: RULE_F2 + ' (of either machine)',
    exp: 'trunc', cpus: [1], unit: '%', measure: (c) => (c(1, 'v5.17').score / c(1, 'v5.18').score - 1) * 100,
  },
  {
    id: '003-hackbench', seed: '003', lesson: 'lessons/05-slub-prefetch.md',
    table: 'hackbench', compare: '?compare=v4.16:prefetch=off,v4.16:prefetch=on&workload=hackbench&cpus=8&messages=4000&tasks=2,4,8',
    what: 'hackbench time, SLUB freelist prefetch on against off, remote frees, 8 groups',
    says: '-12.4 % (20.71 -> 18.13 s)', band: factor2(-12.4), rule: RULE_F2,
    exp: 'hackbench', cpus: [8], unit: '%', measure: (c) => (c(8, 'on').elapsed_cycles / c(8, 'off').elapsed_cycles - 1) * 100,
    gap: 'the model\'s hackbench keeps every group\'s receiver on a neighbouring CPU of the same socket (the seed\'s 2,000 processes spread over both sockets, so about half of its transfers crossed them) and has no context switches, whose count fell by 32 % (28.9 M -> 19.7 M) in the seed\'s run as the messages went faster',
  },
  {
    id: '004-pf1-base', seed: '004', lesson: 'lessons/06-skip-merge.md',
    table: 'zlock', compare: '?compare=v4.17,lu-rfc-p2,lu-rfc-p3,lu-rfc-p4&cpus=112&pages=4096&tasks=56,112',
    what: 'page_fault1 112 tasks, the RFC\'s base (v4.17): zone->lock contention (scored rounds)',
    says: 'about 80 %', band: { lo: 70, hi: 90 }, rule: RULE_PTS,
    exp: 'rfc004', cpus: [112], unit: ' %', measure: (c) => bp(c(112, RFC_BASE).scored_zone_lock_contention_bp),
    gap: 'the model\'s default has one zone->lock for both sockets, whose handoffs cross sockets, and it spins just over the band\'s edge; the seed\'s machine had a zone (and a zone->lock) per node, where the model meets another limit (claim 004-pf1-base-nodes)',
  },
  {
    id: '004-pf1-base-nodes', seed: '004', lesson: 'lessons/06-skip-merge.md',
    table: 'zlock', compare: '?compare=v4.17,lu-rfc-p2,lu-rfc-p3,lu-rfc-p4&cpus=112&pages=4096&tasks=56,112',
    what: 'the same with a zone (zone->lock) and an LRU list per node, as the seed\'s 2-socket machine has them (--node-zones)',
    says: 'about 80 %', band: { lo: 70, hi: 90 }, rule: RULE_PTS,
    exp: 'rfc004_nodes', cpus: [112], unit: ' %', measure: (c) => bp(c(112, RFC_BASE).scored_zone_lock_contention_bp),
    gap: 'with a zone per node the model\'s base runs page_fault1 2.1 to 2.6 times as fast as seed 000 measured on such a machine (8.0-8.6 M pages/s), because the work a fault and an unmap do outside the allocator (page tables, mmap_lock, memcg, rmap) is one estimate for every kernel, not 2018\'s, and its zone->lock holds are shorter than the real ones. At 18-22 M pages/s it meets the memory wall first: 8 KB of DRAM traffic a page (clear_page()\'s write-backs and reads for ownership) is 76 % of each socket\'s limit, its CPUs wait on memory 58 % of their time and reach zone->lock far less often (24 % spin; without the controllers, or with clear_page_rfo = 0, 78 %). The real machine, at 8.6 M pages/s, used about a third of its bandwidth and was bound by zone->lock. Charging 4 KB a page instead would put this claim back inside and take seed 002\'s plateau and single-pass claims out (v5.17 32 M pages/s, bound by zone->lock, v5.18 3 % slower), so the read for ownership stays; the one-zone default stands in for the missing work with contention (claim 004-pf1-base)',
  },
  {
    id: '004-pf1-p4', seed: '004', lesson: 'lessons/06-skip-merge.md',
    table: 'zlock', compare: '?compare=v4.17,lu-rfc-p2,lu-rfc-p3,lu-rfc-p4&cpus=112&pages=4096&tasks=56,112',
    what: 'page_fault1 112 tasks, patches 2/4..4/4: zone->lock contention (scored rounds)',
    says: 'about 0', band: { lo: 0, hi: 5 }, rule: RULE_ZERO,
    exp: 'rfc004', cpus: [112], unit: ' %', measure: (c) => bp(c(112, 'lu-rfc-p4').scored_zone_lock_contention_bp),
  },
  {
    id: '004-pf1-lru', seed: '004', lesson: 'lessons/06-skip-merge.md',
    table: 'lru', compare: '?compare=v4.17,lu-rfc-p2,lu-rfc-p3,lu-rfc-p4&cpus=112&pages=4096&tasks=56,112',
    what: 'page_fault1 112 tasks, patches 2/4..4/4: lru_lock minus zone->lock contention (scored rounds)',
    says: 'the contention shifted to lru_lock', band: { lo: 0, hi: Infinity }, rule: 'direction: lru_lock the larger queue',
    exp: 'rfc004', cpus: [112], unit: ' points', measure: (c) => bp(c(112, 'lu-rfc-p4').scored_lru_lock_contention_bp - c(112, 'lu-rfc-p4').scored_zone_lock_contention_bp),
  },
  {
    id: '004-pfree-base', seed: '004', lesson: 'lessons/06-skip-merge.md',
    compare: '?compare=v4.17,lu-rfc-p2,lu-rfc-p3,lu-rfc-p4&workload=parallel_free&cpus=224&pages=2048&tasks=112,224',
    what: 'parallel free, 4S, 224 tasks, the RFC\'s base (v4.17): zone->lock contention (free half)',
    says: '90 %', band: { lo: 80, hi: 100 }, rule: RULE_PTS,
    exp: 'lu2018_pfree', cpus: [224], unit: ' %', measure: (c) => bp(c(224, RFC_BASE).free_zone_lock_contention_bp),
  },
  {
    id: '004-pfree-p2', seed: '004', lesson: 'lessons/06-skip-merge.md',
    compare: '?compare=v4.17,lu-rfc-p2,lu-rfc-p3,lu-rfc-p4&workload=parallel_free&cpus=224&pages=2048&tasks=112,224',
    what: 'parallel free, 224 tasks, patch 2/4: zone->lock contention',
    says: 'almost 0', band: { lo: 0, hi: 5 }, rule: RULE_ZERO,
    exp: 'lu2018_pfree', cpus: [224], unit: ' %', measure: (c) => bp(c(224, 'lu-rfc-p2').free_zone_lock_contention_bp),
  },
  {
    id: '004-pfree-p2-lru', seed: '004', lesson: 'lessons/06-skip-merge.md',
    compare: '?compare=v4.17,lu-rfc-p2,lu-rfc-p3,lu-rfc-p4&workload=parallel_free&cpus=224&pages=2048&tasks=112,224',
    what: 'parallel free, 224 tasks, patch 2/4: lru_lock contention',
    says: '90 %', band: { lo: 80, hi: 100 }, rule: RULE_PTS,
    exp: 'lu2018_pfree', cpus: [224], unit: ' %', measure: (c) => bp(c(224, 'lu-rfc-p2').free_lru_lock_contention_bp),
  },
  {
    id: '004-pfree-p3', seed: '004', lesson: 'lessons/06-skip-merge.md',
    compare: '?compare=v4.17,lu-rfc-p2,lu-rfc-p3,lu-rfc-p4&workload=parallel_free&cpus=224&pages=2048&tasks=112,224',
    what: 'parallel free, 224 tasks, patches 2/4 + 3/4: zone->lock contention',
    says: '25 %', band: { lo: 15, hi: 35 }, rule: RULE_PTS,
    exp: 'lu2018_pfree', cpus: [224], unit: ' %', measure: (c) => bp(c(224, 'lu-rfc-p3').free_zone_lock_contention_bp),
    gap: 'the model charges 3/4\'s add_to_cluster() as a read of the neighbouring page and two list operations per page, an estimate: the RFC\'s cover letter (the seed) names add_to_cluster() as the free path\'s biggest cost after skip-merge, but its patches are not among the seeds and neither the seed nor the patches break down what in it cost 25 % on the 4-socket machine, so the bookkeeping cannot be modelled from them faithfully and the model cannot be held to that size. The memory controllers do not change it: parallel free clears no pages, and the busiest socket carries 0.3 % of its limit',
  },
  {
    id: '004-pfree-p4', seed: '004', lesson: 'lessons/06-skip-merge.md',
    compare: '?compare=v4.17,lu-rfc-p2,lu-rfc-p3,lu-rfc-p4&workload=parallel_free&cpus=224&pages=2048&tasks=112,224',
    what: 'parallel free, 224 tasks, patches 2/4..4/4: zone->lock contention',
    says: 'almost 0', band: { lo: 0, hi: 5 }, rule: RULE_ZERO,
    exp: 'lu2018_pfree', cpus: [224], unit: ' %', measure: (c) => bp(c(224, 'lu-rfc-p4').free_zone_lock_contention_bp),
  },
];

/** inside the claim's band */
export const inBand = (claim, x) => x >= claim.band.lo && x <= claim.band.hi;
