// The fidelity report's machinery without the model: the runner runs a shared job once, a
// claim's measure names the cells it reads, the sensitivity counts a flip only past the
// claim's seed spread (a smaller move is the seed's, not the cost's), and the claims section of
// the report and the "How close is the model?" page's data are one thing written twice.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAIMS } from './claims.mjs';
import { CLAIMS_BEGIN, CLAIMS_END, checkClaimsDocument, claimRow, claimsFromReport, claimsMarkdown } from './claims-data.mjs';
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

  it('send hackbench\'s default message, the skb with its data buffer, and the bare head on request', () => {
    expect(simArgs(EXP.hackbench, 8, { seed: 2 })).toEqual(
      ['--workload', 'hackbench', '--groups', '8', '--loops', '4000', '--preset', 'v4.16', '--seed', '2']);
    expect(simArgs(EXP.hackbench_one, 8)).toContain('--data-size');
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

describe('the claims as data: the report and the page', () => {
  const claim = CLAIMS.find((c) => c.id === '002-pf1-48');
  const row = (xs, marked = true) => claimRow(claim, xs, marked, 'blab sim --workload page_fault1');

  it('gives a claim its verdict from the mean, and says when a seed is outside', () => {
    expect(row([-0.2, 0.1, 0.3]).verdict).toBe('inside');
    expect(row([-0.2, 0.1, 1.5]).verdict).toBe('inside (a seed outside)');
    expect(row([-2, -1.8, -1.5]).verdict).toBe('outside, marked in 04-single-pass.md');
    expect(row([-2, -1.8, -1.5], false).verdict).toBe('outside, not marked in 04-single-pass.md');
    expect(row([-2, -1.8, -1.5]).gap).toMatch(/\S/);
    expect(row([0, 0, 0]).gap).toBeNull();
  });

  it('writes the report\'s section from the data alone, and reads it back', () => {
    const doc = { core: 'x', claims: [row([-0.2, 0.1, 0.3]), row([-2, -1.8, -1.5])] };
    const md = claimsMarkdown(doc);
    expect(md).toContain('| **002-pf1-48**');
    expect(md).toContain('**outside**, marked in 04-single-pass.md');
    expect(md).toContain('1 of 2 claims inside their bands. Outside, and why');
    expect(claimsFromReport(`# r\n\n${CLAIMS_BEGIN}\n${md}\n${CLAIMS_END}\n\nmore`)).toBe(md);
    expect(claimsFromReport('no section')).toBeNull();
  });

  it('the committed report and the page\'s data (docs/fidelity-claims.json) say the same', () => {
    const doc = checkClaimsDocument(JSON.parse(readFileSync('docs/fidelity-claims.json', 'utf8')));
    expect(doc.claims.map((c) => c.id)).toEqual(CLAIMS.map((c) => c.id));
    expect(claimsFromReport(readFileSync('docs/fidelity.md', 'utf8'))).toBe(claimsMarkdown(doc));
  });

  it('refuses a damaged document, naming the claim and the field', () => {
    const bad = { core: 'x', claims: [{ ...row([0, 0, 0]), mean: 'high' }] };
    expect(() => checkClaimsDocument(bad)).toThrow(/002-pf1-48: mean/);
  });
});

describe('each claim\'s links to run it again', () => {
  it('open a compare view the page can parse, and name a table of the claim\'s lesson', async () => {
    const { parseCompare } = await import('../../web/compare/compare-url.ts');
    for (const c of CLAIMS) {
      expect(c.compare, c.id).toMatch(/^\?compare=/);
      expect(() => parseCompare(c.compare), c.id).not.toThrow();
      if (c.table) expect(readFileSync(c.lesson, 'utf8'), c.id).toContain(`table: ${c.table}\n`);
    }
  });
});
