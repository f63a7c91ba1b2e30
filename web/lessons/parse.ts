// The lesson parser: lessons/*.md -> Lesson, or a LessonError naming file, line and reason.
//
//   ---                      front matter (YAML): id, number, title, summary, seed, leaves_out,
//   id: buddy                runs (op scripts or model-machine runs) and tables (sweeps)
//   ...
//   ---
//   ## A step's title        every level-2 heading starts a step, in order
//   ```step                  optional YAML: run, at, views, highlight, table, predict
//   at: { event: split }
//   ```
//   Prose in Markdown...
//
// It never touches the DOM: the build (vite-plugin.ts) runs it in Node and fails on the first
// error; the browser runs it again and shows the same message. Every size is bounded
// (LESSON_LIMITS, docs/limits.md) and every key is known: a typo is an error, not a silent default.

import { MEASURED_CLEAR_LINES, RUN_DEFAULTS } from '../scenario/request.ts';
import { BATCH_SCALE_MAX_LIMIT, batchScaleProblem } from '../scenario/url.ts';
import { CORE_LIMITS } from '../log/core-limits.ts';
import { willItScaleCacheScale } from '../engine/point.ts';
import { LineCounter, parseDocument, isMap, isSeq, type Node as YamlNode, type Document } from 'yaml';
import {
  JUMP_KIND_NAMES,
  LESSON_LIMITS,
  LESSON_WORKLOADS,
  METRICS,
  PRESETS,
  LESSON_VIEW_IDS,
  WORKLOAD_SHAPES,
  rowsName,
  type Lesson,
  type LessonRun,
  type LessonStep,
  type LessonTable,
  type Metric,
  type Predict,
  type Preset,
  type SimConfig,
  type StepAt,
  type LessonViewId,
  type JumpKind,
  type LessonWorkload,
  type SeedBandSpec,
} from './lesson.ts';
import { workloadNamedIn } from './caption.ts';

export class LessonError extends Error {
  override name = 'LessonError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}


/** Where a YAML block sits in the file, to turn its offsets into file lines. */
interface Block {
  file: string;
  /** the file line of the block's first line */
  firstLine: number;
  counter: LineCounter;
  doc: Document;
}

function lineOf(b: Block, node: YamlNode | null | undefined): number {
  const off = node?.range?.[0];
  if (off === undefined) return b.firstLine;
  return b.firstLine + b.counter.linePos(off).line - 1;
}

/** Reads a YAML block; syntax errors carry their own line. */
function yamlBlock(file: string, text: string, firstLine: number): Block {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true, prettyErrors: true });
  const b = { file, firstLine, counter, doc };
  const err = doc.errors[0];
  if (err) {
    const line = err.linePos ? firstLine + err.linePos[0].line - 1 : firstLine;
    throw new LessonError(file, line, `YAML: ${err.message.split('\n')[0]}`);
  }
  return b;
}

/** A typed view of one YAML mapping, with the line of every key for messages. */
class Fields {
  /** known: every key this mapping may hold; any other is an error at its own line */
  constructor(
    private readonly b: Block,
    private readonly node: YamlNode | null | undefined,
    private readonly what: string,
    known: readonly string[],
  ) {
    if (!isMap(node)) this.fail(`${what} must be a mapping of key: value`);
    for (const p of node.items) {
      const k = String((p.key as { value?: unknown } | null)?.value);
      if (!known.includes(k)) this.fail(`${what}: unknown key "${k.slice(0, 40)}" (known: ${known.join(', ')})`, k);
    }
  }

  line(key?: string): number {
    if (key !== undefined && isMap(this.node)) {
      const pair = this.node.items.find((p) => (p.key as { value?: unknown } | null)?.value === key);
      if (pair) return lineOf(this.b, (pair.key as YamlNode) ?? (pair.value as YamlNode));
    }
    return lineOf(this.b, this.node);
  }

  fail(reason: string, key?: string): never {
    throw new LessonError(this.b.file, this.line(key), reason);
  }

  has(key: string): boolean {
    return isMap(this.node) && this.node.has(key);
  }

  node_(key: string): YamlNode | null | undefined {
    return isMap(this.node) ? (this.node.get(key, true) as YamlNode | undefined) : undefined;
  }

