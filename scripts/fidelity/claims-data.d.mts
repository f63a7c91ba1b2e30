/** One claim of docs/fidelity.md as docs/fidelity-claims.json holds it (claims-data.mjs). */
export interface ClaimRow {
  id: string;
  seed: string;
  seedFile: string;
  seedTitle: string;
  what: string;
  says: string;
  band: { lo: number | null; hi: number | null };
  bandText: string;
  rule: string;
  unit: string;
  seeds: number[];
  mean: number;
  min: number;
  max: number;
  model: string;
  inside: boolean;
  marked: boolean;
  verdict: string;
  gap: string | null;
  lesson: string;
  lessonTable: string | null;
  compare: string | null;
  command: string;
}
export interface ClaimsDocument {
  core: string;
  generatedBy: string;
  claims: ClaimRow[];
}
export const CLAIMS_BEGIN: string;
export const CLAIMS_END: string;
export function claimsMarkdown(data: ClaimsDocument): string;
export function claimsFromReport(md: string): string | null;
export function checkClaimsDocument(doc: unknown): ClaimsDocument;
