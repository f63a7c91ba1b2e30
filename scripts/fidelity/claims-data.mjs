// The seeds' claims against the model as data: what `make fidelity` (scripts/fidelity.mjs)
// writes into docs/fidelity.md's claims section and, the same run, into
// docs/fidelity-claims.json, which the app's "How close is the model?" page (?fidelity) is
// built from. The report's claims section is made from that data by claimsMarkdown() and by
// nothing else, so the build (web/compare/fidelity-plugin.ts) and a test
// (scripts/fidelity/fidelity.test.mjs) make it again from the JSON and compare it with the
// report's: the page and the report cannot say different things.
import { CLAIMS, inBand } from './claims.mjs';
import { bandText } from './sensitivity.mjs';
import { levelSpread, max, mean, min, pctSpread } from './stats.mjs';

/** where the report's claims section starts and ends */
export const CLAIMS_BEGIN = '<!-- claims: begin (make fidelity; the same data: docs/fidelity-claims.json) -->';
export const CLAIMS_END = '<!-- claims: end -->';

/** each seed's file in shared/seeds/ */
export const SEED_FILES = {
  '000': '000_cdd8602ec004f1a2.txt',
  '001': '001_caa250b39fe07cb1.txt',
  '002': '002_0ccdcf9b90d51c0a.txt',
  '003': '003_cdb1e61d62c35221.txt',
  '004': '004_9d7ea32c70b56ca3.txt',
};

/** each seed's mail, for a reader who has not got the files */
export const SEED_TITLES = {
  '000': 'Aaron Lu\'s buddy prefetch, 2018 (Linux 4.17)',
  '001': 'Andrew Morton and Martin Bligh\'s hot and cold pages, 2002 (2.5.45)',
  '002': 'Mel Gorman\'s single pass, 2022 (Linux 5.18)',
  '003': 'Eric Dumazet\'s SLUB prefetch, 2011 (Linux 3.3)',
  '004': 'Aaron Lu\'s zone->lock RFC, 2018',
};

/** the model's figure as the report writes it: a change in % with its range over seeds, or a
 *  level with its unit */
export const modelText = (claim, xs) => (claim.unit === '%' ? pctSpread(xs) : `${levelSpread(xs)}${claim.unit}`);

/**
 * One claim's row from its figure on each seed (xs) and whether its lesson cites its id
 * (`marked`): everything the report and the page show of it. `command` is the `blab sim`
 * command that runs its experiment.
 */
export function claimRow(claim, xs, marked, command) {
  const m = mean(xs);
  const inside = inBand(claim, m);
  const lesson = claim.lesson.replace('lessons/', '');
  const verdict = inside
    ? xs.every((x) => inBand(claim, x)) ? 'inside' : 'inside (a seed outside)'
    : marked ? `outside, marked in ${lesson}` : `outside, not marked in ${lesson}`;
  const finite = (x) => (Number.isFinite(x) ? x : null);
  return {
    id: claim.id,
    seed: claim.seed,
    seedFile: SEED_FILES[claim.seed],
    seedTitle: SEED_TITLES[claim.seed],
    what: claim.what,
    says: claim.says,
    band: { lo: finite(claim.band.lo), hi: finite(claim.band.hi) },
    bandText: bandText(claim),
    rule: claim.rule,
    unit: claim.unit,
    seeds: xs,
    mean: m,
    min: min(xs),
    max: max(xs),
    model: modelText(claim, xs),
    inside,
    marked,
    verdict,
    gap: inside ? null : (claim.gap ?? 'no reason recorded (scripts/fidelity/claims.mjs)'),
    lesson: claim.lesson,
    lessonTable: claim.table ?? null,
    compare: claim.compare ?? null,
    command,
  };
}

/** A row's verdict as the report writes it: an outside one in bold */
export function verdictMarkdown(r) {
  if (r.inside) return r.verdict;
  const lesson = r.lesson.replace('lessons/', '');
  return r.marked ? `**outside**, marked in ${lesson}` : `**outside, not marked** in ${lesson}`;
}

/** The claims section's markdown, from the data alone (docs/fidelity-claims.json). */
export function claimsMarkdown(data) {
  const verdictMd = verdictMarkdown;
  const lines = [
    '| claim | seed says | band | model | verdict |',
    '|---|---|---|---|---|',
    ...data.claims.map((r) => `| **${r.id}** ${r.what} | ${r.says} | ${r.bandText} (${r.rule}) | ${r.model} | ${verdictMd(r)} |`),
  ];
  const out = data.claims.filter((r) => !r.inside);
  const why = out.map((r) => `- **${r.id}**: ${r.gap}.`);
  return `${lines.join('\n')}\n\n${data.claims.length - out.length} of ${data.claims.length} claims inside their bands.` +
    (out.length ? ` Outside, and why (each said on its lesson too):\n\n${why.join('\n')}` : '');
}

/** The report's claims section, between its markers, or null when it has none. */
export function claimsFromReport(md) {
  const a = md.indexOf(CLAIMS_BEGIN);
  const b = md.indexOf(CLAIMS_END);
  return a < 0 || b < a ? null : md.slice(a + CLAIMS_BEGIN.length, b).trim();
}

/** The whole JSON document: the core that computed it, and a row per claim in CLAIMS' order. */
export function claimsDocument(rows, core) {
  const ids = CLAIMS.map((c) => c.id);
  if (rows.length !== ids.length || rows.some((r, i) => r.id !== ids[i])) throw new Error('claimsDocument: the rows are not CLAIMS in order');
  return { core, generatedBy: 'make fidelity (scripts/fidelity.mjs)', claims: rows };
}

/**
 * Checks a claims document as the page reads it: every field of every row present and of its
 * type. Returns the document, or throws saying which claim and field.
 */
export function checkClaimsDocument(doc) {
  if (!doc || typeof doc !== 'object' || typeof doc.core !== 'string' || !Array.isArray(doc.claims)) throw new Error('fidelity claims: not a claims document');
  const str = ['id', 'seed', 'seedFile', 'seedTitle', 'what', 'says', 'bandText', 'rule', 'unit', 'model', 'verdict', 'lesson', 'command'];
  for (const r of doc.claims) {
    const where = `fidelity claims: ${r?.id ?? '?'}`;
    for (const k of str) if (typeof r[k] !== 'string') throw new Error(`${where}: ${k} is not text`);
    for (const k of ['mean', 'min', 'max']) if (typeof r[k] !== 'number' || !Number.isFinite(r[k])) throw new Error(`${where}: ${k} is not a number`);
    if (!Array.isArray(r.seeds) || !r.seeds.every((x) => typeof x === 'number')) throw new Error(`${where}: seeds is not a list of numbers`);
    if (typeof r.inside !== 'boolean' || typeof r.marked !== 'boolean') throw new Error(`${where}: inside / marked not true or false`);
    if (r.gap !== null && typeof r.gap !== 'string') throw new Error(`${where}: gap is not text`);
  }
  return doc;
}
