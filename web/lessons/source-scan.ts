// Where in the core's C an event record was written, found by reading the C at build time.
//
// Every record carries a code path id (the `path` field, BLAB_PATHS in blab_events.h). This
// scanner reads every .c and .h file under wasm-core/src (any folder: files move, functions
// keep their names), finds the function definitions and the calls inside them, and answers for
// each (event type, path): the call that puts that path on that kind of record (the line a
// student should look at), and the EMIT() that writes it. Nothing is typed by hand, so the map
// cannot drift from the code: web/lessons/source-plugin.ts runs this on every build, and
// source-scan.test.ts runs it on the real tree.
//
// The C is kernel style (a definition's name at the start of its line, `{` at depth 0), which
// is all a regex-level reader needs; comments, strings and preprocessor lines are blanked first.

/** One file of the core, by its path relative to the repository root. */
export interface SourceFile {
  path: string;
  text: string;
}

/** A place in the C: function, file and 1-based line. */
export interface SourcePlace {
  fn: string;
  file: string;
  line: number;
  /** the call's last line, when its arguments run on (a site) */
  to?: number;
}

export interface PathInfo {
  id: number;
  name: string;
  /** the header's own words for the path */
  where: string;
  /** the kernel function the header names for this path, if it names one */
  kernel?: string;
  /** our function of that name, or the first one that puts this path on a record */
  ours?: SourcePlace;
}

/** Where one (type, path) record comes from. */
export interface ResolvedSite {
  /** the call that hands this path to the code that writes the record */
  at: SourcePlace;
  /** the EMIT() that writes it (the same as `at` when the call is the EMIT itself) */
  emit: SourcePlace;
  /** functions from at.fn down to emit.fn */
  chain: string[];
  /** how many other calls on this path can write this kind of record too */
  others: number;
}

export interface CoreSourceMap {
  /** event type number -> name (BLAB_EVENT_TYPES) */
  types: Record<number, string>;
  paths: PathInfo[];
  /** `${type}:${path}` -> site; a type with no path-specific site is under `${type}:*` */
  sites: Record<string, ResolvedSite>;
  /** `${file}:${line}` -> the lines around it: [first line number, ...texts] */
  snippets: Record<string, [number, ...string[]]>;
  /** every kernel function name the header's path descriptions use */
  kernelNames: string[];
}

interface Call {
  callee: string;
  line: number;
  /** the line of its closing parenthesis */
  to: number;
  args: string;
}

interface FnDef extends SourcePlace {
  end: number;
  calls: Call[];
}

const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'return', 'sizeof', 'do', 'else', 'case', 'defined', '_Static_assert', 'static_assert', 'typeof', '__typeof__', '__attribute__', '_Alignof', 'alignof']);

/** PREFETCH_WASTED is written when a prefetched line is evicted unused; the code that caused it
 * is the prefetch() that fetched the line, so it is placed where PREFETCH is. */
const PLACED_AS: Record<string, string> = { PREFETCH_WASTED: 'PREFETCH' };

/**
 * The code with comments, string and character literals and preprocessor lines replaced by
 * spaces (newlines kept), so line numbers and columns stay those of the file.
 */
