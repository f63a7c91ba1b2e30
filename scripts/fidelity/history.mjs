// Each claim's figure in earlier reports, for docs/fidelity.md's "Before and after": quoted
// from the docs/fidelity.md those commits generated (their cores are not this one, so these
// cannot be recomputed here), with what moved the figure since.
//   main: main at 4d03794, one seed, its sizes (4096 pages on the real caches; seed 000's 4
//         sockets at 1024 pages; seed 004's page_fault1 at 1024 pages, 4 rounds, the whole run)
//   merged: this branch at 2510535 (three seeds, the sizes of "Sizes and noise"), before the
//         skb's data buffer
//   before: 6b9f73b, the core before the memory controllers (docs/model.md, "Memory
//         bandwidth"), three seeds; seed 002's page_fault1 claims then ran on one zone with the
//         tasks in step
// A figure that moved by more than a point says why: `since` for the move from `before` to
// now, `why` for the earlier ones.

export const HISTORY_COMMITS = { main: '4d03794', merged: '2510535', before: '6b9f73b' };

/** what moved figures since `before`: each socket's memory controller */
const WALL_STEP = 'the memory controllers: the tasks fault in step, and in the fault half of each round their clears wait a little for the controller (under 1 % of the CPUs\' time at one zone), which moves when each task reaches zone->lock; the 112-task steps move by about their spread over seeds';

