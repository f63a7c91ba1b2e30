#!/usr/bin/env node
// check-layers.mjs - the C core's folders are layers; this reads every #include "..." of
// wasm-core/, and which folder defines each function or datum a folder's objects use, and
// fails when one breaks the order (docs/architecture.md, "The core's layers"):
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
//   - no two folders include each other, directly or round a longer loop;
//   - calls: a folder's objects use symbols defined in their own layer or a lower one, never
//     in a sibling or a higher layer, whatever header declared them (a public function of
//     src/trace/ is still src/trace/'s: src/script/ may not call it). Read with `nm` from
//     the objects of a native build, as scripts/check-unused-symbols.sh does; wasm/*.c is
//     compiled natively into a scratch folder only to read its symbols.
// tests/ and bench/ may include and call anything and are not checked.
//
// Each run first feeds the call check a made-up tree with violations it must report
// (selfTest()), so a check that has stopped seeing them fails rather than passes.
//
//   node scripts/check-layers.mjs [ROOT] [--build DIR]   exit 0 when the layering holds,
//                                                         1 with the why (DIR: build/native)
//   node scripts/check-layers.mjs --self-test            the self-test only (no build needed)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';

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

// ---------------------------------------------------------------- includes

// #include "x": beside the including file first, then src/, then include/ (the build's -I)
function resolveInclude(core, file, name) {
  for (const base of [dirname(file), join(core, 'src'), join(core, 'include')]) {
    const p = join(base, name);
    if (existsSync(p)) return p;
  }
  return null;
}

/** The include rules over the tree at root; returns { problems, files, includes }. */
function includeProblems(root) {
  const core = join(root, 'wasm-core');
  const files = Object.keys(RANK).flatMap((k) => (existsSync(join(core, k)) ? walk(join(core, k)) : []));
  const includes = new Map(); // file -> [{ line, name, target }]
  const problems = [];
  for (const file of files) {
    const list = [];
    readFileSync(file, 'utf8').split('\n').forEach((text, i) => {
      const m = /^\s*#\s*include\s+"([^"]+)"/.exec(text);
      if (!m) return;
      const target = resolveInclude(core, file, m[1]);
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
  return { problems, files, includes };
}

// ---------------------------------------------------------------- calls

/**
 * The call rule, pure: defs maps a symbol to the source files (relative to wasm-core/) that
 * define it, uses lists { file, symbol } for every undefined symbol of a file's object.
 * A use is fine when some definer sits in the user's own layer or a lower one; symbols no
 * file of the core defines (the C library's) are not the core's business.
 */
function callProblems(defs, uses) {
  const problems = [];
  for (const { file, symbol } of uses) {
    const from = layerOf(file);
    const where = defs.get(symbol);
    if (!from || !where) continue;
    const ok = where.some((d) => {
      const to = layerOf(d);
      return to !== null && (to === from || RANK[to] < RANK[from]);
    });
    if (!ok) {
      const d = where[0], to = layerOf(d);
      problems.push(`${file} calls ${symbol}(), defined in ${d}: ${from}/ (layer ${RANK[from]}) may not call into ${to}/ (layer ${RANK[to]})`);
    }
  }
  return problems;
}

// the source file of an object of a CMake build: CMakeFiles/T.dir/PATH.c.o -> PATH.c
const sourceOfObject = (o) => /CMakeFiles\/[^/]+\.dir\/(.+)\.o$/.exec(o)?.[1] ?? null;

function findObjects(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return findObjects(p);
    return name.endsWith('.c.o') ? [p] : [];
  });
}

function nm(args) {
  return execFileSync('nm', args, { encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, LC_ALL: 'C' } });
}

/**
 * defs and uses (as callProblems() wants them) of the core, CLI and tools objects of the
 * build in buildDir, and of wasm/*.c compiled natively; null when the build has no objects.
 * Objects whose source is gone (a build kept across a move of files) are left out.
 */
