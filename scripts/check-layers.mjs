#!/usr/bin/env node
// check-layers.mjs - the C core's folders are layers; this reads every #include "..." of
// wasm-core/ and fails when one breaks the order (docs/architecture.md, "The layers"):
//
//   include/  the public API: includes only include/
//   src/base/ < src/machine/ < src/mm/ < src/workloads/, src/script/, src/trace/
//     < src/exercise/ < cli/, wasm/, tools/
//
//   - a file includes its own folder, lower layers and include/ only (the three top layers
//     of src/ are siblings: none includes another);
//   - the allocator (src/mm/) never reaches a header of machine/model/ or machine/real/, not
//     even through another header: machine/machine.h is all it knows of machines;
//   - cli/, wasm/ and tools/ use the public API (include/) and their own folder only;
//   - no two folders include each other, directly or round a longer loop.
// tests/ and bench/ may include anything and are not checked.
//
//   node scripts/check-layers.mjs [ROOT]     exit 0 when the layering holds, 1 with the why
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? join(dirname(new URL(import.meta.url).pathname), '..'));
const core = join(root, 'wasm-core');
const RANK = { include: 0, 'src/base': 1, 'src/machine': 2, 'src/mm': 3, 'src/workloads': 4,
  'src/script': 4, 'src/trace': 4, 'src/exercise': 5, cli: 6, wasm: 6, tools: 6 };

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return walk(p);
    return /\.[ch]$/.test(name) ? [p] : [];
  });
}

// the layer of a file: the longest RANK key its path (relative to wasm-core/) starts with
function layerOf(rel) {
  const keys = Object.keys(RANK).filter((k) => rel === k || rel.startsWith(`${k}/`));
  return keys.sort((a, b) => b.length - a.length)[0] ?? null;
}

// #include "x": beside the including file first, then src/, then include/ (the build's -I)
function resolveInclude(file, name) {
  for (const base of [dirname(file), join(core, 'src'), join(core, 'include')]) {
    const p = join(base, name);
    if (existsSync(p)) return p;
  }
  return null;
}

const files = Object.keys(RANK).flatMap((k) => (existsSync(join(core, k)) ? walk(join(core, k)) : []));
const includes = new Map(); // file -> [{ line, name, target }]
const problems = [];
for (const file of files) {
  const list = [];
  readFileSync(file, 'utf8').split('\n').forEach((text, i) => {
    const m = /^\s*#\s*include\s+"([^"]+)"/.exec(text);
    if (!m) return;
    const target = resolveInclude(file, m[1]);
    if (!target) problems.push(`${relative(root, file)}:${i + 1}: #include "${m[1]}" names no file of the core`);
    else list.push({ line: i + 1, name: m[1], target });
  });
  includes.set(file, list);
}

const rel = (p) => relative(core, p);
const folderOf = (p) => dirname(rel(p));

// 1. each include goes down (or sideways within the file's own folder tree)
for (const [file, list] of includes) {
  const from = layerOf(rel(file));
  for (const { line, name, target } of list) {
    const to = layerOf(rel(target));
    const where = `${relative(root, file)}:${line}: #include "${name}"`;
    if (to === null) {
      problems.push(`${where}: ${rel(target)} is in no layer`);
    } else if (from === 'cli' || from === 'wasm' || from === 'tools') {
      if (to !== 'include' && to !== from)
        problems.push(`${where}: ${from}/ uses the public API (include/) only, not ${to}/`);
    } else if (to !== from && RANK[to] >= RANK[from]) {
      problems.push(`${where}: ${from}/ (layer ${RANK[from]}) may not include ${to}/ (layer ${RANK[to]})`);
    }
  }
}

// 2. nothing in src/mm/ reaches a model or real-machine header, however indirectly
const reach = (start) => {
  const seen = new Set([start]);
  const todo = [start];
  while (todo.length) {
    for (const { target } of includes.get(todo.pop()) ?? []) {
      if (!seen.has(target)) { seen.add(target); todo.push(target); }
    }
  }
  return seen;
};
for (const file of files.filter((f) => rel(f).startsWith('src/mm/'))) {
  for (const t of reach(file)) {
    if (/^src\/machine\/(model|real)\//.test(rel(t)))
      problems.push(`${relative(root, file)} reaches ${rel(t)}: the allocator knows machines through machine/machine.h only`);
  }
}

// 3. no loop between folders
const edges = new Map();
for (const [file, list] of includes) {
  for (const { target } of list) {
    const a = folderOf(file), b = folderOf(target);
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Map());
    if (!edges.get(a).has(b)) edges.get(a).set(b, `${rel(file)} -> ${rel(target)}`);
  }
}
const state = new Map(); // folder -> 1 on the path, 2 done
const path = [];
function visit(f) {
  state.set(f, 1);
  path.push(f);
  for (const [g, why] of edges.get(f) ?? []) {
    if (state.get(g) === 1) {
      const loop = path.slice(path.indexOf(g)).concat(g);
      problems.push(`folders include each other: ${loop.join(' -> ')} (one include: ${why})`);
    } else if (!state.has(g)) {
      visit(g);
    }
  }
  path.pop();
  state.set(f, 2);
}
for (const f of edges.keys()) if (!state.has(f)) visit(f);

if (problems.length) {
  for (const p of [...new Set(problems)]) console.error(`check-layers: ${p}`);
  process.exit(1);
}
console.log(`check-layers: ${files.length} files, ${[...includes.values()].reduce((n, l) => n + l.length, 0)} includes, the layers hold`);
