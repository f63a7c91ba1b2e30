import './styles.css';
import './light.css';
import type { App } from './app';
import type { EngineFault } from '../engine/engine-protocol';
import { routeFrom } from './routes';
import { markCurrentPage, wireSkipLink } from './chrome';
import { mountCourse } from './course';
import { initTheme, themeButton, THEME_EVENT } from '../ui/theme';

declare global {
  interface Window {
    /** The running app: `buddylab.loadEventLog(arrayBuffer)` replays a log (also the test hook). */
    buddylab?: App;
    /** Set before load by end-to-end tests only (page.addInitScript): turns on buddylabTest. */
    __buddylabTestHooks?: boolean;
    buddylabTest?: { injectFault(fault: EngineFault): void };
  }
}

const root = document.getElementById('app');
const route = routeFrom(window.location.search, window.location.hash);
markCurrentPage(route);
wireSkipLink();
// light or dark: the system's choice until the reader picks one (web/ui/theme.ts)
initTheme();
document.querySelector('.top-nav')?.after(themeButton('Light theme'));
// the lesson pages redraw their figures themselves; a page that keeps its state in the address
// (the workbench, compare, the time machine) is drawn again from it
document.addEventListener(THEME_EVENT, () => {
  if (route.page === 'workbench' || route.page === 'compare' || route.page === 'timemachine') location.reload();
});

// The build's version (the build stamps it into the page): shown at the foot of every page, and
// a link that asks for another version (?v=, docs/lessons.md "Pinning a course") says so.
const version = document.querySelector('meta[name="buddylab-version"]')?.getAttribute('content') ?? 'dev';
const foot = document.getElementById('build-version');
if (foot) foot.textContent = `course version ${version}`;
const asked = new URLSearchParams(window.location.search).get('v');
const versionNote = document.getElementById('version-note');
if (versionNote && asked !== null && asked !== version) {
  versionNote.textContent = `This link was made for course version ${asked.slice(0, 64)}; this site serves version ${version}, whose lessons and numbers may differ. Ask for the link to version ${asked.slice(0, 64)} if you need exactly that one.`;
  versionNote.hidden = false;
}

// Threads need a cross-origin-isolated page: the workbench says which it is; the course pages
// only speak up when something is wrong, in words a student can act on.
const isolation = document.getElementById('isolation');
if (isolation) {
  const ok = window.crossOriginIsolated === true;
  if (route.page === 'workbench') {
    isolation.textContent = ok ? 'cross-origin isolated: threads available' : 'not cross-origin isolated: single-threaded only';
    isolation.classList.add(ok ? 'ok' : 'warn');
  } else if (!ok) {
    isolation.textContent = 'Simulations cannot start in this tab yet: reload the page once.';
    isolation.classList.add('warn');
  } else isolation.hidden = true;
}
// Each page's code is fetched when the page is opened (course.ts, workbench.ts): the front page's
// first load is the shell and the course list, not the workbench's panels or the lessons' parser.
// The document's load event does not wait for these, so html[data-mounted] says when the page is
// there (the end-to-end tests wait for it: web/e2e/fixtures.ts).
try {
  if (root && route.page !== 'workbench') await mountCourse(root, route, window.location.search);
  else if (root && route.page === 'workbench') (await import('./workbench')).mountWorkbench(root, route);
} finally {
  document.documentElement.dataset['mounted'] = '1';
}
