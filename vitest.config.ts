import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['web/**/*.test.ts', 'scripts/**/*.test.mjs'],
    environment: 'node',
    // Emscripten pthread pools keep a worker thread alive; forks are torn down cleanly.
    pool: 'forks',
  },
});
