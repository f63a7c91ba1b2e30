// Build step for lessons/*.md: every lesson is parsed when Vite builds (or serves) the app, and
// the first malformed one stops the build with "lessons/FILE.md:LINE: reason". The page gets
// the files' text through the virtual module `virtual:lessons` and parses them again itself,
// so a lesson loaded from disk in the browser gets exactly the same checks and messages.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Plugin } from 'vite';
import { parseLesson } from './parse.ts';
import { virtualModule } from './virtual-module.ts';

export interface LessonSource {
  file: string;
  text: string;
}

/** Reads and checks every lessons/*.md under dir; throws the first LessonError. Sorted by number. */
export function loadLessons(root: string, dir = join(root, 'lessons')): LessonSource[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.md')).sort();
  const out: { src: LessonSource; n: number }[] = [];
  const seen = new Map<string, string>();
  for (const f of files) {
    const path = join(dir, f);
    const file = relative(root, path);
    const text = readFileSync(path, 'utf8');
    const l = parseLesson(file, text);
    const other = seen.get(l.id);
    if (other) throw new Error(`${file}:1: lesson id "${l.id}" is used by ${other} too`);
    seen.set(l.id, file);
    out.push({ src: { file, text }, n: l.number });
  }
  out.sort((a, b) => a.n - b.n);
  return out.map((o) => o.src);
}

export function lessonsPlugin(opts: { dir?: string } = {}): Plugin {
  return virtualModule('buddylab-lessons', 'virtual:lessons', (root, watch) => {
    const dir = opts.dir ?? join(root, 'lessons');
    for (const f of readdirSync(dir)) if (f.endsWith('.md')) watch(join(dir, f));
    // A LessonError's message is "file:line: reason": thrown here, it fails `vite build`.
    return `export default ${JSON.stringify(loadLessons(root, dir))};`;
  });
}