  value(key: string): unknown {
    const n = this.node_(key);
    return n === undefined ? undefined : (n as { toJSON?: () => unknown }).toJSON?.() ?? (n as { value?: unknown }).value;
  }

  sub(key: string, what: string, known: readonly string[]): Fields {
    if (!this.has(key)) this.fail(`${this.what}: "${key}" is missing`);
    return new Fields(this.b, this.node_(key), what, known);
  }

  str(key: string, max = 400, optional = false): string {
    const v = this.value(key);
    if (v === undefined && optional) return '';
    if (v === undefined) this.fail(`${this.what}: "${key}" is missing`);
    if (typeof v !== 'string' || v.trim() === '') this.fail(`${this.what}.${key} must be a non-empty string`, key);
    if (v.length > max) this.fail(`${this.what}.${key} is ${v.length} characters; the limit is ${max}`, key);
    return v;
  }

  int(key: string, min: number, max: number, dflt?: number): number {
    const v = this.value(key);
    if (v === undefined && dflt !== undefined) return dflt;
    if (v === undefined) this.fail(`${this.what}: "${key}" is missing`);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
      this.fail(`${this.what}.${key} must be a whole number from ${min} to ${max}`, key);
    return v;
  }

  bool(key: string): boolean {
    const v = this.value(key);
    if (typeof v !== 'boolean') this.fail(`${this.what}.${key} must be true or false`, key);
    return v;
  }

  num(key: string, min: number, max: number): number {
    const v = this.value(key);
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
      this.fail(`${this.what}.${key} must be a number from ${min} to ${max}`, key);
    return v;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[] | Record<T, unknown>, dflt?: T): T {
    const list = (Array.isArray(allowed) ? allowed : Object.keys(allowed)) as T[];
    const v = this.value(key);
    if (v === undefined && dflt !== undefined) return dflt;
    if (typeof v !== 'string' || !list.includes(v as T))
      this.fail(`${this.what}.${key}: ${JSON.stringify(v)?.slice(0, 40)} is not one of ${list.join(', ')}`, key);
    return v as T;
  }

  list(key: string, max: number): YamlNode[] {
    const n = this.node_(key);
    if (!isSeq(n)) this.fail(`${this.what}.${key} must be a list`, key);
    if (n.items.length === 0) this.fail(`${this.what}.${key} is empty`, key);
    if (n.items.length > max) this.fail(`${this.what}.${key} has ${n.items.length} entries; the limit is ${max}`, key);
    return n.items as YamlNode[];
  }

  entries(key: string, max: number): [string, YamlNode][] {
    if (!this.has(key)) return [];
    const n = this.node_(key);
    if (!isMap(n)) this.fail(`${this.what}.${key} must be a mapping`, key);
    if (n.items.length > max) this.fail(`${this.what}.${key} has ${n.items.length} entries; the limit is ${max}`, key);
    return n.items.map((p) => [String((p.key as { value?: unknown }).value), p.value as YamlNode]);
  }

  item(n: YamlNode, what: string, known: readonly string[]): Fields {
    return new Fields(this.b, n, what, known);
  }

  scalar(n: YamlNode): unknown {
    return (n as { value?: unknown }).value;
  }

  lineAt(n: YamlNode): number {
    return lineOf(this.b, n);
  }

  failAt(n: YamlNode, reason: string): never {
    throw new LessonError(this.b.file, lineOf(this.b, n), reason);
  }

}

const NAME = /^[a-z][a-z0-9_-]{0,31}$/;
/** a step's prose after this line waits for the predict answer */
export const ANSWER_MARK = '<!-- answer -->';
const CONFIG_KEYS = ['label', 'preset', 'batch', 'high', 'pcp_batch_scale_max', 'seed', 'tunable', 'slub_prefetch', 'same_cpu'];
// each workload takes its own size keys (WORKLOAD_SHAPES[w].keys): cpus/tasks and pages, or
// hackbench's groups and loops; refuseOthersKeys() says which a workload does not take
// (a run's "tasks" and a table's "cpus" are listed so that refuseOthersKeys() can say which
// word that workload uses, rather than the general "unknown key")
const SIM_KEYS = [...CONFIG_KEYS, 'workload', 'cpus', 'tasks', 'pages', 'groups', 'loops', 'iterations', 'clear_lines', 'cache_scale'];
const TABLE_KEYS = ['caption', 'workload', 'pages', 'loops', 'iterations', 'seed', 'seeds', 'clear_lines', 'cache_scale', 'tasks', 'cpus', 'groups', 'configs', 'metric', 'latency', 'gain', 'node_zones', 'out_of_step', 'quoted'];

