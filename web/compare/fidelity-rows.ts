// The "How close is the model?" page's rows, DOM-free: each claim of docs/fidelity.md (as
// `make fidelity` wrote it into docs/fidelity-claims.json, `virtual:fidelity`) with where it
// is from, its band, the model's figure over the seeds, the verdict and, for a claim outside,
// why; and the links that reproduce it: its lesson's table step (`steps`: each lesson file's
// table names to their 1-based step, from the build's parse) and a compare view of the same
// configurations. Both pages run the model again in this browser ("Run live").
import type { ClaimRow, ClaimsDocument } from '../../scripts/fidelity/claims-data.mjs';

export interface FidelityLesson {
  id: string;
  number: number;
  title: string;
  /** table name -> the step that shows it (1-based, as a lesson URL counts them) */
  tables: Record<string, number>;
}

export interface FidelityRow {
  id: string;
  /** the claim in words, and what the seed says with the file it is from */
  what: string;
  says: string;
  source: string;
  band: string;
  model: string;
  /** the model's mean, lowest and highest over the seeds, in the claim's unit */
  spread: string;
  verdict: 'inside' | 'inside, a seed outside' | 'outside';
  verdictText: string;
  why: string | null;
  links: { href: string; text: string }[];
  command: string;
}

const fmt = (r: ClaimRow, x: number) => (r.unit === '%' ? `${x >= 0 ? '+' : ''}${x.toFixed(1)} %` : `${x.toFixed(1)}${r.unit}`);

/** The page's row of one claim; `lessons` maps a lesson file (lessons/NAME.md) to its steps. */
export function fidelityRow(r: ClaimRow, lessons: Record<string, FidelityLesson>): FidelityRow {
  const verdict = r.inside ? (r.verdict === 'inside' ? 'inside' : 'inside, a seed outside') : 'outside';
  const links: { href: string; text: string }[] = [];
  const lesson = lessons[r.lesson];
  if (lesson) {
    const step = r.lessonTable ? lesson.tables[r.lessonTable] : undefined;
    links.push({
      href: `?lesson=${encodeURIComponent(lesson.id)}${step ? `&step=${step}` : ''}`,
      text: `lesson ${lesson.number}${step ? `, step ${step}` : ''}: ${lesson.title}`,
    });
  }
  if (r.compare) links.push({ href: r.compare, text: 'compare view' });
  return {
    id: r.id,
    what: r.what,
    says: r.says,
    source: `${r.seedTitle} (seed ${r.seed})`,
    band: `${r.bandText}: ${r.rule}`,
    model: r.model,
    spread: r.seeds.length > 1 ? `mean ${fmt(r, r.mean)}, ${fmt(r, r.min)} .. ${fmt(r, r.max)} over seeds 1-${r.seeds.length}` : `seed 1: ${fmt(r, r.mean)}`,
    verdict,
    verdictText: r.inside ? verdict : r.marked ? `outside, and its lesson says so` : 'outside, and its lesson does not say so yet',
    why: r.gap,
    links,
    command: r.command,
  };
}

/** Every claim's row, and how many are inside their bands. */
export function fidelityRows(doc: ClaimsDocument, lessons: Record<string, FidelityLesson>): { rows: FidelityRow[]; inside: number } {
  const rows = doc.claims.map((r) => fidelityRow(r, lessons));
  return { rows, inside: doc.claims.filter((r) => r.inside).length };
}
