// The "How close is the model?" page's rows: each claim with its source, band, the model's
// spread and verdict, why it is outside, and the links that run it again.
import { describe, expect, it } from 'vitest';
import type { ClaimRow } from '../../scripts/fidelity/claims-data.mjs';
import { fidelityRow, fidelityRows } from './fidelity-rows';

const claim = (over: Partial<ClaimRow>): ClaimRow => ({
  id: '002-pf1-48',
  seed: '002',
  seedFile: '002_0ccdcf9b90d51c0a.txt',
  seedTitle: 'Mel Gorman’s single pass, 2022 (Linux 5.18)',
  what: 'single pass against two passes, 48 tasks',
  says: '-0.08 %',
  band: { lo: -1, hi: 1 },
  bandText: '-1 .. 1%',
  rule: 'within the seed’s spread',
  unit: '%',
  seeds: [-0.2, 0.1, 0.4],
  mean: 0.1,
  min: -0.2,
  max: 0.4,
  model: '+0.1% (-0.2..+0.4)',
  inside: true,
  marked: true,
  verdict: 'inside',
  gap: null,
  lesson: 'lessons/04-single-pass.md',
  lessonTable: 'noise',
  compare: '?compare=v5.17,v5.18&cpus=48',
  command: 'blab sim --workload page_fault1 --cpus 48 --preset v5.17,v5.18',
  ...over,
});
const lessons = { 'lessons/04-single-pass.md': { id: 'singlepass', number: 4, title: 'Back to a single pass (2022)', tables: { landed: 2, noise: 3 } } };

describe('fidelity page rows', () => {
  it('link a claim to its lesson’s table step and to the compare view', () => {
    const r = fidelityRow(claim({}), lessons);
    expect(r.links).toEqual([
      { href: '?lesson=singlepass&step=3', text: 'lesson 4, step 3: Back to a single pass (2022)' },
      { href: '?compare=v5.17,v5.18&cpus=48', text: 'compare view' },
    ]);
    expect(r.source).toBe('Mel Gorman’s single pass, 2022 (Linux 5.18) (seed 002)');
    expect(r.spread).toBe('mean +0.1 %, -0.2 % .. +0.4 % over seeds 1-3');
    expect(r.verdict).toBe('inside');
    expect(r.why).toBeNull();
  });

  it('say why a claim is outside, and whether its lesson says so', () => {
    const out = fidelityRow(claim({ inside: false, verdict: 'outside, marked in 04-single-pass.md', gap: 'the lock is busier' }), lessons);
    expect(out.verdict).toBe('outside');
    expect(out.verdictText).toBe('outside, and its lesson says so');
    expect(out.why).toBe('the lock is busier');
    expect(fidelityRow(claim({ inside: false, marked: false, verdict: 'outside, not marked in 04-single-pass.md', gap: 'x' }), lessons).verdictText).toBe('outside, and its lesson does not say so yet');
  });

  it('count the claims inside, and link a lesson without a table to its first step', () => {
    const doc = { core: 'abc', generatedBy: 'make fidelity', claims: [claim({}), claim({ id: 'x', inside: false, verdict: 'outside, marked in 04-single-pass.md', gap: 'g', lessonTable: null, compare: null })] };
    const { rows, inside } = fidelityRows(doc, lessons);
    expect(inside).toBe(1);
    expect(rows[1]!.links).toEqual([{ href: '?lesson=singlepass', text: 'lesson 4: Back to a single pass (2022)' }]);
  });
});
