// The source pane's map, read off the real core: every code path has a function, the records
// the lessons show resolve to the lines that write them, and the map survives files moving
// between folders (it finds functions by name, never by file).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blankNonCode, kernelNameOf, scanCoreSource, scanFunctions, siteOf, type CoreSourceMap, type SourceFile } from './source-scan';
import { loadCoreSource } from './source-plugin';
import { EV, PATHS } from '../log/events';

const root = join(import.meta.dirname, '..', '..');
const real = loadCoreSource(root);
const header = readFileSync(join(root, 'wasm-core/include/blab_events.h'), 'utf8');
const pathId = (name: string) => PATHS.find((p) => p.name === name)!.id;
const lineOf = (file: string, line: number) => readFileSync(join(root, file), 'utf8').split('\n')[line - 1]!;
/** a call's text from its first line on (arguments may continue on the next lines) */
const callText = (file: string, line: number) => readFileSync(join(root, file), 'utf8').split('\n').slice(line - 1, line + 3).join(' ');

describe('the core source map, scanned from wasm-core/src', () => {
  const m = real.map;

  it('names a function of ours for every code path, and the kernel function the header names', () => {
    for (const p of m.paths) {
      if (p.name === 'NONE') continue;
      expect(p.ours, p.name).toBeDefined();
      // the line is the function's definition: its name followed by "("
      expect(lineOf(p.ours!.file, p.ours!.line), p.name).toMatch(new RegExp(`\\b${p.ours!.fn}\\s*\\(`));
    }
    const k = (name: string) => m.paths.find((p) => p.name === name)!.kernel;
    expect(k('BULK_MERGE')).toBe('free_pcppages_bulk');
    expect(k('RMQUEUE_BULK')).toBe('rmqueue_bulk');
    expect(k('EXPAND')).toBe('expand');
    expect(k('FREE_ONE_PAGE')).toBe('__free_one_page');
    expect(k('ALLOC_FAST')).toBe('__rmqueue_pcplist');
    expect(k('ZONE_INIT')).toBeUndefined();
  });

  it('puts a merge under free_pcppages_bulk() at the call of __free_one_page(), and its record at the EMIT inside it', () => {
    const s = siteOf(m, EV.MERGE, pathId('BULK_MERGE'))!;
    expect(s.chain.at(-1)).toBe('__free_one_page');
    expect(callText(s.at.file, s.at.line)).toMatch(/__free_one_page\s*\(.*BLAB_PATH_BULK_MERGE/);
    expect(callText(s.emit.file, s.emit.line)).toMatch(/BLAB_EV_MERGE/);
  });

  it('finds the writer of each record the lessons step through', () => {
    const cases: [number, string, RegExp][] = [
      [EV.SPLIT, 'EXPAND', /BLAB_EV_SPLIT/],
      [EV.RMQUEUE_BULK, 'RMQUEUE_BULK', /BLAB_EV_RMQUEUE_BULK/],
      [EV.PCP_DRAIN, 'BULK_MERGE', /BLAB_EV_PCP_DRAIN/],
      [EV.PREFETCH, 'BULK_PICK', /BLAB_EV_PREFETCH\b/],
      [EV.ACCESS, 'BULK_MERGE', /BLAB_EV_ACCESS/],
    ];
    for (const [type, path, emit] of cases) {
      const s = siteOf(m, type, pathId(path));
      expect(s, `${type}:${path}`).toBeDefined();
      expect(callText(s!.at.file, s!.at.line), `${type}:${path}`).toMatch(new RegExp(`BLAB_PATH_${path}\\b`));
      expect(callText(s!.emit.file, s!.emit.line), `${type}:${path}`).toMatch(emit);
    }
    // an allocation's record is prep_new_page()'s, reached from the path the label names: the
    // pcp hit, or __rmqueue() under zone->lock without pcp lists; never the zone-init loader
    const alloc = (path: string) => siteOf(m, EV.ALLOC, pathId(path))!;
    expect(alloc('ALLOC_FAST').chain).toEqual(['rmqueue_pcplist_hit', 'prep_new_page']);
    expect(callText(alloc('ALLOC_FAST').at.file, alloc('ALLOC_FAST').at.line)).toMatch(/prep_new_page\s*\(.*BLAB_PATH_ALLOC_FAST/);
    expect(alloc('RMQUEUE').chain.at(-1)).toBe('prep_new_page');
    expect(callText(alloc('RMQUEUE').at.file, alloc('RMQUEUE').at.line)).toMatch(/BLAB_PATH_RMQUEUE\b/);
    expect(siteOf(m, EV.FREE, pathId('FREE_FAST'))!.chain.at(-1)).toBe('free_pages_prepare');
    for (const [key, s] of Object.entries(m.sites)) if (!key.endsWith(`:${pathId('ZONE_INIT')}`)) expect(`${key} ${s.at.file}`).not.toMatch(/snapshot\.c$/);
    // a wasted prefetch is placed at the prefetch() that fetched the line
    expect(siteOf(m, EV.PREFETCH_WASTED, pathId('BULK_PICK'))!.at).toEqual(siteOf(m, EV.PREFETCH, pathId('BULK_PICK'))!.at);
    // a lock record carries no path: its type's writer
    expect(callText(siteOf(m, EV.LOCK_ACQUIRE, 0)!.emit.file, siteOf(m, EV.LOCK_ACQUIRE, 0)!.emit.line)).toMatch(/BLAB_EV_LOCK_ACQUIRE/);
  });

  it('holds every site\'s lines, and every line it points at says what the map says', () => {
    let n = 0;
    for (const [key, s] of Object.entries(m.sites)) {
      for (const at of [s.at, s.emit]) {
        const snip = m.snippets[`${at.file}:${at.line}`];
        expect(snip, key).toBeDefined();
        const [first, ...lines] = snip!;
        expect(lines[at.line - first], key).toBe(lineOf(at.file, at.line));
        n++;
      }
      const [type, path] = key.split(':');
      expect(callText(s.emit.file, s.emit.line), key).toMatch(new RegExp(`BLAB_EV_(${m.types[Number(type)]}|PREFETCH)\\b`));
      if (path !== '*') expect(callText(s.at.file, s.at.line), key).toMatch(new RegExp(`BLAB_PATH_${PATHS.find((p) => p.id === Number(path))!.name}\\b`));
    }
    expect(n).toBeGreaterThan(100);
  });

  it('never names the trace importer: its records stand for a kernel that ran elsewhere', () => {
    for (const s of Object.values(m.sites)) expect(`${s.at.file} ${s.emit.file}`).not.toMatch(/(^|\/)trace\.c/);
  });

  it('survives the files moving into folders: the same functions and lines, under the new paths', () => {
    const files: SourceFile[] = real.files
      .filter((f) => f.includes(`wasm-core${'/'}src`))
      .map((f) => {
        const rel = f.slice(root.length + 1);
        const base = rel.split('/').pop()!;
        return { path: `wasm-core/src/moved/${base.startsWith('s') ? 'mm' : 'base'}/${base}`, text: readFileSync(f, 'utf8') };
      });
    const moved = scanCoreSource(files, header);
    const strip = (x: CoreSourceMap) => JSON.stringify([x.sites, x.paths], (k, v) => (k === 'file' ? (v as string).split('/').pop() : v));
    expect(strip(moved)).toBe(strip(m));
  });
});

describe('reading C', () => {
  it('blanks comments, strings and preprocessor lines, keeping lines and columns', () => {
    const c = '#define EMIT(a) \\\n\tdo { f(a); } while (0)\nint x = 1; /* { */ // }\nchar *s = "{";\n';
    const b = blankNonCode(c);
    expect(b.length).toBe(c.length);
    expect(b.split('\n').length).toBe(c.split('\n').length);
    expect(b).not.toMatch(/[{}]/);
    expect(b).toContain('int x = 1;');
  });

  it('finds definitions by name with the calls in their bodies, and skips declarations and initialisers', () => {
    const f = {
      path: 'a.c',
      text: [
        'static int helper(int x);',
        'static const struct t tab[] = { { 1 }, { 2 } };',
        'static void',
        'expand(struct zone *z, unsigned low,',
        '       unsigned high)',
        '{',
        '\tif (low < high) {',
        '\t\tEMIT(z, 0, BLAB_EV_SPLIT, 0, low, 0, 0, BLAB_PATH_EXPAND, 0, 0, 0);',
        '\t}',
        '\thelper(high);',
        '}',
      ].join('\n'),
    };
    const defs = scanFunctions(f);
    expect(defs.map((d) => [d.fn, d.line, d.end])).toEqual([['expand', 4, 11]]);
    // an attribute before the name is not the function (prep_new_page() was missed for it)
    const inl = scanFunctions({ path: 'b.h', text: 'static inline __attribute__((always_inline)) void\nprep_new_page(int a,\n\t      int b)\n{\n\tEMIT(a);\n}\n' });
    expect(inl.map((d) => [d.fn, d.line])).toEqual([['prep_new_page', 2]]);
    expect(defs[0]!.calls.map((c) => [c.callee, c.line])).toEqual([['EMIT', 8], ['helper', 10]]);
  });

  it('takes the kernel name from the header\'s words, never a field after ->', () => {
    const ours = new Set(['__rmqueue', 'expand']);
    expect(kernelNameOf('rmqueue without pcp (__rmqueue under zone->lock)', ours)).toBe('__rmqueue');
    expect(kernelNameOf('slab_alloc fast path (c->freelist)', ours)).toBe('slab_alloc');
    expect(kernelNameOf('expand', ours)).toBe('expand');
    expect(kernelNameOf('zone set-up (memblock freeing)', ours)).toBeUndefined();
  });
});
