// The C core's hard limits (docs/limits.md), written by `blab limits --ts`
// (make core-limits): do not edit. web/log/core-limits.test.ts fails when this
// file and the core drift apart.
export const CORE_LIMITS = {
  /** pages of a zone (BLAB_MAX_PAGES) */
  maxPages: 16777216,
  /** CPUs of a zone (BLAB_MAX_CPUS) */
  maxCpus: 256,
  /** the highest top order, MAX_PAGE_ORDER (BLAB_MAX_ORDER_LIMIT) */
  maxOrder: 10,
  /** event records of a run (BLAB_MAX_LOG_EVENTS) */
  maxLogEvents: 67108864,
  /** CPUs of the default modelled machine (2 sockets x 28 cores x 2 threads) */
  modelCpus: 112,
  /** CPUs of a model run on a larger machine (--sockets) */
  simMaxCpus: 256,
  /** pages a task maps per round (BLAB_SIM_MAX_PAGES) */
  simMaxPagesPerTask: 1048576,
  /** cpus x pages of a model run (BLAB_SIM_MAX_MAPPED) */
  simMaxMapped: 4194304,
  /** rounds of a model run (BLAB_SIM_MAX_ITERATIONS) */
  simMaxIterations: 1000,
  /** cpus x pages x rounds of a model run (BLAB_SIM_MAX_WORK) */
  simMaxWork: 67108864,
  /** hackbench groups (BLAB_HACKBENCH_MAX_GROUPS) */
  hackbenchMaxGroups: 112,
  /** hackbench messages per sender (BLAB_HACKBENCH_MAX_LOOPS) */
  hackbenchMaxLoops: 1000000,
  /** hackbench groups x loops (BLAB_HACKBENCH_MAX_WORK) */
  hackbenchMaxWork: 16777216,
  /** threads of a real run (BLAB_RUN_MAX_THREADS) */
  runMaxThreads: 64,
  /** threads x pages of a real run (BLAB_RUN_MAX_MAPPED) */
  runMaxMapped: 4194304,
  /** characters of an op-script line (BLAB_SCRIPT_MAX_LINE) */
  scriptMaxLine: 1024,
  /** lines of an imported trace (BLAB_TRACE_MAX_LINES) */
  traceMaxLines: 67108864,
  /** kmem page events of an imported trace (BLAB_TRACE_MAX_EVENTS) */
  traceMaxEvents: 2097152,
  /** bytes of an imported trace (BLAB_TRACE_MAX_BYTES) */
  traceMaxBytes: 1073741824,
} as const;
