export interface TraceTask {
  /** ms */
  wall: number;
  /** the task's thread CPU time, ms */
  cpu: number;
}
/** The renderer main thread's tasks in a Chromium trace: the page's own, and those the test
 * driver's DevTools commands ran. */
export function mainThreadTasks(trace: { traceEvents: object[] }, skipUs?: number): { page: TraceTask[]; devtools: TraceTask[] };
