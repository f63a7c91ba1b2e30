// The seeds' claims against the model, as `make fidelity` wrote them (docs/fidelity-claims.json),
// checked against docs/fidelity.md at build time, with each claim's lesson and the step of its
// table (web/compare/fidelity-plugin.ts).
declare module 'virtual:fidelity' {
  const data: {
    doc: import('../../scripts/fidelity/claims-data.mjs').ClaimsDocument;
    lessons: Record<string, import('./fidelity-rows').FidelityLesson>;
  };
  export default data;
}
