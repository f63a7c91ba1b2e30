// Seeded property test of the URL state parser, the way fuzz_opscript treats op scripts: any
// hash either parses into a state that formats back to itself, or is refused with a
// UrlStateError; nothing else is ever thrown, and nothing takes long.
import { describe, expect, it } from 'vitest';
import { prng } from '../testing/prng';
import { PRESETS, URL_LIMITS, UrlStateError, WORKLOADS, formatHash, parseHash, type Preset, type Workload } from './url';

describe('parseHash under random and mutated input (seeded)', () => {
  const r = prng(9);
  const validHash = () =>
    formatHash({
      scenario: {
        pages: 2 ** (4 + r.int(19)),
        cpus: 1 + r.int(URL_LIMITS.maxCpus),
        preset: r.pick(Object.keys(PRESETS)) as Preset,
        workload: r.pick(Object.keys(WORKLOADS)) as Workload,
        seed: r.int(2 ** 32),
      },
      step: r.int(2 ** 31),
    });

  it('valid states round-trip', () => {
    for (let i = 0; i < 2000; i++) {
      const h = validHash();
      expect(formatHash(parseHash(h))).toBe(h);
    }
  });

  it('mutated, random and huge hashes parse or throw UrlStateError, and accepted ones round-trip', () => {
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < 20000; i++) {
      const kind = r.int(3);
      let h = kind === 0 ? r.str(80) : validHash();
      if (kind === 1) for (let k = r.int(4); k >= 0; k--) h = r.mutate(h);
      if (kind === 2) h = h.replace(/=\d+/, `=${'9'.repeat(1 + r.int(30))}`);
      try {
        const u = parseHash(h);
        accepted++;
        expect(u.scenario.pages).toBeLessThanOrEqual(URL_LIMITS.maxPages);
        expect(parseHash(formatHash(u))).toEqual(u);
      } catch (e) {
        if (!(e instanceof UrlStateError)) throw new Error(`seed 9 case ${i}: ${String(e)} for ${JSON.stringify(h)}`);
        expect(e.message.length).toBeLessThan(300);
        refused++;
      }
    }
    // both sides were exercised
    expect(accepted).toBeGreaterThan(200);
    expect(refused).toBeGreaterThan(1000);
  });

  it('a hash past the length limit is refused before it is read', () => {
    const h = `#pages=16&${'x'.repeat(URL_LIMITS.maxHashLength)}`;
    expect(() => parseHash(h)).toThrow(`the URL state is ${h.length - 1} characters; the limit is ${URL_LIMITS.maxHashLength}`);
    expect(() => parseHash('#pages=1099511627776')).toThrow('pages=1099511627776: must be between 16 and 4194304');
  });
});