/** What each size key means, for the message that refuses it on a workload that has another. */
const KEY_MEANS: Record<string, string> = {
  tasks: "a table's task counts, one CPU each",
  cpus: "a run's CPUs, one task each",
  pages: "pages per task, or stress_highalloc's fill",
  groups: "hackbench's sender/receiver groups",
  loops: "hackbench's messages per sender",
};

/**
 * Refuses a size key of another workload (`where` names the table or run): a hackbench table
 * has groups and loops, never page_fault1's tasks and pages under those names, and the others
 * have no groups or loops. The message names the key and the one this workload takes instead.
 */
function refuseOthersKeys(f: Fields, workload: LessonWorkload, where: string, role: 'table' | 'run'): void {
  const keys = WORKLOAD_SHAPES[workload].keys;
  // [the key this workload takes, every workload's key for the same thing]
  const slots: [string, string[]][] = [
    role === 'table' ? [keys.rows, ['tasks', 'cpus', 'groups']] : [keys.count, ['cpus', 'tasks', 'groups']],
    [keys.size, ['pages', 'loops']],
  ];
  for (const [mine, all] of slots)
    for (const key of all)
      if (key !== mine && f.has(key)) f.fail(`${where}: a ${workload} ${role} takes no "${key}" (${KEY_MEANS[key]}); say "${mine}" (${KEY_MEANS[mine]})`, key);
}

/** The key a workload's table names its rows by in a reference to one (bands, answer_from):
 * "tasks", or hackbench's "groups"; the other is refused, naming the right one. */
function rowKey(f: Fields, t: LessonTable, where: string): number {
  const key = rowsName(t);
  const other = key === 'groups' ? 'tasks' : 'groups';
  if (f.has(other)) f.fail(`${where}: table "${t.name}" runs ${t.workload}, whose rows are ${key}: say "${key}", not "${other}"`, other);
  const v = f.int(key, 1, 1 << 16);
  if (!t.tasks.includes(v)) f.fail(`${where}.${key}: table "${t.name}" has no row for ${v} ${key} (${t.tasks.join(', ')})`, key);
  return v;
}

/** cache_scale: 1, 2, 4 .. 64 (blab sim --cache-scale); dflt when absent */
function cacheScale(f: Fields, dflt = 1): number {
  const v = f.int('cache_scale', 1, 64, dflt);
  if (v & (v - 1)) f.fail(`cache_scale ${v}: must be a power of two, 1 to 64`, 'cache_scale');
  return v;
}

function simConfig(f: Fields): SimConfig {
  const preset = f.oneOf<Preset>('preset', PRESETS);
  const c: SimConfig = { label: f.has('label') ? f.str('label', 40) : preset, preset };
  if (f.has('batch')) c.batch = f.int('batch', 1, 4096);
  if (f.has('high')) c.high = f.int('high', 1, 1 << 16);
  if (f.has('pcp_batch_scale_max')) {
    c.pcpBatchScaleMax = f.int('pcp_batch_scale_max', 0, BATCH_SCALE_MAX_LIMIT);
    const why = batchScaleProblem(preset, c.pcpBatchScaleMax);
    if (why) f.fail(`pcp_batch_scale_max: ${why}`, 'pcp_batch_scale_max');
  }
  if (f.has('seed')) c.seed = f.int('seed', 0, 0xffffffff);
  if (f.has('tunable')) c.tunable = f.bool('tunable');
  if (f.has('slub_prefetch')) c.slubPrefetch = f.bool('slub_prefetch');
  if (f.has('same_cpu')) c.sameCpu = f.bool('same_cpu');
  if (c.batch !== undefined && c.high !== undefined && c.high < c.batch) f.fail(`high (${c.high}) must be at least batch (${c.batch})`, 'high');
  return c;
}

