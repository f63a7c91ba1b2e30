// The maps check themselves: every file of the core (wasm-core/src, wasm-core/cli) and of the
// app (web/) is named in its folder's README.md, and every command of `blab` (the command table
// in wasm-core/cli/blab.c) is in docs/architecture.md. A new file, a renamed one or a new
// command fails here (`make check`) until the map says where it lives.
//
// The rules:
//  - every folder under those roots has a README.md, or else its parent's README names it as a
//    folder (`procfs/`): a folder of data (fixtures, screenshot baselines) whose files are
//    described as a whole;
//  - a file is named when its whole name is written in the README (`pcp.c`, not `pcp`);
//  - a test named after a file the README names is named with it: `url.test.ts` and
//    `url.fuzz.test.ts` test `url.ts`;
//  - a command is in the architecture page when `blab NAME` is written there in backticks.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['wasm-core/src', 'wasm-core/cli', 'web'];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `name` written whole in `text`: not part of a longer file name. */
export const names = (text, name) => new RegExp(`(?<![\\w.-])${escape(name)}(?![\\w-]|\\.\\w)`).test(text);

/** The file a test is named after: `url.fuzz.test.ts` -> `url.ts`; null for other files. */
export function testedFile(file) {
  const m = /^([^.]+)(?:\.[\w-]+)*\.(?:test|spec)\.(ts|mjs|js)$/.exec(file);
  return m ? `${m[1]}.${m[2]}` : null;
}

/** What a folder's README misses: its files not named, its folders with no README of their own. */
export function unnamed(dir, list = (d) => readdirSync(d), isDir = (p) => statSync(p).isDirectory(), read = (p) => readFileSync(p, 'utf8')) {
  const missing = [];
  const walk = (d) => {
    const entries = list(d).sort();
    const readme = read(join(d, 'README.md'));
    for (const e of entries) {
      const p = join(d, e);
      if (isDir(p)) {
        if (list(p).includes('README.md')) walk(p);
        else if (!names(readme, `${e}/`)) missing.push(`${p}/ has no README.md, and ${d}/README.md does not name it`);
      } else if (e !== 'README.md' && !names(readme, e)) {
        const subject = testedFile(e);
        if (!subject || subject === e || !entries.includes(subject) || !names(readme, subject)) missing.push(`${p} (not in ${d}/README.md)`);
      }
    }
  };
  if (list(dir).includes('README.md')) walk(dir);
  else missing.push(`${dir}/ has no README.md`);
  return missing;
}

/** The commands of blab's command table: {"NAME", cmd_..., "help"} rows of commands[]. */
export function blabCommands(source) {
  const at = source.indexOf('commands[] = {');
  if (at < 0) throw new Error('wasm-core/cli/blab.c: no commands[] table');
  const table = source.slice(at, source.indexOf('};', at));
  return [...table.matchAll(/\{\s*"([\w-]+)",\s*cmd_\w+\s*,/g)].map((m) => m[1]);
}

describe('the maps check themselves', () => {
  for (const root of ROOTS) {
    it(`every file in ${root} is named in its folder's README.md`, () => {
      expect(unnamed(root)).toEqual([]);
    });
  }

  it('every command of blab (wasm-core/cli/blab.c) is in docs/architecture.md', () => {
    const cmds = blabCommands(readFileSync('wasm-core/cli/blab.c', 'utf8'));
    expect(cmds.length).toBeGreaterThanOrEqual(10);
    const doc = readFileSync('docs/architecture.md', 'utf8');
    expect(cmds.filter((c) => !doc.includes(`\`blab ${c}\``))).toEqual([]);
  });
});

describe('the map check itself', () => {
  // a small tree in memory: folder -> entries; README texts by folder
  const tree = {
    a: ['README.md', 'pcp.c', 'pcp.h', 'sim.c', 'url.ts', 'url.test.ts', 'url.fuzz.test.ts', 'lone.test.ts', 'data', 'sub', 'mm'],
    'a/data': ['x.bin'],
    'a/sub': ['y.c'],
    'a/mm': ['README.md', 'zone.c', 'buddy.c'],
  };
  const readmes = {
    'a/README.md': '`pcp.c` and `url.ts`; `data/` holds fixtures; `mm/` the allocator; see real_sim.c and sim.c.o',
    'a/mm/README.md': '`zone.c`',
  };
  const check = () => unnamed('a', (d) => tree[d], (p) => p in tree, (p) => readmes[p] ?? '');

  it('names what a README leaves out, and only that', () => {
    expect(check()).toEqual([
      'a/lone.test.ts (not in a/README.md)',
      'a/mm/buddy.c (not in a/mm/README.md)',
      'a/pcp.h (not in a/README.md)',
      'a/sim.c (not in a/README.md)',
      'a/sub/ has no README.md, and a/README.md does not name it',
    ]);
  });

  it('reads a whole name only', () => {
    expect(names('`pcp.c`, `slab.h`.', 'pcp.c')).toBe(true);
    expect(names('the end: slab.h.', 'slab.h')).toBe(true);
    expect(names('real_sim.c', 'sim.c')).toBe(false);
    expect(names('sim.c.o', 'sim.c')).toBe(false);
    expect(names('presets', 'preset')).toBe(false);
  });

  it("reads blab's command table", () => {
    const src = 'static const struct command {\n} commands[] = {\n\t{"replay", cmd_replay, "x"},\n\t{"sim", cmd_sim, "y"},\n};\n{"no", cmd_no, "z"}';
    expect(blabCommands(src)).toEqual(['replay', 'sim']);
  });
});
