// Calls to a redraw coalesced to one per animation frame: a sweep may finish many points in one
// frame (cached ones all at once), and redrawing a chart or a progress bar for each would lay
// the page out again and again where once shows the same.
export function perFrame(fn: () => void): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fn();
    });
  };
}
