// The fidelity report's machinery without the model: the runner runs a shared job once, a
// claim's measure names the cells it reads, and the sensitivity counts a flip only past the
// claim's seed spread (a smaller move is the seed's, not the cost's).
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAIMS } from './claims.mjs';
import { EXP, cellsRead, runCells, simArgs } from './experiments.mjs';
import { makeRunner } from './runner.mjs';
import { COSTS, sensitivityMarkdown } from './sensitivity.mjs';

/** a stand-in for build/native/blab: logs each call, answers one page_fault1 row */
function fakeBlab(dir) {
  const log = join(dir, 'calls');
  writeFileSync(log, '');
  const bin = join(dir, 'blab');
  writeFileSync(bin, `#!/bin/sh
echo "$*" >> '${log}'
preset=$(echo "$*" | sed 's/.*--preset \\([^ ]*\\).*/\\1/')
echo "{\\"rows\\":[{\\"tasks\\":2,\\"presets\\":{\\"$preset\\":{\\"score\\":100}}}]}"
`);
  chmodSync(bin, 0o755);
  return { bin, calls: () => readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) };
}

describe('the fidelity runner', () => {
  it('runs a job that two experiments ask for at once only once, and caches it by the binary', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fidelity-'));
    const blab = fakeBlab(dir);
    const runner = makeRunner({ blab: blab.bin, cacheDir: join(dir, 'cache'), jobs: 2 });
    const args = ['--workload', 'page_fault1', '--cpus', '2', '--preset', 'v4.16'];
    const [a, b] = await Promise.all([runner.sim(args), runner.sim([...args])]);
    expect(a).toEqual(b);
    expect(blab.calls()).toHaveLength(1);
    const again = makeRunner({ blab: blab.bin, cacheDir: join(dir, 'cache'), jobs: 2 });
    expect(await again.sim(args)).toEqual(a);
    expect(blab.calls()).toHaveLength(1); // from build/fidelity-cache, not run again
    expect(again.stats()).toMatchObject({ fresh: 0, cached: 1 });
  });

  it('runs an experiment one preset at a time and merges the cells', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fidelity-'));
    const blab = fakeBlab(dir);
    const runner = makeRunner({ blab: blab.bin, cacheDir: join(dir, 'cache'), jobs: 2 });
    const e = { workload: 'page_fault1', cpus: [2], presets: ['v4.16', 'v4.17'], pages: 64, seeds: 1 };
    const { cells } = await runCells(runner, e, 2, { seed: 1 });
    expect(Object.keys(cells[2]).sort()).toEqual(['v4.16', 'v4.17']);
    expect(blab.calls().map((c) => c.match(/--preset (\S+)/)[1]).sort()).toEqual(['v4.16', 'v4.17']);
  });
});

describe('the claims', () => {
  it('name the cells their measures read, so the sensitivity runs only those', () => {
    const both224 = CLAIMS.find((c) => c.id === '000-both-224');
    expect([...cellsRead(both224).get(224)].sort()).toEqual(['v4.16', 'v4.17']);
  });

  it('each run an experiment that exists, at task counts it runs', () => {
    for (const c of CLAIMS) {
      const e = EXP[c.exp];
      expect(e, c.id).toBeDefined();
      for (const t of cellsRead(c).keys()) expect(e.cpus ?? e.groups, c.id).toContain(t);
    }
  });

  it('send hackbench with the skb\'s data buffer', () => {
    expect(simArgs(EXP.hackbench, 8, { seed: 2 })).toEqual(
      ['--workload', 'hackbench', '--groups', '8', '--loops', '4000', '--preset', 'v4.16', '--data-size', '512', '--seed', '2']);
  });
});

describe('the sensitivity table', () => {
  const claim = { id: 'x', band: { lo: 2, hi: 8 }, unit: '%', exp: 'lu2018' };
  const rows = (lo, hi, key = 'clear_page_cycles') => ({
    dflt: Object.fromEntries(COSTS.map(([k]) => [k, 100])),
    base: { x: 3 },
    variants: COSTS.flatMap(([k]) => [0.75, 1.25].map((f) => ({
      key: k, f, value: 100 * f, same: false, values: { x: k === key ? (f < 1 ? lo : hi) : 3 },
    }))),
  });

  it('counts a crossing larger than the seed spread as a flip, fragile under an estimated cost', () => {
    const { fragile, markdown } = sensitivityMarkdown(rows(1.5, 3), [claim], { x: 1 });
    expect(fragile).toEqual(['x']);
    expect(markdown).toContain('clear_page_cycles 75');
  });

  it('does not count a crossing within the seed spread', () => {
    expect(sensitivityMarkdown(rows(1.5, 3), [claim], { x: 2 }).fragile).toEqual([]);
  });

  it('lists a flip under a measured latency without calling the claim fragile', () => {
    const { fragile, markdown } = sensitivityMarkdown(rows(1.5, 3, 'mem_cycles'), [claim], { x: 0.5 });
    expect(fragile).toEqual([]);
    expect(markdown).toContain('mem_cycles 75');
  });
});
