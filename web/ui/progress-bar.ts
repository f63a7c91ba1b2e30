// A progress bar for a sweep of model runs: how many of how many, an estimate of the time left,
// and a Cancel button. It only shows what it is told (the engine's pool computes the figures).
import { el } from './dom';
import { perFrame } from './per-frame';
import './progress-bar.css';

export interface ProgressFigures {
  done: number;
  total: number;
  /** estimated ms left, or null while there is nothing to estimate from */
  etaMs: number | null;
}

export interface ProgressBar {
  root: HTMLElement;
  update(p: ProgressFigures): void;
  /** the sweep ended: the bar and Cancel go, the message stays (empty: nothing stays) */
  finish(message: string): void;
}

/** "about 12 s left", "about 2 min left" */
export function timeLeft(ms: number | null): string {
  if (ms === null) return 'estimating the time left…';
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `about ${s} s left`;
  return `about ${Math.round(s / 60)} min left`;
}

/** what: what is running, e.g. "the model runs of this table"; cancel: called by the button. */
export function progressBar(what: string, cancel: () => void): ProgressBar {
  const bar = el('progress', { max: 1, value: 0, 'aria-label': `Progress of ${what}` });
  const text = el('span', { class: 'progress-text' });
  const stop = el('button', { type: 'button', class: 'small progress-cancel', text: 'Cancel' });
  stop.addEventListener('click', cancel);
  const root = el('div', { class: 'sweep-progress', role: 'status' }, bar, text, stop);
  let last: ProgressFigures = { done: 0, total: 0, etaMs: null };
  let finished = false;
  const draw = perFrame(() => {
    if (finished) return;
    bar.max = Math.max(1, last.total);
    bar.value = last.done;
    text.textContent = `${what}: ${last.done} of ${last.total} runs, ${last.done === last.total ? 'done' : timeLeft(last.etaMs)}`;
  });
  return {
    root,
    update(p) {
      last = { ...p };
      draw();
    },
    finish(message) {
      finished = true;
      bar.remove();
      stop.remove();
      text.textContent = message;
      root.hidden = message === '';
    },
  };
}
