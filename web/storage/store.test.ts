import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../scenario/url';
import { prng } from '../testing/prng';
import { BACKUP_KEY, STORAGE_KEY, SCHEMA_VERSION, Store, StoreError, migrate, parseDoc, type KeyValue, type Migration } from './store';

const memory = (init: Record<string, string> = {}): KeyValue & { data: Map<string, string> } => {
  const data = new Map(Object.entries(init));
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
};

describe('Store', () => {
  it('keeps saved scenarios across a reload (a new Store over the same storage)', () => {
    const kv = memory();
    const a = new Store(kv);
    a.saveScenario('big zone', { ...DEFAULT_SCENARIO, pages: 65536, cpus: 8 });
    a.saveScenario('tiny', { ...DEFAULT_SCENARIO, pages: 16 });
    a.saveScenario('big zone', { ...DEFAULT_SCENARIO, pages: 65536, cpus: 16 }); // replaces
    const b = new Store(kv);
    expect(b.problem).toBeUndefined();
    expect(b.scenarios.map((s) => [s.name, s.scenario.cpus])).toEqual([
      ['tiny', 4],
      ['big zone', 16],
    ]);
    expect(JSON.parse(kv.data.get(STORAGE_KEY)!).schema).toBe(SCHEMA_VERSION);
  });

  it('refuses a name that hides what it holds (a bidirectional override), saved or imported', () => {
    const a = new Store(memory());
    expect(() => a.saveScenario('evil\u202egnp.exe', DEFAULT_SCENARIO)).toThrow(
      'the name is refused: it holds U+202E, a control, bidirectional or invisible character',
    );
    expect(a.scenarios).toHaveLength(0);
    const file = JSON.stringify({ schema: SCHEMA_VERSION, scenarios: [{ name: 'x\u2066y', scenario: DEFAULT_SCENARIO }] });
    expect(() => a.importText(file)).toThrow(/scenarios\[0\]\.name: it holds U\+2066/);
  });

  it('exports a file that imports into another browser', () => {
    const a = new Store(memory());
    a.saveScenario('s1', { ...DEFAULT_SCENARIO, seed: 7 });
    a.setLesson('buddy-merge', { step: 3, done: false });
    const b = new Store(memory());
    b.saveScenario('s1', DEFAULT_SCENARIO);
    expect(b.importText(a.exportText())).toBe(1);
    expect(b.scenarios).toHaveLength(1);
    expect(b.scenarios[0]!.scenario.seed).toBe(7);
    expect(b.lesson('buddy-merge')).toEqual({ step: 3, done: false });
  });

  it('keeps an unreadable document aside and starts fresh, saying so', () => {
    const kv = memory({ [STORAGE_KEY]: '{"schema":1,"scenarios":[{"name":"x","scenario":{"pages":1099511627776}}]}' });
    const s = new Store(kv);
    expect(s.problem).toMatch(/scenarios\[0\]\.scenario\.cpus: missing|scenarios\[0\]\.scenario/);
    expect(kv.data.get(BACKUP_KEY)).toContain('1099511627776');
    expect(s.scenarios).toEqual([]);
  });

  it('leaves a newer document untouched and refuses to overwrite it', () => {
    const newer = JSON.stringify({ schema: SCHEMA_VERSION + 1, scenarios: [], future: true });
    const kv = memory({ [STORAGE_KEY]: newer });
    const s = new Store(kv);
    expect(s.problem).toMatch(/newer buddylab/);
    expect(() => s.saveScenario('a', DEFAULT_SCENARIO)).toThrow(StoreError);
    expect(kv.data.get(STORAGE_KEY)).toBe(newer);
  });

  it('names where a document is wrong', () => {
    expect(() => parseDoc('[1]')).toThrow('expected a JSON object with a schema number');
    expect(() => parseDoc('{"scenarios":[]}')).toThrow('schema: expected a version number');
    expect(() => parseDoc('{"schema":1,"scenarios":[{"name":"","scenario":{}}]}')).toThrow('scenarios[0].name: expected 1 to 80 characters');
    expect(() =>
      parseDoc('{"schema":1,"scenarios":[{"name":"a","scenario":{"pages":1099511627776,"cpus":1,"preset":"v5.18","workload":"page_fault1","seed":1}}]}'),
    ).toThrow('scenarios[0].scenario: pages=1099511627776: must be between 16 and 4194304');
    expect(() => parseDoc('{"schema":1,"lessons":{"a":{"step":-1,"done":false}}}')).toThrow('lessons.a: expected');
    expect(() => parseDoc('x'.repeat(300_000))).toThrow(/the limit is 262,144/);
  });

  it('runs migrations in order from the stored version', () => {
    // a made-up history, to test the chain: v1 kept scenarios as links, v2 named the lessons map
    const steps: Record<number, Migration> = {
      1: (d) => ({ ...d, schema: 2, progress: d['progress'] ?? {} }),
      2: (d) => ({ schema: 3, scenarios: d['scenarios'], lessons: d['progress'] }),
    };
    const v1 = { schema: 1, scenarios: [{ name: 'a', scenario: DEFAULT_SCENARIO }] };
    expect(migrate(v1, steps, 3)).toEqual({ schema: 3, scenarios: v1.scenarios, lessons: {} });
    expect(() => migrate({ schema: 1 }, { 1: (d) => d }, 2)).toThrow('did not set schema = 2');
    expect(() => migrate({ schema: 1 }, {}, 2)).toThrow('no migration from schema 1');
  });

  it('never throws anything but StoreError on mutated documents (seeded)', () => {
    const r = prng(2026);
    const good = new Store(memory());
    good.saveScenario('a', DEFAULT_SCENARIO);
    good.setLesson('l1', { step: 1, done: true });
    const base = good.exportText();
    for (let i = 0; i < 3000; i++) {
      let t = base;
      for (let k = r.int(4); k >= 0; k--) t = r.mutate(t);
      try {
        parseDoc(t);
      } catch (e) {
        if (!(e instanceof StoreError)) throw new Error(`case ${i}: ${String(e)} for ${JSON.stringify(t)}`);
      }
    }
  });
});