function parseRun(f: Fields, name: string, line: number): LessonRun {
  if (f.has('script')) {
    const script = f.str('script', LESSON_LIMITS.maxScriptBytes);
    return { kind: 'script', name, script, line };
  }
  if (!f.has('sim')) f.fail(`run "${name}" needs "script" (an op script) or "sim" (a model-machine run)`);
  const where = `runs.${name}.sim`;
  const s: Fields = f.sub('sim', where, SIM_KEYS);
  const workload = s.oneOf('workload', LESSON_WORKLOADS);
  refuseOthersKeys(s, workload, where, 'run');
  const config = simConfig(s);
  const shape = WORKLOAD_SHAPES[workload];
  if (workload !== 'hackbench' && (config.slubPrefetch !== undefined || config.sameCpu !== undefined))
    s.fail(`${where}: slub_prefetch and same_cpu are hackbench's switches`, config.slubPrefetch !== undefined ? 'slub_prefetch' : 'same_cpu');
  const common = {
    kind: 'sim' as const,
    name,
    line,
    config,
    seed: s.int('seed', 0, 0xffffffff, 1),
    clearLines: s.int('clear_lines', 1, 64, RUN_DEFAULTS.clearLines),
    cacheScale: cacheScale(s),
  };
  const count = s.int(shape.keys.count, ...shape.count);
  const size = s.int(shape.keys.size, ...shape.size);
  const iterations = workloadIterations(s, workload, 1);
  const work = shape.work(count, size, iterations);
  if (work > LESSON_LIMITS.maxRunFaults)
    s.fail(`runs.${name}: ${work} ${shape.unit}; a lesson run of ${workload} is limited to ${LESSON_LIMITS.maxRunFaults} so it plays in seconds`);
  return workload === 'hackbench' ? { ...common, workload, groups: count, loops: size } : { ...common, workload, cpus: count, pages: size, iterations };
}

/** iterations as the workload reads them: rounds, attempts, or none (hackbench's switches
 * come from its configs; WORKLOAD_SHAPES) */
function workloadIterations(f: Fields, workload: LessonWorkload, dflt: number): number {
  const range = WORKLOAD_SHAPES[workload].iterations;
  if (range) return f.int('iterations', range[0], range[1], Math.min(range[1], Math.max(range[0], dflt)));
  if (f.has('iterations')) f.fail(`${workload} takes no iterations: its switches are each config's slub_prefetch and same_cpu`, 'iterations');
  return 1;
}