function readObjects(root, buildDir) {
  const core = join(root, 'wasm-core');
  const objects = []; // [object, source relative to wasm-core/]
  for (const target of ['blabcore', 'blab', 'blab-schema']) {
    for (const o of findObjects(join(buildDir, 'CMakeFiles', `${target}.dir`))) {
      const src = sourceOfObject(o);
      if (src && existsSync(join(core, src))) objects.push([o, src]);
    }
  }
  if (objects.length < 10) return null;
  const tmp = mkdtempSync(join(tmpdir(), 'check-layers-'));
  try {
    for (const f of readdirSync(join(core, 'wasm')).filter((n) => n.endsWith('.c'))) {
      const o = join(tmp, `${basename(f, '.c')}.o`);
      execFileSync('cc', ['-std=c11', '-D_GNU_SOURCE', '-O0', '-w', '-c', `-I${join(core, 'include')}`,
        `-I${join(core, 'src')}`, join(core, 'wasm', f), '-o', o]);
      objects.push([o, `wasm/${f}`]);
    }
    const defs = new Map(), uses = [];
    for (const [o, src] of objects) {
      for (const line of nm(['--defined-only', '-g', o]).split('\n')) {
        const f = line.trim().split(/\s+/);
        if (f.length === 3 && /[TDBRC]/.test(f[1])) {
          if (!defs.has(f[2])) defs.set(f[2], []);
          defs.get(f[2]).push(src);
        }
      }
      for (const line of nm(['-u', o]).split('\n')) {
        const f = line.trim().split(/\s+/);
        if (f.length === 2 && f[0] === 'U') uses.push({ file: src, symbol: f[1] });
      }
    }
    return { defs, uses };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A made-up tree with calls the check must refuse and calls it must let through; returns
 * what is wrong with the check, or [] when it sees exactly what it should. */
function selfTest() {
  const defs = new Map([
    ['blab_zone_create_snapshot', ['src/trace/snapshot.c']],
    ['blab_rng_next', ['src/base/rng.c']],
    ['blab_alloc', ['src/mm/op.c']],
    ['blab_sim_run', ['src/workloads/sim.c']],
    ['blab_js_sim_run', ['wasm/api.c']],
    ['cache_access', ['src/machine/model/cache.c']],
  ]);
  const uses = [
    { file: 'src/script/opscript.c', symbol: 'blab_zone_create_snapshot' }, // sibling: refused
    { file: 'src/machine/machine.c', symbol: 'blab_alloc' }, // upwards: refused
    { file: 'cli/cmd_sim.c', symbol: 'blab_js_sim_run' }, // sibling top layer: refused
    { file: 'src/mm/zone.c', symbol: 'blab_rng_next' }, // downwards
    { file: 'cli/cmd_sim.c', symbol: 'blab_sim_run' }, // the public API, downwards
    { file: 'src/machine/model/hooks.c', symbol: 'cache_access' }, // own layer
    { file: 'src/trace/trace.c', symbol: 'blab_zone_create_snapshot' }, // own folder
    { file: 'src/script/opscript.c', symbol: 'memcpy' }, // not the core's
  ];
  const want = ['src/script/opscript.c calls blab_zone_create_snapshot()',
    'src/machine/machine.c calls blab_alloc()', 'cli/cmd_sim.c calls blab_js_sim_run()'];
  const got = callProblems(defs, uses);
  const wrong = want.filter((w) => !got.some((g) => g.startsWith(`${w},`)))
    .map((w) => `self-test: the call check missed "${w}"`);
  if (got.length !== want.length)
    wrong.push(`self-test: the call check reported ${got.length} calls, ${want.length} expected: ${got.join('; ')}`);
  return wrong;
}

// ---------------------------------------------------------------- main

function main(argv) {
  const args = argv.slice(2);
  const selfOnly = args.includes('--self-test');
  const b = args.indexOf('--build');
  const positional = args.filter((a, i) => !a.startsWith('--') && (b < 0 || i !== b + 1));
  const root = resolve(positional[0] ?? join(dirname(new URL(import.meta.url).pathname), '..'));
  const buildDir = resolve(root, b >= 0 ? args[b + 1] : 'build/native');

  const problems = selfTest();
  if (selfOnly || problems.length) return report(problems, 'check-layers: self-test: the call check sees its made-up violations');
  const inc = includeProblems(root);
  problems.push(...inc.problems);
  const objs = readObjects(root, buildDir);
  if (!objs) {
    problems.push(`no objects in ${relative(root, buildDir) || buildDir} (build it first: make native)`);
  } else {
    problems.push(...callProblems(objs.defs, objs.uses));
  }
  const nInc = [...inc.includes.values()].reduce((n, l) => n + l.length, 0);
  return report(problems, `check-layers: ${inc.files.length} files, ${nInc} includes, ${objs?.uses.length ?? 0} symbol uses, the layers hold`);
}

function report(problems, ok) {
  if (problems.length) {
    for (const p of [...new Set(problems)]) console.error(`check-layers: ${p}`);
    return 1;
  }
  console.log(ok);
  return 0;
}

process.exit(main(process.argv));
