#!/usr/bin/env node
// check-function-length.mjs - no C function outside the tests is longer than MAX_LINES lines,
// counted as ctags counts them: from the first line of the definition (its return type) to the
// closing brace. Long functions at the edges of the core (parsers, the CLI's sweeps) are
// what grows when nobody looks; a table of fields and handlers keeps them short.
//
// It finds function bodies the way the code is written (STYLE.md, the kernel's style): a
// definition's `{` and `}` each stand alone at column 0, and nothing else does. Comments,
// strings and character constants are blanked first, and preprocessor lines (with their
// continuations) skipped, so a brace in any of them is not read as code. The assumption is
// checked, not trusted: a function whose `{` is not at column 0 (`int f(void) {`), a `{` at
// column 0 inside a body, or braces that do not balance are errors too, so a file in another
// style fails loudly instead of passing unmeasured.
//
//   node scripts/check-function-length.mjs [ROOT]   exit 0 when every function fits, 1 with each one that does not
//   node scripts/check-function-length.mjs --self-test   proves the check fails on a long function
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

export const MAX_LINES = 150;

// what is checked: the core, its CLI, WASM entry points, tools and benchmark programs; the
// tests (wasm-core/tests/, the fuzz targets with them) are not
const DIRS = ['wasm-core/src', 'wasm-core/include', 'wasm-core/cli', 'wasm-core/wasm', 'wasm-core/tools', 'bench'];

function walk(dir) {
  let names;
  try { names = readdirSync(dir); } catch { return []; }
  return names.flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return walk(p);
    return /\.[ch]$/.test(name) ? [p] : [];
  });
}

// The source with comments and the insides of strings and character constants turned into
// spaces (newlines kept, so line numbers hold) and preprocessor lines emptied.
export function codeOnly(text) {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i], d = text[i + 1];
    if (c === '/' && d === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === '/' && d === '/') {
      let j = i;
      while (j < n && text[j] !== '\n') j += text[j] === '\\' && text[j + 1] === '\n' ? 2 : 1;
      out += text.slice(i, j).replace(/[^\n]/g, ' ');
      i = j;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += c + text.slice(i + 1, j).replace(/[^\n]/g, ' ') + (j < n && text[j] === c ? c : '');
      i = j < n && text[j] === c ? j + 1 : j;
    } else {
      out += c;
      i++;
    }
  }
  // preprocessor lines, a backslash at the end of one continuing it; and what only a C++
  // compiler reads (a header's `extern "C" {` and its `}`)
  const lines = out.split('\n');
  const raw = text.split('\n');
  for (let k = 0, cxx = 0; k < lines.length; k++) {
    if (/^\s*#\s*if(def)?\s+__cplusplus\b/.test(lines[k])) cxx = 1;
    else if (cxx && /^\s*#\s*endif\b/.test(lines[k])) cxx = 0;
    else if (cxx) lines[k] = '';
    if (!/^\s*#/.test(lines[k])) continue;
    let m = k;
    for (;;) {
      lines[m] = '';
      if (!/\\\s*$/.test(raw[m] ?? '') || m + 1 >= lines.length) break;
      m++;
    }
    k = m;
  }
  return lines;
}

// The first line of the definition whose body opens at line `open` (0-based): back over the
// declarator and return type, up to a blank line, a comment's end or the end of the previous
// declaration.
function definitionStart(lines, raw, open) {
  let s = open;
  while (s > 0) {
    const prev = lines[s - 1];
    if (prev.trim() === '' || /[;{}]\s*$/.test(prev) || /\*\/\s*$/.test(raw[s - 1])) break;
    s--;
  }
  return s;
}

// Does the { at line[j] close again on the same line?
function closesOnLine(line, j) {
  let d = 0;
  for (let i = j; i < line.length; i++) {
    if (line[i] === '{') d++;
    else if (line[i] === '}' && --d === 0) return true;
  }
  return false;
}

// Every function of one file as { name, line, lines }, and what breaks the style the check
// relies on as { line, why }.
export function functionsOf(text) {
  const raw = text.split('\n');
  const lines = codeOnly(text);
  const functions = [];
  const problems = [];
  let depth = 0;
  let open = -1; // the line of the current body's `{`, -1 outside one
  let tail = ''; // the code before the current position, to see what a `{` follows
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k];
    if (line[0] === '{') {
      if (depth !== 0 || open >= 0) problems.push({ line: k + 1, why: 'a { at column 0 inside a function or a declaration' });
      else if (!/\)\s*$/.test(tail)) problems.push({ line: k + 1, why: 'a { at column 0 that opens no function' });
      open = k;
    }
    for (let j = 0; j < line.length; j++) {
      const ch = line[j];
      if (ch === '{') {
        // `int f(void) { return 0; }`: a function of one line fits; one whose body goes on
        // below cannot be measured
        if (depth === 0 && j > 0 && /\)\s*$/.test(tail) && !closesOnLine(line, j))
          problems.push({ line: k + 1, why: 'a function whose { is not alone at column 0 (the check cannot measure it)' });
        depth++;
      } else if (ch === '}') {
        depth--;
        if (depth < 0) {
          problems.push({ line: k + 1, why: 'a } that closes nothing' });
          depth = 0;
        }
      }
      if (!/\s/.test(ch)) tail = (tail + ch).slice(-200);
    }
    if (line[0] === '}' && open >= 0) {
      if (depth !== 0) problems.push({ line: k + 1, why: 'a } at column 0 that does not end the function opened at line ' + (open + 1) });
      const start = definitionStart(lines, raw, open);
      const head = lines.slice(start, open).join(' ');
      const name = /([A-Za-z_]\w*)\s*\([^()]*(\([^()]*\)[^()]*)*\)\s*$/.exec(head)?.[1] ?? '?';
      functions.push({ name, line: start + 1, lines: k - start + 1 });
      open = -1;
    } else if (line[0] === '}' && depth === 0 && !/^\}\s*[A-Za-z_\w\s,*[\]]*;/.test(line)) {
      problems.push({ line: k + 1, why: 'a } at column 0 outside a function that ends no declaration' });
    }
  }
  if (open >= 0) problems.push({ line: open + 1, why: 'a function body never closed at column 0' });
  if (depth !== 0) problems.push({ line: lines.length, why: 'braces do not balance' });
  return { functions, problems };
}

