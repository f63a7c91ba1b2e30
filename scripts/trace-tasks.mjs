// The renderer main thread's tasks in a Chromium trace (Playwright's browser.startTracing with
// at least the 'toplevel' and 'disabled-by-default-devtools.timeline' categories), split into
// the page's own and the test driver's. A driver's command (a locator's wait, an evaluate)
// reaches the page as a "Receive mojo message" on blink.mojom.DevToolsSession and runs on the
// main thread: Playwright's injected script polls the DOM, forcing style and layout, tens of
// ms at a time on a big page. A user's browser runs none of those, so a budget on the page's
// main thread counts the page's tasks only and reports the driver's beside them.

const DEVTOOLS = 'blink.mojom.DevToolsSession';

/**
 * @param {{ traceEvents: object[] }} trace the parsed trace file
 * @param {number} skipUs tasks in the first skipUs microseconds are dropped (DevTools' own
 *   message that turns tracing on runs first)
 */
export function mainThreadTasks(trace, skipUs = 100_000) {
  const ev = trace.traceEvents;
  const main = new Set(ev.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const onMain = (e) => main.has(`${e.pid}:${e.tid}`);
  const tasks = ev.filter((e) => e.ph === 'X' && e.name === 'RunTask' && onMain(e)).sort((a, b) => a.ts - b.ts);
  const driver = ev
    .filter((e) => e.ph === 'X' && e.name === 'Receive mojo message' && onMain(e) && e.args?.chrome_mojo_event_info?.mojo_interface_tag === DEVTOOLS)
    .map((e) => e.ts);
  const start = tasks.length ? tasks[0].ts : 0;
  const page = [];
  const devtools = [];
  for (const t of tasks) {
    if (t.ts - start <= skipUs) continue;
    const task = { wall: (t.dur ?? 0) / 1000, cpu: (t.tdur ?? 0) / 1000 };
    const end = t.ts + (t.dur ?? 0);
    (driver.some((ts) => ts >= t.ts && ts < end) ? devtools : page).push(task);
  }
  return { page, devtools };
}
