// The lesson files, checked at build time by web/lessons/vite-plugin.ts.
declare module 'virtual:lessons' {
  const lessons: { file: string; text: string }[];
  export default lessons;
}

// What the front page lists of each lesson, from the build's parse (no YAML parser in the page).
declare module 'virtual:lesson-index' {
  const index: import('./vite-plugin').LessonSummary[];
  export default index;
}

// The lesson tables (and the time machine's runs) precomputed with the native core at build time
// (web/lessons/precompute.ts): per lesson id or other set, each run's counters by point key
// (web/engine/point.ts), for the core `coreHash`; checked when read (web/lessons/tables.ts
// shippedStats(), web/compare/timemachine.ts).
declare module 'virtual:lesson-results' {
  const shipped: {
    coreHash: string;
    sets: Record<string, () => Promise<{ default: Record<string, unknown> }>>;
  };
  export default shipped;
}
