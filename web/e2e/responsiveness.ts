// A probe for "the page keeps answering while a big file loads": a heartbeat every 20 ms, every
// long task, and every value a progress bar takes, from before the file is picked until stop.
import type { Page } from './fixtures';

export interface ProbeResult {
  /** ms between heartbeats: the longest is the longest the page stalled */
  gaps: number[];
  longTasks: number[];
  progress: number[];
}

/** the longest stall the page may have while a big file loads (trace import, event logs) */
export const MAX_GAP_MS = 600;

/** Starts the probe; `bar` selects the progress element to follow. */
export async function startProbe(page: Page, bar: string): Promise<void> {
  await page.evaluate((sel) => {
    const probe = { gaps: [] as number[], longTasks: [] as number[], progress: [] as number[], stop: () => {} };
    let last = performance.now();
    const beat = setInterval(() => {
      const now = performance.now();
      probe.gaps.push(now - last);
      last = now;
    }, 20);
    const po = new PerformanceObserver((l) => l.getEntries().forEach((e) => probe.longTasks.push(e.duration)));
    po.observe({ entryTypes: ['longtask'] });
    const el = document.querySelector(sel) as HTMLProgressElement;
    const mo = new MutationObserver(() => probe.progress.push(el.value));
    mo.observe(el, { attributes: true, attributeFilter: ['value'] });
    probe.stop = () => {
      clearInterval(beat);
      po.disconnect();
      mo.disconnect();
    };
    (window as unknown as { probe: typeof probe }).probe = probe;
  }, bar);
}

export async function stopProbe(page: Page): Promise<ProbeResult> {
  return page.evaluate(() => {
    const p = (window as unknown as { probe: { gaps: number[]; longTasks: number[]; progress: number[]; stop: () => void } }).probe;
    p.stop();
    return { gaps: p.gaps, longTasks: p.longTasks, progress: p.progress };
  });
}
