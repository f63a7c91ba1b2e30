import './styles.css';
import { App } from './app';
import { EngineClient } from './engine/engine-client';
import { createOpScriptPanel } from './opscript';

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
if (root) {
  const app = new App(root);
  window.buddylab = app;
  // The op-script panel runs the real C core (WASM) in the engine worker.
  // after the scenario form: a newcomer's first click is Run scenario, at the top
  const opscript = createOpScriptPanel(app, new EngineClient());
  const form = root.querySelector('aside.sidebar #scenario-form');
  if (form) form.after(opscript);
  else root.querySelector('aside.sidebar')?.prepend(opscript);
}