function parseTable(f: Fields, name: string, line: number): LessonTable {
  const workload = f.oneOf('workload', LESSON_WORKLOADS);
  refuseOthersKeys(f, workload, `tables.${name}`, 'table');
  const shape = WORKLOAD_SHAPES[workload];
  const [tmin, tmax] = shape.count;
  const rows = shape.keys.rows;
  const tasks = f.list(rows, LESSON_LIMITS.maxTaskPoints).map((n) => {
    const v = f.scalar(n);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < tmin || v > tmax)
      f.failAt(n, `tables.${name}.${rows}: each entry must be a whole number from ${tmin} to ${tmax} for ${workload}`);
    return v;
  });
  const configs = f.list('configs', LESSON_LIMITS.maxConfigs).map((n, i) => {
    const c = f.item(n, `tables.${name}.configs[${i}]`, CONFIG_KEYS);
    const sc = simConfig(c);
    return sc;
  });
  if (workload !== 'hackbench' && configs.some((c) => c.slubPrefetch !== undefined || c.sameCpu !== undefined))
    f.fail(`tables.${name}: slub_prefetch and same_cpu are hackbench's switches`, 'configs');
  const labels = new Set(configs.map((c) => c.label));
  if (labels.size !== configs.length) f.fail(`tables.${name}: two configs share a label`, 'configs');
  const common = {
    name,
    line,
    caption: f.str('caption', 300),
    seed: f.int('seed', 0, 0xffffffff, 1),
    seeds: f.int('seeds', 1, LESSON_LIMITS.maxSeeds, 3),
    // a table is what the lesson measures: clear_page() writes the whole page, as the kernel does
    clearLines: f.int('clear_lines', 1, 64, MEASURED_CLEAR_LINES),
    cacheScale: 1,
    tasks,
    configs,
    metric: f.oneOf<Metric>('metric', METRICS, 'score'),
    latency: f.has('latency') ? f.bool('latency') : false,
    gain: f.has('gain') ? f.value('gain') === true : false,
    nodeZones: f.has('node_zones') ? f.bool('node_zones') : false,
    outOfStep: f.has('out_of_step') ? f.bool('out_of_step') : false,
  };
  // the core's own rules (blab_sim_run()), said at the line that breaks them
  if (common.nodeZones && workload !== 'page_fault1') f.fail(`tables.${name}: node_zones is for page_fault1 (a zone and an LRU list per node of its tasks)`, 'node_zones');
  if (common.metric.startsWith('lat_') && !common.latency) f.fail(`tables.${name}: metric ${common.metric} needs latency: true (its runs count each call's latency)`, 'metric');
  const size = f.int(shape.keys.size, ...shape.size);
  const iterations = workloadIterations(f, workload, RUN_DEFAULTS.rounds);
  if (common.outOfStep && (workload !== 'page_fault1' || iterations < 3)) f.fail(`tables.${name}: out_of_step is for page_fault1 with 3 or more iterations (a task cuts its second round and runs the rest after its scored ones)`, 'out_of_step');
  const t: LessonTable = workload === 'hackbench' ? { ...common, workload, loops: size } : { ...common, workload, pages: size, iterations };
  // a table measures at will-it-scale's footprint-to-cache ratio unless it says otherwise, as
  // the compare view and the throughput sweep do (order-0 workloads; the others use no scale)
  t.cacheScale = cacheScale(f, workload === 'page_fault1' || workload === 'mixed' ? willItScaleCacheScale(size) : 1);
  // the page names the workload and its unit from what the table runs (caption.ts); a caption
  // that names one itself could name the wrong one
  const named = workloadNamedIn(t.caption);
  if (named) f.fail(`tables.${name}.caption names ${named}: the page adds the workload and its unit itself, so say only what is compared`, 'caption');
  // the zone holds every task's pages (BLAB_SIM_MAX_MAPPED in blab_sim.h)
  const mapped = workload === 'page_fault1' ? Math.max(...tasks) * size : 0;
  if (mapped > CORE_LIMITS.simMaxMapped) f.fail(`tables.${name}: ${Math.max(...tasks)} tasks x ${size} pages is ${mapped} pages; the core's zone holds at most ${CORE_LIMITS.simMaxMapped}`, 'pages');
  const work = configs.length * t.seeds * tasks.reduce((a, n) => a + shape.work(n, size, iterations), 0);
  if (work > LESSON_LIMITS.maxTableFaults)
    f.fail(`tables.${name} runs ${work} ${shape.unit} in all; the limit is ${LESSON_LIMITS.maxTableFaults} so the table computes in seconds`, rows);
  if (f.has('quoted')) {
    const q: Fields = f.sub('quoted', `tables.${name}.quoted`, ['source', 'columns', 'rows', 'bands']);
    const columns = q.list('columns', 12).map((n) => String(q.scalar(n)));
    const rows = q.list('rows', LESSON_LIMITS.maxQuotedRows).map((n, i) => {
      if (!isSeq(n)) q.fail(`tables.${name}.quoted.rows[${i}] must be a list`);
      const cells = n.items.map((c) => {
        const v = (c as { value?: unknown }).value;
        if (typeof v !== 'string' && typeof v !== 'number') q.fail(`tables.${name}.quoted.rows[${i}]: cells are numbers or strings`);
        return v;
      });
      if (cells.length !== columns.length)
        q.failAt(n, `tables.${name}.quoted.rows[${i}] has ${cells.length} cells for ${columns.length} columns`);
      return cells;
    });
    t.quoted = { source: q.str('source', 300), columns, rows };
    if (q.has('bands')) t.quoted.bands = q.list('bands', LESSON_LIMITS.maxConfigs).map((n, i) => parseBand(q, n, t, i));
  }
  return t;
}

/**
 * One `quoted.bands` entry: which of the seed's numbers stand for a model config, so the page can
 * compute the seed's own % change and set it beside the model's. Rows and columns are named by
 * their first cell / heading, exactly as quoted.
 */
