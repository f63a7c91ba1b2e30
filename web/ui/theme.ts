// Light or dark: a bright lecture hall washes a dark slide out, so the page follows the
// system's prefers-color-scheme until the reader picks one (the toggle, or T on a slide), and
// the pick is kept in localStorage. CSS reads html[data-theme]; figures drawn in canvases read
// their colours from palette.ts at draw time and are redrawn when the theme changes.
import { el } from './dom';

export type Theme = 'dark' | 'light';
const KEY = 'buddylab-theme';
/** the event a page listens for to redraw its canvases */
export const THEME_EVENT = 'buddylab:theme';

const systemLight = () => typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: light)').matches;

function stored(): Theme | undefined {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : undefined;
  } catch {
    return undefined; // storage refused (a locked-down browser): follow the system
  }
}

/** a theme the page's address fixes (an embedded figure on a slide of known background) */
let pinned: Theme | undefined;

/** The theme in force: the address's, else the reader's pick, else the system's. */
export function currentTheme(): Theme {
  return pinned ?? stored() ?? (systemLight() ? 'light' : 'dark');
}

/** Fixes the theme for this page, whatever the system or the reader's pick says. */
export function pinTheme(t: Theme): void {
  pinned = t;
  applyTheme();
}

/** Sets html[data-theme] and tells the page, which redraws what it draws itself. */
export function applyTheme(): void {
  const t = currentTheme();
  if (document.documentElement.dataset['theme'] === t) return;
  document.documentElement.dataset['theme'] = t;
  document.dispatchEvent(new CustomEvent(THEME_EVENT, { detail: t }));
}

/** The other theme, kept for the next visit. */
export function toggleTheme(): void {
  try {
    localStorage.setItem(KEY, currentTheme() === 'light' ? 'dark' : 'light');
  } catch {
    // not kept, but still switched for this page
    document.documentElement.dataset['theme'] = currentTheme() === 'light' ? 'dark' : 'light';
    document.dispatchEvent(new CustomEvent(THEME_EVENT, { detail: document.documentElement.dataset['theme'] }));
    return;
  }
  applyTheme();
}

/** Applies the theme now and follows the system's changes while the reader has not picked one. */
export function initTheme(): void {
  applyTheme();
  if (typeof matchMedia === 'function') matchMedia('(prefers-color-scheme: light)').addEventListener('change', applyTheme);
}

/** A button that switches the theme (pressed: light), kept in step with it. */
export function themeButton(label = 'Light theme (T)'): HTMLButtonElement {
  const b = el('button', { type: 'button', class: 'small theme-toggle', 'aria-pressed': String(currentTheme() === 'light'), text: label });
  b.addEventListener('click', toggleTheme);
  document.addEventListener(THEME_EVENT, () => b.setAttribute('aria-pressed', String(currentTheme() === 'light')));
  return b;
}
