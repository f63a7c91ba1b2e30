// The page's frame around every route: the header's links (the current one marked for screen
// readers and by style) and the skip link, which must work on every page without touching
// the address (the workbench keeps its state in the hash).
import type { Route } from './routes';

export function markCurrentPage(route: Route): void {
  const key = route.page === 'lesson' || route.page === 'lessons' ? 'home' : route.page === 'exercises' ? 'exercise' : route.page;
  for (const a of document.querySelectorAll<HTMLAnchorElement>('.top-nav a[data-page]')) {
    if (a.dataset['page'] === key) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

export function wireSkipLink(): void {
  const skip = document.querySelector<HTMLAnchorElement>('a.skip');
  const main = document.getElementById('app');
  if (!skip || !main) return;
  skip.addEventListener('click', (ev) => {
    ev.preventDefault();
    // the first heading of the page if there is one, else the main region itself
    const target = main.querySelector<HTMLElement>('h2, h3') ?? main;
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus();
    target.scrollIntoView({ block: 'start' });
  });
}