function parseBand(q: Fields, n: YamlNode, t: LessonTable, i: number): SeedBandSpec {
  const at = `tables.${t.name}.quoted.bands[${i}]`;
  const b: Fields = q.item(n, at, ['config', 'tasks', 'groups', 'row', 'base_row', 'column', 'base_column', 'columns', 'rows']);
  const quoted = t.quoted!;
  const config = b.str('config', 40);
  if (!t.configs.some((c, k) => k > 0 && c.label === config)) b.fail(`${at}.config: "${config}" is not one of the table's configs after the first (${t.configs.slice(1).map((c) => c.label).join(', ')})`, 'config');
  const tasks = rowKey(b, t, at);
  const rowOf = (name: string, key: string) => {
    const k = quoted.rows.findIndex((r) => String(r[0]) === name);
    if (k < 0) b.fail(`${at}.${key}: no quoted row starts with "${name}"`, key);
    return k;
  };
  const columnOf = (name: string, key: string) => {
    const k = quoted.columns.indexOf(name);
    if (k < 1 || quoted.columns.lastIndexOf(name) !== k) b.fail(`${at}.${key}: "${name}" is not one quoted column (${quoted.columns.slice(1).join(', ')})`, key);
    return k;
  };
  if (b.has('row')) {
    const columns = b.has('columns') ? b.list('columns', 12).map((c) => columnOf(String(b.scalar(c)), 'columns')) : quoted.columns.map((_, k) => k).slice(1);
    return { config, tasks, by: 'row', index: rowOf(String(b.value('row')), 'row'), base: rowOf(String(b.value('base_row')), 'base_row'), cells: columns };
  }
  if (!b.has('column')) b.fail(`${at}: give "row" and "base_row" (a kernel per row) or "column" and "base_column" (a kernel per column)`);
  const rows = b.has('rows') ? b.list('rows', LESSON_LIMITS.maxQuotedRows).map((r) => rowOf(String(b.scalar(r)), 'rows')) : quoted.rows.map((_, k) => k);
  return { config, tasks, by: 'column', index: columnOf(b.str('column', 80), 'column'), base: columnOf(b.str('base_column', 80), 'base_column'), cells: rows };
}

function parseAt(f: Fields): StepAt {
  if (!f.has('at')) return { kind: 'end' };
  const v = f.value('at');
  if (v === 'start' || v === 'end') return { kind: v };
  const a: Fields = f.sub('at', 'step.at', ['step', 'event', 'nth']);
  if (a.has('step')) {
    const step = a.int('step', 0, 1 << 26);
    return { kind: 'step', step };
  }
  if (!a.has('event')) a.fail('step.at: "start", "end", { step: N } or { event: KIND, nth: N }');
  const event = a.oneOf<JumpKind>('event', JUMP_KIND_NAMES);
  const nth = a.int('nth', 1, 1 << 20, 1);
  return { kind: 'event', event, nth };
}

function parsePredict(f: Fields, lesson: { tables: Record<string, LessonTable> }): Predict {
  const question = f.str('question', 400);
  const explain = f.has('explain') ? f.str('explain', 600) : undefined;
  if (f.has('choices')) {
    const choices = f.list('choices', LESSON_LIMITS.maxChoices).map((n) => {
      const v = f.scalar(n);
      if (typeof v !== 'string' || v.trim() === '') f.fail('predict.choices: each choice is a non-empty string', 'choices');
      return v;
    });
    if (choices.length < 2) f.fail('predict.choices: give at least two', 'choices');
    const answer = f.int('answer', 0, choices.length - 1);
    return { kind: 'choice', question, choices, answer, ...(explain ? { explain } : {}) };
  }
  const unit = f.has('unit') ? f.str('unit', 20) : undefined;
  const tolerance = f.num('tolerance', 0, 1e9);
  let answer: Predict & { kind: 'number' } extends { answer: infer A } ? A : never;
  if (f.has('answer_from')) {
    const r: Fields = f.sub('answer_from', 'predict.answer_from', ['table', 'tasks', 'groups', 'config', 'measure']);
    const table = r.str('table', 32);
    const t = lesson.tables[table];
    if (!t) r.fail(`predict.answer_from.table: no table "${table}" in the front matter`, 'table');
    const tasks = rowKey(r, t, 'predict.answer_from');
    const config = r.str('config', 40);
    const idx = t.configs.findIndex((c) => c.label === config);
    if (idx < 0) r.fail(`predict.answer_from.config: table "${table}" has no config "${config}"`, 'config');
    const measure = r.oneOf('measure', ['gain', 'value'] as const, 'value');
    if (measure === 'gain' && idx === 0) r.fail('predict.answer_from: a gain is measured against the first config; pick another', 'config');
    answer = { table, tasks, config, measure };
  } else {
    answer = f.num('answer', -1e15, 1e15);
  }
  return { kind: 'number', question, tolerance, answer, ...(unit ? { unit } : {}), ...(explain ? { explain } : {}) };
}

