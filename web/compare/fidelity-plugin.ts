// Build step for the "How close is the model?" page (?fidelity): serves
// docs/fidelity-claims.json, which `make fidelity` writes from the same runs as
// docs/fidelity.md, as `virtual:fidelity`. The build fails when the report's claims section is
// not what that JSON makes (scripts/fidelity/claims-data.mjs), so the page and the report
// cannot disagree: a hand edit of either, or a report from another run, stops it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { checkClaimsDocument, claimsFromReport, claimsMarkdown, type ClaimsDocument } from '../../scripts/fidelity/claims-data.mjs';
import { readLessons } from '../lessons/vite-plugin.ts';
import { virtualModule } from '../lessons/virtual-module.ts';
import type { FidelityLesson } from './fidelity-rows.ts';

/** The claims document under root, checked against the report beside it; throws saying how
 * they differ. */
export function loadFidelity(root: string): { doc: ClaimsDocument; files: string[] } {
  const json = join(root, 'docs', 'fidelity-claims.json');
  const report = join(root, 'docs', 'fidelity.md');
  const doc = checkClaimsDocument(JSON.parse(readFileSync(json, 'utf8')));
  const section = claimsFromReport(readFileSync(report, 'utf8'));
  if (section === null) throw new Error(`${report}: no claims section (make fidelity writes it)`);
  const made = claimsMarkdown(doc);
  if (made !== section) {
    const a = made.split('\n');
    const b = section.split('\n');
    const i = a.findIndex((l, k) => l !== b[k]);
    throw new Error(`${json} and ${report} disagree (line ${i + 1} of the claims section): make fidelity writes both`);
  }
  return { doc, files: [json, report] };
}

/** Each claim's lesson by file, with the step of each of its tables; throws when a claim names
 * a lesson or a table that is not there. */
export function fidelityLessons(root: string, doc: ClaimsDocument): Record<string, FidelityLesson> {
  const out: Record<string, FidelityLesson> = {};
  for (const { src, lesson } of readLessons(root)) {
    const tables: Record<string, number> = {};
    lesson.steps.forEach((s, i) => {
      if (s.table && !(s.table in tables)) tables[s.table] = i + 1;
    });
    out[`lessons/${src.file.split('/').pop()}`] = { id: lesson.id, number: lesson.number, title: lesson.title, tables };
  }
  for (const c of doc.claims) {
    const l = out[c.lesson];
    if (!l) throw new Error(`docs/fidelity-claims.json: claim ${c.id} names ${c.lesson}, which is not a lesson`);
    if (c.lessonTable && !(c.lessonTable in l.tables)) throw new Error(`docs/fidelity-claims.json: claim ${c.id} names table ${c.lessonTable}, which no step of ${c.lesson} shows`);
  }
  return out;
}

export function fidelityPlugin(): Plugin {
  return virtualModule('buddylab-fidelity', 'virtual:fidelity', (root, watch) => {
    watch(join(root, 'docs', 'fidelity-claims.json'));
    watch(join(root, 'docs', 'fidelity.md'));
    const { doc } = loadFidelity(root);
    return `export default ${JSON.stringify({ doc, lessons: fidelityLessons(root, doc) })};`;
  });
}