export const HISTORY = {
  '001-pcp': { before: '+86.7% (+85.9..+87.9)',
    main: '+89.3%', merged: '+90.3% (+89.6..+91.0)',
    why: 'since 2026-11-26 the 2002 presets split as 2.5\'s expand() did, handing a block out from its top: the top page\'s struct page is first read after zone->lock in 2.5.44 and under it in 2.5.45\'s rmqueue_bulk(), so 2.5.44\'s hold shortens and 2.5.45\'s grows (+90.0 % before this change; seed 001\'s section has the numbers)',
  },
  '000-both-112': { before: '+6.5% (+5.7..+7.6)', since: WALL_STEP + ' (over seeds 1-8: +4.9 % with the controllers, +5.6 % without them; v4.17 0.5 % slower with them, v4.16 level)',
    main: '+3.7%', merged: '+6.5% (+5.7..+7.6)',
    why: 'caches / 8 for the 4.x presets (the footprint-to-cache ratio of will-it-scale\'s 128 MB: "Sizes and noise") and three seeds; the work under the lock barely changed (hold per acquisition, seed 1: 4,638 / 4,553 / 4,403 cycles for v4.16 / v4.17-pick / v4.17, main 4,640 / 4,526 / 4,450, the same prefetch hits and late ones), so the move is in how the 112 tasks\' rounds line up, which the seed draws: main\'s one run was at the low end of what seeds 1-3 now show',
  },
  '000-pick-112': { before: '+2.3% (+2.0..+2.8)', since: WALL_STEP + ', and this one, at its band\'s edge before, crosses it (over seeds 1-8: +1.8 % with the controllers, +2.5 % without them, the spread doubled)',
    main: '+4.4%', merged: '+2.3% (+2.0..+2.8)',
    why: 'as 000-both-112: the same hold times, another size and three seeds; the two steps trade places (main: a large pick and a prefetch that cost, now the other way round), which is why the report now gives every step its range over seeds',
  },
  '000-prefetch-112': { before: '+4.0% (+3.2..+5.4)', since: WALL_STEP,
    main: '-0.7%', merged: '+4.0% (+3.2..+5.4)',
    why: 'as 000-pick-112',
  },
  '000-both-224': { before: '+5.7% (+5.4..+5.9)', since: WALL_STEP.replace('the 112-task steps move', 'the 224-task comparison moves'),
    main: '+3.9%', merged: '+5.7% (+5.4..+5.9)',
    why: 'the 4-socket run at 4096 pages, caches / 8, like the 2-socket one (main: 1024 pages on the real caches)',
  },
  '002-pf1-48': { before: '-2.3% (-3.2..-1.6), one zone, in step', since: 'held at the seed\'s topology now (a zone per node, the tasks out of step as will-it-scale\'s processes are), where the model, like the seed\'s machine, is bound by memory bandwidth and the lock has slack (seed 002\'s section, "At the seed\'s topology"); on one zone with the tasks in step the single pass still costs what it cost', main: '-2.0%', merged: '-2.3% (-3.2..-1.6)' },
  '002-pf1-110': { before: '-1.9% (-3.1..-0.6), one zone, in step', since: 'as 002-pf1-48', main: '-3.1%', merged: '-1.9% (-3.1..-0.6)', why: 'seeds 1-3 (seed 1 alone: -3.1 %)' },
  '002-plateau': { since: "a new claim: the seed\'s page_fault1 rows from 30 to 320 processes are within 10 % of each other, the plateau the memory controllers give the model too" },
  '002-trunc': { before: '-4.3% (-4.3..-4.3)', main: '-4.3%', merged: '-4.3% (-4.3..-4.3)' },
  '003-hackbench': { before: '-6.5% (-6.6..-6.4)',
    main: 'not in the report', merged: '-4.1% (-4.4..-3.9)',
    why: 'a message is now the skb\'s two allocations, head and data buffer (`--data-size 512`), so the prefetch hides two remote-freed lines a message instead of one',
  },
  '004-pf1-base': { before: '90.7 (90.6..90.8) %',
    main: '90.7 % (whole run)', merged: '91.4 (91.4..91.5) %',
    why: 'the scored rounds\' contention (the warm-up\'s splitting left out, as in a profile of the running benchmark), at 4096 pages; since 2026-11-26 of the RFC\'s own base, v4.17 (4.16 with 4.17\'s two-pass bulk free, the tree the RFC edits) rather than v4.16',
  },
  '004-pf1-base-nodes': { before: '78.0 (78.0..78.0) %', since: 'the memory controllers: at a zone per node the model\'s base runs more than twice as fast as seed 000\'s machine did and meets the memory wall, and its CPUs wait on memory instead of zone->lock (the claim\'s reason, above); with clear_page_rfo = 0, 4 KB of traffic a page instead of 8, it is 77.8 % again (seed 1), and seed 002\'s three claims leave their bands', main: '73.1 % (whole run, seed 1)', merged: '79.0 % (seed 1; not a claim then)', why: 'the scored rounds, as 004-pf1-base; and the RFC\'s own base, v4.17, as 004-pf1-base (79.0 % -> 78.0 %: 4.17 picks the pages outside the lock)' },
  '004-pf1-p4': { before: '0.0 (0.0..0.0) %',
    main: '34.2 % (whole run)', merged: '0.0 (0.0..0.0) %',
    why: 'the scored rounds: the 34 % was the warm-up round splitting every page out of high-order blocks (expand() under zone->lock), which a five-minute run does once',
  },
  '004-pf1-lru': { before: '78.8 (78.7..78.9) points', since: 'the memory controllers: at one zone lu-rfc-p4 runs about twice as fast as its base and meets the memory wall part of the time, so its CPUs reach lru_lock less often; lru_lock is still the larger queue',
    main: '+14.7 points (whole run)', merged: '78.8 (78.7..78.9) points',
    why: 'the scored rounds, as 004-pf1-p4',
  },
  '004-pfree-base': { before: '95.3 (95.3..95.3) %', main: '95.9 %', merged: '95.9 (95.8..95.9) %', why: 'since 2026-11-26 of the RFC\'s own base, v4.17, as 004-pf1-base' },
  '004-pfree-p2': { before: '0.0 (0.0..0.0) %', main: '1.7 %', merged: '0.0 (0.0..0.0) %', why: 'the RFC presets on the tree it was posted against (4.16 with 4.17\'s two-pass bulk free; docs/skipmerge.md)' },
  '004-pfree-p2-lru': { before: '96.6 (96.5..96.6) %', main: '95.9 %', merged: '96.6 (96.5..96.6) %' },
  '004-pfree-p3': { before: '1.1 (1.1..1.1) %',
    main: '24.8 %', merged: '1.1 (1.1..1.1) %',
    why: 'two changes: caches / 8 (24.8 % -> 9.6 % on main\'s presets), then the RFC presets on the tree it was posted against (9.6 % -> 1.1 %; docs/skipmerge.md). Main\'s were on 4.16\'s one-pass loop, which picks each page off the pcp list with zone->lock held, so 3/4\'s cluster upkeep came on top of a long hold; on 4.17\'s two-pass loop (patch 4/4\'s context lines) the pick is outside the lock and the model\'s estimate of the upkeep alone leaves the lock almost idle. Main\'s figure was inside the band for a reason the RFC\'s tree does not have',
  },
  '004-pfree-p4': { before: '0.0 (0.0..0.0) %', main: '3.8 %', merged: '0.0 (0.0..0.0) %', why: 'as 004-pfree-p3' },
};
