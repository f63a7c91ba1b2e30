import './styles.css';
import { App } from './app';
import { EngineClient } from '../engine/engine-client';
import { engine } from '../engine/engine';
import type { EngineFault } from '../engine/protocol';
import { createOpScriptPanel } from '../panels/opscript-panel';
import { mountCourse } from './course';
import { routeFrom } from './routes';
import { markCurrentPage, wireSkipLink } from './chrome';
import { createJsonLogPanel } from '../panels/jsonlog-panel';
import { createImportPanel } from '../panels/import-panel';
import { createSnapshotPanel } from '../panels/snapshot-panel';
import { createScenariosPanel } from '../panels/scenarios-panel';
import { Store, browserStorage } from '../storage/store';
import type { OpenLog, Panel } from '../panels/panel';
import { createRealPanel } from '../panels/real-panel';
import { createZoneinfoPanel } from '../panels/zoneinfo-panel';

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
if (root && route.page !== 'workbench') mountCourse(root, route, window.location.search);
else if (root) {
  const app = new App(root);
  window.buddylab = app;
  if (window.__buddylabTestHooks === true) window.buddylabTest = { injectFault: (f) => engine.injectFault(f) };
  // Panels that make a run hand its log to the player through this; none holds the app.
  const open: OpenLog = (data, opts) => app.loadEventLog(data, opts);
  const sidebar = root.querySelector('aside.sidebar');
  const place = (p: Panel, where: (e: HTMLElement) => void) => {
    where(p.root);
    app.addPanel(p);
  };
  // The op-script panel runs the real C core (WASM) in the engine worker; after the scenario
  // form, because a newcomer's first click is Run scenario, at the top.
  const form = root.querySelector('aside.sidebar #scenario-form');
  place(createOpScriptPanel(open, new EngineClient()), (e) => (form ? form.after(e) : sidebar?.prepend(e)));
  // Runs exported as JSON from the lessons and the compare view load back here.
  place(createJsonLogPanel(open), (e) => sidebar?.append(e));
  // Kernel trace import: controls in the sidebar, its summary above the views.
  const imp = createImportPanel(open);
  place(imp, (e) => sidebar?.append(e));
  place(createSnapshotPanel(open), (e) => sidebar?.append(e));
  root.querySelector('#views')?.before(imp.summary);
  // Your own kernel: a zoneinfo's pcp sizes per preset, a run with them, a trace over it.
  const zi = createZoneinfoPanel(open);
  place(zi, (e) => sidebar?.append(e));
  root.querySelector('#views')?.before(zi.results);
  // Saved scenarios (nothing a user made is lost), after the scenario form.
  place(createScenariosPanel(new Store(browserStorage())), (e) => root.querySelector('#scenario-form')?.after(e));
  // The real machine: page_fault1 on N Web Workers, live scores.
  place(createRealPanel(), (e) => sidebar?.append(e));
  app.foldTools();
  if (route.page === 'workbench' && route.focus === 'import') app.showTool(imp.root);
  if (route.page === 'workbench' && route.focus === 'zoneinfo') app.showTool(zi.root);
}