/** Parses one lesson file. Throws LessonError (file, line, reason) on the first problem. */
export function parseLesson(file: string, text: string): Lesson {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > LESSON_LIMITS.maxBytes) throw new LessonError(file, 1, `the lesson is ${bytes} bytes; the limit is ${LESSON_LIMITS.maxBytes}`);
  if (text.includes('\0')) throw new LessonError(file, text.slice(0, text.indexOf('\0')).split('\n').length, 'NUL byte (not a text file?)');
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines[0] !== '---') throw new LessonError(file, 1, 'a lesson starts with a front matter block: a line "---"');
  const close = lines.indexOf('---', 1);
  if (close < 0) throw new LessonError(file, 1, 'the front matter has no closing "---" line');
  const fm = yamlBlock(file, lines.slice(1, close).join('\n'), 2);
  const top = new Fields(fm, fm.doc.contents as YamlNode, 'front matter', ['id', 'number', 'title', 'summary', 'seed', 'leaves_out', 'runs', 'tables']);

  const id = top.str('id', 32);
  if (!NAME.test(id)) top.fail('front matter.id: lower-case letters, digits, - and _ (at most 32)', 'id');
  const lesson: Lesson = {
    file,
    id,
    number: top.int('number', 1, 99),
    title: top.str('title', 120),
    summary: top.str('summary', 400),
    leavesOut: top.str('leaves_out', 1200),
    runs: {},
    tables: {},
    steps: [],
  };
  if (top.has('seed')) lesson.seedSource = top.str('seed', 200);
  for (const [name, node] of top.entries('runs', LESSON_LIMITS.maxRuns)) {
    if (!NAME.test(name)) top.fail(`runs: "${name.slice(0, 40)}" is not a valid name`, 'runs');
    lesson.runs[name] = parseRun(top.item(node, `runs.${name}`, ['script', 'sim']), name, top.lineAt(node));
  }
  for (const [name, node] of top.entries('tables', LESSON_LIMITS.maxTables)) {
    if (!NAME.test(name)) top.fail(`tables: "${name.slice(0, 40)}" is not a valid name`, 'tables');
    lesson.tables[name] = parseTable(top.item(node, `tables.${name}`, TABLE_KEYS), name, top.lineAt(node));
  }

  // ---- steps: each "## " heading, an optional ```step block, then prose
  let cur: { title: string; line: number; body: string[]; bodyAt: number[]; block?: { text: string; line: number } } | undefined;
  const raw: NonNullable<typeof cur>[] = [];
  let fence: string | undefined;
  for (let i = close + 1; i < lines.length; i++) {
    const ln = lines[i]!;
    const lineNo = i + 1;
    const fenceMatch = /^(```+|~~~+)(.*)$/.exec(ln);
    if (!fence && /^## /.test(ln)) {
      cur = { title: ln.slice(3).trim(), line: lineNo, body: [], bodyAt: [] };
      if (!cur.title) throw new LessonError(file, lineNo, 'a step heading needs a title');
      raw.push(cur);
      continue;
    }
    if (!cur) {
      if (ln.trim() !== '') throw new LessonError(file, lineNo, 'text before the first step: every step starts with a "## " heading');
      continue;
    }
    if (!fence && fenceMatch && fenceMatch[2]!.trim() === 'step') {
      if (cur.block) throw new LessonError(file, lineNo, 'a step has at most one ```step block');
      if (cur.body.some((l) => l.trim() !== '')) throw new LessonError(file, lineNo, 'the ```step block comes right after the heading, before the prose');
      const end = lines.findIndex((l, j) => j > i && l === fenceMatch[1]);
      if (end < 0) throw new LessonError(file, lineNo, 'the ```step block is not closed');
      cur.block = { text: lines.slice(i + 1, end).join('\n'), line: lineNo + 1 };
      i = end;
      continue;
    }
    if (fenceMatch) fence = fence ? (ln.startsWith(fence) ? undefined : fence) : fenceMatch[1];
    cur.body.push(ln);
    cur.bodyAt.push(lineNo);
  }
  if (fence) throw new LessonError(file, lines.length, `a code fence ${fence} is not closed`);
  if (raw.length === 0) throw new LessonError(file, close + 1, 'a lesson needs at least one step (a "## " heading)');
  if (raw.length > LESSON_LIMITS.maxSteps)
    throw new LessonError(file, raw[LESSON_LIMITS.maxSteps]!.line, `more than ${LESSON_LIMITS.maxSteps} steps`);

  for (const r of raw) {
    // prose after a line `<!-- answer -->` is shown once the predict question is answered
    const mark = r.body.findIndex((l) => l.trim() === ANSWER_MARK);
    const before = mark < 0 ? r.body : r.body.slice(0, mark);
    const step: LessonStep = { title: r.title, line: r.line, prose: before.join('\n').trim(), at: { kind: 'end' }, views: [] };
    if (mark >= 0) {
      const lineNo = r.bodyAt[mark]!;
      if (r.body.slice(mark + 1).some((l) => l.trim() === ANSWER_MARK)) throw new LessonError(file, lineNo, `step "${r.title.slice(0, 40)}" has ${ANSWER_MARK} twice`);
      step.answerProse = r.body.slice(mark + 1).join('\n').trim();
      if (!step.answerProse) throw new LessonError(file, lineNo, `nothing follows ${ANSWER_MARK} in step "${r.title.slice(0, 40)}"`);
    }
    if (!step.prose) throw new LessonError(file, r.line, `step "${r.title.slice(0, 40)}" has no prose`);
    if (r.block) {
      const b = yamlBlock(file, r.block.text, r.block.line);
      const f = new Fields(b, b.doc.contents as YamlNode, 'step', ['run', 'at', 'views', 'highlight', 'table', 'predict']);
      if (f.has('run')) {
        const run = f.str('run', 32);
        if (!lesson.runs[run]) f.fail(`step.run: no run "${run}" in the front matter (${Object.keys(lesson.runs).join(', ') || 'none'})`, 'run');
        step.run = run;
      }
      step.at = parseAt(f);
      if (f.has('views')) {
        step.views = f.list('views', LESSON_VIEW_IDS.length).map((n) => {
          const v = f.scalar(n);
          if (typeof v !== 'string' || !(LESSON_VIEW_IDS as readonly string[]).includes(v))
            f.failAt(n, `step.views: ${JSON.stringify(v)?.slice(0, 40)} is not one of ${LESSON_VIEW_IDS.join(', ')}`);
          return v as LessonViewId;
        });
      }
      if (f.has('highlight')) {
        step.highlight = f.oneOf<LessonViewId>('highlight', LESSON_VIEW_IDS);
        if (!step.views.includes(step.highlight)) f.fail(`step.highlight: "${step.highlight}" is not among the step's views`, 'highlight');
      }
      if (f.has('table')) {
        const t = f.str('table', 32);
        if (!lesson.tables[t]) f.fail(`step.table: no table "${t}" in the front matter`, 'table');
        step.table = t;
      }
      if (f.has('predict')) step.predict = parsePredict(f.sub('predict', 'predict', ['question', 'explain', 'choices', 'answer', 'unit', 'tolerance', 'answer_from']), lesson);
      if (step.views.length && !step.run) f.fail('step.views: the views need a "run" to show');
    }
    if (step.answerProse !== undefined && !step.predict) throw new LessonError(file, r.line, `step "${r.title.slice(0, 40)}": ${ANSWER_MARK} needs a predict question to answer`);
    lesson.steps.push(step);
  }
  return lesson;
}
