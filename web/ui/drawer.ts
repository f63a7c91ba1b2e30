// A drawer: a titled part of a page that folds away (a native <details>, so keyboard and
// screen readers know it). Open by default on a wide screen, closed on a narrow one, until the
// user opens or closes it; then it stays as they left it.
import { el } from './dom';

/** Wider than this, drawers start open (the workbench's sidebar sits beside the views). */
export const WIDE_QUERY = '(min-width: 1001px)';

export interface Drawer {
  readonly root: HTMLDetailsElement;
  /** where its contents go */
  readonly body: HTMLElement;
  open(on: boolean): void;
}

export function createDrawer(title: string, id: string): Drawer {
  const root = el('details', { class: 'drawer', id });
  const summary = el('summary', { class: 'drawer-title', text: title });
  const body = el('div', { class: 'drawer-body' });
  root.append(summary, body);
  const wide = typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(WIDE_QUERY) : undefined;
  let chosen = false;
  root.open = wide?.matches ?? true;
  summary.addEventListener('click', () => (chosen = true));
  wide?.addEventListener('change', () => {
    if (!chosen) root.open = wide.matches;
  });
  return {
    root,
    body,
    open(on) {
      chosen = true;
      root.open = on;
    },
  };
}
