import './styles.css';
import { App } from './app';
import { EngineClient } from './engine/engine-client';
import { createOpScriptPanel } from './opscript';
import { mountCourse } from './course';
import { createJsonLogPanel } from './export/jsonlog-panel';

declare global {
  interface Window {
    /** The running app: `buddylab.loadEventLog(arrayBuffer)` replays a log (also the test hook). */
    buddylab?: App;
  }
}

const isolation = document.getElementById('isolation');
if (isolation) {
  const ok = window.crossOriginIsolated === true;
  isolation.textContent = ok ? 'cross-origin isolated: threads available' : 'not cross-origin isolated: single-threaded only';
  isolation.classList.add(ok ? 'ok' : 'warn');
}

const root = document.getElementById('app');
if (root && !mountCourse(root, window.location.search)) {
  const app = new App(root);
  window.buddylab = app;
  // The op-script panel runs the real C core (WASM) in the engine worker.
  root.querySelector('aside.sidebar')?.prepend(createOpScriptPanel(app, new EngineClient()));
  // Runs exported as JSON from the lessons and the compare view load back here.
  root.querySelector('aside.sidebar')?.append(createJsonLogPanel(app));
}