// Problems of every C file under root's checked folders, as "path:line: why" lines.
export function check(root, limit = MAX_LINES) {
  const out = [];
  let nfun = 0, nfiles = 0;
  for (const dir of DIRS) {
    for (const file of walk(join(root, dir))) {
      nfiles++;
      const { functions, problems } = functionsOf(readFileSync(file, 'utf8'));
      const rel = relative(root, file);
      nfun += functions.length;
      for (const p of problems) out.push(`${rel}:${p.line}: ${p.why}`);
      for (const f of functions)
        if (f.lines > limit) out.push(`${rel}:${f.line}: ${f.name}() is ${f.lines} lines, over ${limit}: split it (a table of cases, a helper per step)`);
    }
  }
  return { out, nfun, nfiles };
}

// A tree with one function a line too long, one exactly at the limit, and braces in comments,
// strings, character constants and macros that must not count: the check must name the long
// one and nothing else, and pass once it is gone.
function selfTest() {
  const root = mkdtempSync(join(tmpdir(), 'check-function-length-'));
  const body = (n) => Array.from({ length: n }, (_, i) => `\tx += ${i};`).join('\n');
  // a definition of `total` lines: 2 (type + name), `{`, body, `}`
  const fn = (name, total) => `static int\n${name}(int x)\n{\n${body(total - 5)}\n\treturn x;\n}\n`;
  const tricky = [
    '/* a comment with braces at column 0:',
    '{',
    '}',
    '*/',
    '#define BLOCK(x) \\',
    '{                \\',
    '\t(x);           \\',
    '}',
    'static const char *s = "{\\"}";',
    "static const char c = '{';",
    'struct pair {',
    '\tint a, b;',
    '};',
    'static const struct pair pairs[] = {',
    '\t{1, 2},',
    '};',
    '',
  ].join('\n');
  try {
    mkdirSync(join(root, 'wasm-core/src'), { recursive: true });
    mkdirSync(join(root, 'wasm-core/tests'), { recursive: true });
    const text = `${tricky}\n${fn('fits', MAX_LINES)}\n${fn('too_long', MAX_LINES + 1)}`;
    writeFileSync(join(root, 'wasm-core/src/a.c'), text);
    writeFileSync(join(root, 'wasm-core/tests/t.c'), fn('test_may_be_long', MAX_LINES * 2)); // not checked
    const bad = check(root).out;
    const first = text.split('\n').indexOf('too_long(int x)'); // 0-based; its type is the line above
    const want = [`wasm-core/src/a.c:${first}: too_long() is ${MAX_LINES + 1} lines, over ${MAX_LINES}`];
    if (bad.length !== 1 || !bad[0].startsWith(want[0]))
      throw new Error(`a long function: want ${JSON.stringify(want)}..., got ${JSON.stringify(bad)}`);
    writeFileSync(join(root, 'wasm-core/src/a.c'), `${tricky}\n${fn('fits', MAX_LINES)}`);
    const good = check(root).out;
    if (good.length) throw new Error(`no long function: want nothing, got ${JSON.stringify(good)}`);
    // a style the check cannot read is an error, not a pass
    writeFileSync(join(root, 'wasm-core/src/a.c'), 'int f(void) {\n\treturn 0;\n}\n');
    const style = check(root).out;
    if (!style.some((line) => /not alone at column 0/.test(line)))
      throw new Error(`a { not at column 0: want an error, got ${JSON.stringify(style)}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  console.log(`check-function-length: self-test ok (a ${MAX_LINES + 1}-line function fails, ${MAX_LINES} lines pass)`);
}

const isMain = process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  if (process.argv[2] === '--self-test') {
    selfTest();
  } else {
    const root = resolve(process.argv[2] ?? join(dirname(new URL(import.meta.url).pathname), '..'));
    const { out, nfun, nfiles } = check(root);
    if (out.length) {
      for (const line of out) console.error(`check-function-length: ${line}`);
      process.exit(1);
    }
    console.log(`check-function-length: ${nfun} functions in ${nfiles} files, none over ${MAX_LINES} lines`);
  }
}
