import './styles.css';
import { App } from './app';
import { EngineClient } from './engine/engine-client';
import { engine } from './engine/engine';
import type { EngineFault } from './engine/protocol';
import { createOpScriptPanel } from './opscript';
import { createImportPanel } from './import/import-panel';
import { createSnapshotPanel } from './import/snapshot-panel';
import { createScenariosPanel } from './storage/scenarios-panel';
import { Store, browserStorage } from './storage/store';

declare global {
  interface Window {
    /** The running app: `buddylab.loadEventLog(arrayBuffer)` replays a log (also the test hook). */
    buddylab?: App;
    /** Set before load by end-to-end tests only (page.addInitScript): turns on buddylabTest. */
    __buddylabTestHooks?: boolean;
    buddylabTest?: { injectFault(fault: EngineFault): void };
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
  if (window.__buddylabTestHooks === true) window.buddylabTest = { injectFault: (f) => engine.injectFault(f) };
  // The op-script panel runs the real C core (WASM) in the engine worker.
  // after the scenario form: a newcomer's first click is Run scenario, at the top
  const opscript = createOpScriptPanel(app, new EngineClient());
  const form = root.querySelector('aside.sidebar #scenario-form');
  if (form) form.after(opscript);
  else root.querySelector('aside.sidebar')?.prepend(opscript);
  // Kernel trace import (issue 8): controls in the sidebar, its summary above the views.
  const imp = createImportPanel(app);
  root.querySelector('aside.sidebar')?.append(imp.controls, createSnapshotPanel(app));
  root.querySelector('#views')?.before(imp.summary);
  // Saved scenarios (issue 9: nothing a user made is lost), after the scenario form.
  root.querySelector('#scenario-form')?.after(createScenariosPanel(new Store(browserStorage())));
}