export function blankNonCode(text: string): string {
  const out = text.split('');
  const n = text.length;
  let i = 0;
  const blank = (a: number, b: number) => {
    for (let k = a; k < b; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  let lineStart = true;
  while (i < n) {
    const c = text[i]!;
    if (lineStart && /[ \t]/.test(c)) {
      i++;
      continue;
    }
    if (lineStart && c === '#') {
      // a directive runs to the end of the line, continued by a trailing backslash
      let j = i;
      while (j < n) {
        if (text[j] === '\n' && text[j - 1] !== '\\') break;
        if (text[j] === '/' && text[j + 1] === '*') {
          const e = text.indexOf('*/', j + 2);
          j = e < 0 ? n : e + 2;
          continue;
        }
        j++;
      }
      blank(i, j);
      i = j;
      continue;
    }
    lineStart = false;
    if (c === '\n') {
      lineStart = true;
      i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const e = text.indexOf('*/', i + 2);
      const j = e < 0 ? n : e + 2;
      blank(i, j);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      let j = i;
      while (j < n && text[j] !== '\n') j++;
      blank(i, j);
      i = j;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      blank(i + 1, Math.min(j, n));
      i = j + 1;
    } else i++;
  }
  return out.join('');
}

/** Index of the bracket closing the one at `open` (same kind), or -1. */
function matching(code: string, open: number): number {
  const o = code[open]!;
  const c = o === '(' ? ')' : o === '{' ? '}' : ']';
  let depth = 0;
  for (let k = open; k < code.length; k++) {
    if (code[k] === o) depth++;
    else if (code[k] === c && --depth === 0) return k;
  }
  return -1;
}

function lineAt(starts: number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** `__attribute__((...))` groups replaced by spaces (same length, so positions hold). */
export function blankAttributes(head: string): string {
  let out = head;
  for (let at = out.indexOf('__attribute__'); at >= 0; at = out.indexOf('__attribute__', at + 1)) {
    const open = out.indexOf('(', at);
    const close = open < 0 ? -1 : matching(out, open);
    if (close < 0) break;
    out = out.slice(0, at) + ' '.repeat(close + 1 - at) + out.slice(close + 1);
  }
  return out;
}

/** The function definitions of one file, each with the calls in its body. */
export function scanFunctions(file: SourceFile): FnDef[] {
  const code = blankNonCode(file.text);
  const starts = [0];
  for (let k = 0; k < code.length; k++) if (code[k] === '\n') starts.push(k + 1);
  const defs: FnDef[] = [];
  let depth0From = 0; // where the current top-level declaration began
  for (let k = 0; k < code.length; k++) {
    const ch = code[k];
    if (ch === ';' || ch === '}') {
      depth0From = k + 1;
      continue;
    }
    if (ch !== '{') continue;
    const close = matching(code, k);
    if (close < 0) break;
    // `__attribute__((always_inline))` before the name is a parenthesised group too: blanked,
    // or the search below would take it for the name and its argument list (prep_new_page())
    const head = blankAttributes(code.slice(depth0From, k));
    // a definition's head ends with its parameter list; an initialiser (= {), a struct, union
    // or enum body has none
    const m = /([A-Za-z_]\w*)\s*\(([^;{}]*)\)\s*$/.exec(head);
    if (m && !/=\s*$/.test(head) && !KEYWORDS.has(m[1]!)) {
      const namePos = depth0From + m.index;
      const body = code.slice(k, close + 1);
      defs.push({ fn: m[1]!, file: file.path, line: lineAt(starts, namePos), end: lineAt(starts, close), calls: callsIn(body, k, code, starts) });
    }
    k = close;
    depth0From = close + 1;
  }
  return defs;
}

function callsIn(body: string, offset: number, code: string, starts: number[]): Call[] {
  const out: Call[] = [];
  for (const m of body.matchAll(/\b([A-Za-z_]\w*)\s*\(/g)) {
    if (KEYWORDS.has(m[1]!)) continue;
    const open = offset + m.index + m[0].length - 1;
    const close = matching(code, open);
    const line = lineAt(starts, offset + m.index);
    out.push({ callee: m[1]!, line, to: close < 0 ? line : lineAt(starts, close), args: close < 0 ? '' : code.slice(open + 1, close) });
  }
  return out;
}

/** X(name, number, ...) rows of one X-macro list in the header. */
function xRows(header: string, macro: string, stop: string): RegExpMatchArray[] {
  const at = header.indexOf(`#define ${macro}`);
  if (at < 0) throw new Error(`blab_events.h: no #define ${macro}`);
  const block = header.slice(at, header.indexOf(stop, at));
  return [...block.matchAll(/X\((\w+),\s*(\d+),\s*("(?:[^"\\]|\\.)*"|\w+)\)/g)];
}

/**
 * The kernel function a path description names: the first name with an underscore (kernel
 * style, never a field after `->`), else a one-word description that is one of our functions
 * ("expand").
 */
export function kernelNameOf(where: string, defined: ReadonlySet<string>): string | undefined {
  const names = [...where.matchAll(/(->)?\b([A-Za-z_]\w*)\b(?!->)/g)].filter((m) => !m[1]).map((m) => m[2]!);
  const kernelStyle = names.filter((n) => n.includes('_'));
  return kernelStyle.find((n) => defined.has(n)) ?? kernelStyle[0] ?? (names.length === 1 && defined.has(names[0]!) ? names[0] : undefined);
}

const SNIPPET_BEFORE = 5;
const SNIPPET_AFTER = 3;

export function scanCoreSource(files: readonly SourceFile[], header: string): CoreSourceMap {
  const typeRows = xRows(header, 'BLAB_EVENT_TYPES', 'enum blab_event_type');
  const types: Record<number, string> = {};
  for (const r of typeRows) types[Number(r[2])] = r[1]!;
  const pathRows = xRows(header, 'BLAB_PATHS', 'enum blab_path');
  if (!typeRows.length || !pathRows.length) throw new Error('blab_events.h: no event types or code paths found');

  // the trace importer writes records that stand for a real kernel's trace, under the kernel's
  // path ids: it is not the code that ran, so it is never named as a record's source
  const sorted = [...files].filter((f) => !/(^|\/)trace\.c$/.test(f.path)).sort((a, b) => a.path.localeCompare(b.path));
  const defs = sorted.flatMap(scanFunctions);
  // a static function is its file's own (two files may each have a static free_start()): a
  // call finds the definition in its own file first, then the first one in the tree
  const byName = new Map<string, FnDef>();
  for (const d of defs) if (!byName.has(d.fn)) byName.set(d.fn, d);
  const inFile = new Map<string, FnDef>(defs.map((d) => [`${d.file}\0${d.fn}`, d]));
  const lookup = (name: string, from: string) => inFile.get(`${from}\0${name}`) ?? byName.get(name);
  const defined = new Set(byName.keys());

  // which record types each function writes, itself or through what it calls
  const typeNames = Object.values(types);
  const writes = (call: Call, t: string) => new RegExp(`\\bBLAB_EV_${t}\\b`).test(call.args);
  const reach = new Map<FnDef, Set<string>>(defs.map((d) => [d, new Set(d.calls.flatMap((c) => typeNames.filter((t) => writes(c, t))))]));
  const calleeOf = (call: Call, from: FnDef) => lookup(call.callee, from.file);
  for (let changed = true; changed; ) {
    changed = false;
    for (const d of defs) {
      const s = reach.get(d)!;
      for (const c of d.calls) {
        const callee = calleeOf(c, d);
        for (const t of (callee && reach.get(callee)) ?? []) {
          if (!s.has(t)) {
            s.add(t);
            changed = true;
          }
        }
      }
    }
  }
  /** whether the call writes a type-t record, itself or in what it calls */
  const leadsTo = (call: Call, from: FnDef, t: string) => writes(call, t) || (reach.get(calleeOf(call, from)!)?.has(t) ?? false);

  /** From a call that leads to a type-t record, down to the EMIT that writes it. */
  const follow = (call: Call, inFn: FnDef, t: string, seen = new Set<FnDef>()): { emit: SourcePlace; emitFn: FnDef; chain: string[] } | undefined => {
    if (writes(call, t)) return { emit: { fn: inFn.fn, file: inFn.file, line: call.line, to: call.to }, emitFn: inFn, chain: [inFn.fn] };
    const callee = calleeOf(call, inFn);
    if (!callee || seen.has(callee)) return undefined;
    seen.add(callee);
    for (const c of callee.calls) {
      if (!leadsTo(c, callee, t)) continue;
      const r = follow(c, callee, t, seen);
      if (r) return { ...r, chain: [inFn.fn, ...r.chain] };
    }
    return undefined;
  };

  // the definitions by name (and line), so no choice below depends on which folder a file is in
  const sortedDefs = [...defs].sort((a, b) => (a.fn < b.fn ? -1 : a.fn > b.fn ? 1 : a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  const paths: PathInfo[] = pathRows.map((r) => {
    const name = r[1]!;
    const where = JSON.parse(r[3]!) as string;
    const kernel = kernelNameOf(where, defined);
    const own = kernel ? byName.get(kernel) : undefined;
    // else the function that writes a record with this path itself, else one that passes it on
    const lit = new RegExp(`\\bBLAB_PATH_${name}\\b`);
    // (ZONE_INIT, RMQUEUE_BULK and others name both a path and a record: its writer first)
    const user =
      own ??
      sortedDefs.find((d) => d.calls.some((c) => lit.test(c.args) && writes(c, name))) ??
      sortedDefs.find((d) => d.calls.some((c) => lit.test(c.args) && typeNames.some((t) => writes(c, t)))) ??
      sortedDefs.find((d) => d.calls.some((c) => lit.test(c.args)));
    return { id: Number(r[2]), name, where, ...(kernel ? { kernel } : {}), ...(user && name !== 'NONE' ? { ours: { fn: user.fn, file: user.file, line: user.line } } : {}) };
  });

  // ties are broken by function name and line, never by which folder a file sits in
  const byPlace = (a: { call: Call; fn: FnDef }, b: { call: Call; fn: FnDef }) => (a.fn.fn < b.fn.fn ? -1 : a.fn.fn > b.fn.fn ? 1 : a.call.line - b.call.line);
  const sites: Record<string, ResolvedSite> = {};
  const snippetAt = new Map<string, FnDef>();
  /** The first of the ranked candidates that reaches the record; at equal rank the one fewest
   * calls away from its EMIT (the pcp hit that calls prep_new_page() itself before the op that
   * reaches it through hand_out()). */
  const place = (key: string, cands: { call: Call; fn: FnDef }[], t: string, rank: (c: { call: Call; fn: FnDef }) => number = () => 0) => {
    const found = cands.flatMap((c) => {
      const r = follow(c.call, c.fn, t);
      return r ? [{ ...c, r }] : [];
    });
    found.sort((a, b) => rank(a) - rank(b) || a.r.chain.length - b.r.chain.length || byPlace(a, b));
    const best = found[0];
    if (!best) return;
    const { call, fn, r } = best;
    sites[key] = { at: { fn: fn.fn, file: fn.file, line: call.line, to: call.to }, emit: r.emit, chain: r.chain, others: cands.length - 1 };
    snippetAt.set(`${fn.file}:${call.line}:${call.to}`, fn);
    snippetAt.set(`${r.emit.file}:${r.emit.line}:${r.emit.to}`, r.emitFn);
  };
  for (const [num, tName] of Object.entries(types)) {
    const t = PLACED_AS[tName] ?? tName;
    for (const p of paths) {
      if (p.name === 'NONE') continue;
      const lit = new RegExp(`\\bBLAB_PATH_${p.name}\\b`);
      const cands: { call: Call; fn: FnDef }[] = [];
      for (const fn of defs) for (const call of fn.calls) if (lit.test(call.args) && leadsTo(call, fn, t)) cands.push({ call, fn });
      // nearest the path's own function first (itself, a function it calls or that calls it,
      // its file), and at each distance the calls that write the record themselves
      const home = p.ours ? byName.get(p.ours.fn) : undefined;
      const near = (fn: FnDef) =>
        !home ? 3 : fn === home ? 0 : home.calls.some((c) => c.callee === fn.fn) || fn.calls.some((c) => c.callee === home.fn) ? 1 : fn.file === home.file ? 2 : 3;
      const rank = (c: { call: Call; fn: FnDef }) => near(c.fn) * 2 + (writes(c.call, t) ? 0 : 1);
      place(`${num}:${p.id}`, cands, t, rank);
    }
    const any: { call: Call; fn: FnDef }[] = [];
    for (const fn of defs) for (const call of fn.calls) if (writes(call, t)) any.push({ call, fn });
    // a record whose path is NONE (or a path no call names): the first EMIT of its type that
    // passes its path on rather than naming one (prep_new_page(), not the snapshot loader's)
    place(`${num}:*`, any, t, (c) => (/\bBLAB_PATH_\w+/.test(c.call.args) ? 1 : 0));
  }

  const snippets: Record<string, [number, ...string[]]> = {};
  const lines = new Map(sorted.map((f) => [f.path, f.text.split('\n')]));
  for (const [key, fn] of snippetAt) {
    const [l, end] = key.split(':').slice(-2).map(Number) as [number, number];
    const file = key.split(':').slice(0, -2).join(':');
    const text = lines.get(file)!;
    const from = Math.max(fn.line, l - SNIPPET_BEFORE);
    const to = Math.min(fn.end, end + SNIPPET_AFTER);
    snippets[`${file}:${l}`] = [from, ...text.slice(from - 1, to)];
  }
  const kernelNames = [...new Set(paths.flatMap((p) => (p.kernel ? [p.kernel] : [])))];
  return { types, paths, sites, snippets, kernelNames };
}

/** The site of one record: its (type, path) entry, else its type's first EMIT. */
export function siteOf(map: CoreSourceMap, type: number, path: number): ResolvedSite | undefined {
  return map.sites[`${type}:${path}`] ?? map.sites[`${type}:*`];
}
