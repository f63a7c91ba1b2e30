import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { coreHash } from './scripts/core-hash.mjs';

export default defineConfig({
  define: { __BLAB_CORE_HASH__: JSON.stringify(coreHash(fileURLToPath(new URL('.', import.meta.url)))) },
  test: {
    include: ['web/**/*.test.ts', 'scripts/**/*.test.mjs'],
    environment: 'node',
    // Emscripten pthread pools keep a worker thread alive; forks are torn down cleanly.
    pool: 'forks',
  },
});
