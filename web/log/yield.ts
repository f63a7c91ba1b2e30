// A break in long work on the page's thread, so that it can draw and answer input.
// scheduler.yield() (Chromium 129+) resumes as soon as that is done; setTimeout(0), the
// fallback, waits at least 4 ms once timers nest, which a loop of 15 ms slices pays each time.

interface YieldingScheduler {
  yield(): Promise<void>;
}

export function nextTask(): Promise<void> {
  const s = (globalThis as { scheduler?: Partial<YieldingScheduler> }).scheduler;
  if (typeof s?.yield === 'function') return s.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
