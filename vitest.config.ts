import { configDefaults, defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import { coreHash } from './scripts/core-hash.mjs';

// Two projects. `unit` needs no core: no WebAssembly build, no native blab, so `make check`
// runs it on a fresh clone in seconds. `core` runs the real core: it loads the Node WASM build
// (build/wasm/node/blab.js) or runs build/native/blab, so `make test-web` builds both first.
// A test file that loads the module or runs a build/ program is listed here;
// scripts/test-tiers.test.mjs fails when a unit test names a build/ path.
export const CORE_TESTS = [
  'web/compare/diff.test.ts',
  'web/compare/shipped-results.test.ts',
  'web/compare/timemachine.test.ts',
  'web/engine/histogram.test.ts',
  'web/engine/pool.test.ts',
  'web/engine/real-run.test.ts',
  'web/engine/simstats.test.ts',
  'web/engine/sweep.test.ts',
  'web/engine/wasm.test.ts',
  'web/exercise/contract.test.ts',
  'web/exercise/problem.test.ts',
  'web/import/procfs-parse.test.ts',
  'web/import/snapshot-script.test.ts',
  'web/import/trace-core.test.ts',
  'web/import/zoneinfo-core.test.ts',
  'web/lessons/autotune.test.ts',
  'web/lessons/compute.test.ts',
  'web/lessons/lesson-player.test.ts',
  'web/lessons/precompute.test.ts',
  'web/log/cacheindex.test.ts',
  'web/log/compaction-core.test.ts',
  'web/log/core-limits.test.ts',
  'web/log/latency-core.test.ts',
  'web/log/lockhistindex.test.ts',
  'web/log/pcphigh-core.test.ts',
  'web/log/pfnhistory.test.ts',
  'web/log/prefetch-fates.test.ts',
  'web/log/realcore.test.ts',
  'web/log/slabstate.test.ts',
  'web/scenario/core-schema.test.ts',
  'web/scenario/names.test.ts',
  'web/scenario/preset-switches.test.ts',
  'web/scenario/request.test.ts',
  'web/scenario/workloads.test.ts',
];
export const ALL_TESTS = ['web/**/*.test.ts', 'scripts/**/*.test.mjs'];

export default defineConfig({
  define: { __BLAB_CORE_HASH__: JSON.stringify(coreHash(fileURLToPath(new URL('.', import.meta.url)))) },
  test: {
    environment: 'node',
    // Emscripten pthread pools keep a worker thread alive; forks are torn down cleanly.
    pool: 'forks',
    // A timeout catches a hang, not slowness: the shared 2-core machine, busy with builds, has
    // stretched a one-second property test past Vitest's 5 s default. Performance is make bench's.
    testTimeout: 30_000,
    // One test file per CPU. Vitest's default leaves one CPU to its own main process, which
    // on this 2-CPU machine means one file at a time, while the main process mostly waits.
    maxWorkers: availableParallelism(),
    projects: [
      { extends: true, test: { name: 'unit', include: ALL_TESTS, exclude: [...configDefaults.exclude, ...CORE_TESTS] } },
      { extends: true, test: { name: 'core', include: CORE_TESTS } },
    ],
  },
});
