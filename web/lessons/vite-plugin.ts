// Build step for lessons/*.md: every lesson is parsed when Vite builds (or serves) the app, and
// the first malformed one stops the build with "lessons/FILE.md:LINE: reason". The page gets
// the files' text through the virtual module `virtual:lessons` and parses them again itself,
// so a lesson loaded from disk in the browser gets exactly the same checks and messages.
//
// `virtual:lesson-results` ships every lesson table's runs (each run's counters by point key),
// computed by the native core when the app is built (precompute.ts): one chunk per lesson,
// loaded when the lesson opens, and one per other set of points a page names (`sets`: the
// time machine's, from vite.config.ts, since a lower layer may not import the page). A build
// without the native blab stops and says so; the dev server then serves no results and the
// page computes its tables in the browser.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Plugin } from 'vite';
import { parseLesson } from './parse.ts';
import type { Lesson } from './lesson.ts';
import { pointSets, precompute, type PointSet, type Precomputed } from './precompute.ts';
import { coreHash } from '../../scripts/core-hash.mjs';

const ID = 'virtual:lessons';
const RESOLVED = `\0${ID}`;
const RESULTS = 'virtual:lesson-results';
const RESOLVED_RESULTS = `\0${RESULTS}`;
const INDEX = 'virtual:lesson-index';
const RESOLVED_INDEX = `\0${INDEX}`;

export interface LessonSource {
  file: string;
  text: string;
}

/** What the front page shows of a lesson (`virtual:lesson-index`). */
export interface LessonSummary {
  id: string;
  number: number;
  title: string;
  summary: string;
  steps: number;
}

/** Reads and checks every lessons/*.md under dir, each with its parse; throws the first
 * LessonError. Sorted by number. */
export function readLessons(root: string, dir = join(root, 'lessons')): { src: LessonSource; lesson: Lesson }[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.md')).sort();
  const out: { src: LessonSource; lesson: Lesson }[] = [];
  const seen = new Map<string, string>();
  for (const f of files) {
    const path = join(dir, f);
    const file = relative(root, path);
    const text = readFileSync(path, 'utf8');
    const lesson = parseLesson(file, text);
    const other = seen.get(lesson.id);
    if (other) throw new Error(`${file}:1: lesson id "${lesson.id}" is used by ${other} too`);
    seen.set(lesson.id, file);
    out.push({ src: { file, text }, lesson });
  }
  return out.sort((a, b) => a.lesson.number - b.lesson.number);
}

export function lessonsPlugin(opts: { dir?: string; sets?: () => PointSet[] } = {}): Plugin {
  let root = process.cwd();
  let building = false;
  let results: Promise<Precomputed | null> | undefined;
  /** every lesson's table runs (and the other sets') from the native core, once per build (or
   * per dev server) */
  const computeResults = (dir: string, warn: (m: string) => void): Promise<Precomputed | null> => {
    results ??= (async () => {
      const sets = pointSets(
        readLessons(root, dir).map((r) => r.lesson),
        opts.sets?.() ?? [],
      );
      if (!sets.some((s) => s.keys.length)) return null;
      const blab = join(root, 'build', 'native', 'blab');
      if (!existsSync(blab)) {
        const why = `the lesson tables are computed with the native core at build time: build it first (make native; ${blab} is missing)`;
        if (building) throw new Error(why);
        warn(`${why}; the pages compute their tables in the browser`);
        return null;
      }
      const t0 = performance.now();
      try {
        const r = await precompute(sets, { blab, cacheDir: join(root, 'build', 'results'), coreHash: coreHash(root), root });
        warn(`lesson tables and the other shipped runs precomputed in ${((performance.now() - t0) / 1000).toFixed(1)} s (${r.report})`);
        return r;
      } catch (e) {
        if (building) throw e;
        warn(`${e instanceof Error ? e.message : String(e)}; the pages compute their tables in the browser`);
        return null;
      }
    })();
    return results;
  };
  return {
    name: 'buddylab-lessons',
    // A build computes the shipped runs before it bundles (minutes on a first build, nothing once
    // build/results has them), not inside a module's load, where the bundler would count the
    // wait as the plugin's time and print a timing report a reader can do nothing about. The
    // dev server computes them when a page first asks.
    async configResolved(c) {
      root = c.root;
      building = c.command === 'build';
      if (building) await computeResults(opts.dir ?? join(root, 'lessons'), (m) => c.logger.info(m));
    },
    watchChange(id) {
      if (id.endsWith('.md')) results = undefined; // a lesson changed: its tables run again
    },
    resolveId(id) {
      if (id === ID) return RESOLVED;
      if (id === INDEX) return RESOLVED_INDEX;
      if (id === RESULTS) return RESOLVED_RESULTS;
      if (id.startsWith(`${RESULTS}/`)) return `\0${id}`;
      return null;
    },
    async load(id) {
      const dir = opts.dir ?? join(root, 'lessons');
      if (id === RESOLVED_RESULTS) {
        const r = await computeResults(dir, (m) => this.info(m));
        const ids = r ? [...r.bySet.keys()] : [];
        const entries = ids.map((l) => `${JSON.stringify(l)}: () => import(${JSON.stringify(`${RESULTS}/${l}`)})`);
        return `export default { coreHash: ${JSON.stringify(coreHash(root))}, sets: { ${entries.join(', ')} } };`;
      }
      if (id.startsWith(`\0${RESULTS}/`)) {
        const r = await computeResults(dir, (m) => this.info(m));
        return `export default ${JSON.stringify(r?.bySet.get(id.slice(RESULTS.length + 2)) ?? {})};`;
      }
      if (id !== RESOLVED && id !== RESOLVED_INDEX) return null;
      for (const f of readdirSync(dir)) if (f.endsWith('.md')) this.addWatchFile(join(dir, f));
      // A LessonError's message is "file:line: reason": thrown here, it fails `vite build`.
      const lessons = readLessons(root, dir);
      if (id === RESOLVED) return `export default ${JSON.stringify(lessons.map((r) => r.src))};`;
      // the front page lists the lessons without parsing them (the YAML parser stays out of
      // the first load): what it shows of each, from the parse the build just made
      const index: LessonSummary[] = lessons.map(({ lesson: l }) => ({ id: l.id, number: l.number, title: l.title, summary: l.summary, steps: l.steps.length }));
      return `export default ${JSON.stringify(index)};`;
    },
  };
}
