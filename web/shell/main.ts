import './styles.css';
import { App } from './app';
import { EngineClient } from '../engine/engine-client';
import { engine } from '../engine/engine';
import type { EngineFault } from '../engine/protocol';
import { createOpScriptPanel } from '../panels/opscript-panel';
import { mountCourse } from './course';
import { createJsonLogPanel } from '../panels/jsonlog-panel';
import { createImportPanel } from '../panels/import-panel';
import { createSnapshotPanel } from '../panels/snapshot-panel';
import { createScenariosPanel } from '../panels/scenarios-panel';
import { Store, browserStorage } from '../storage/store';
import { createRealPanel } from '../panels/real-panel';

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
if (root && !mountCourse(root, window.location.search)) {
  const app = new App(root);
  window.buddylab = app;
  if (window.__buddylabTestHooks === true) window.buddylabTest = { injectFault: (f) => engine.injectFault(f) };
  // The op-script panel runs the real C core (WASM) in the engine worker.
  // after the scenario form: a newcomer's first click is Run scenario, at the top
  const opscript = createOpScriptPanel(app, new EngineClient());
  const form = root.querySelector('aside.sidebar #scenario-form');
  if (form) form.after(opscript);
  else root.querySelector('aside.sidebar')?.prepend(opscript);
  // Runs exported as JSON from the lessons and the compare view load back here.
  root.querySelector('aside.sidebar')?.append(createJsonLogPanel(app));
  // Kernel trace import (issue 8): controls in the sidebar, its summary above the views.
  const imp = createImportPanel(app);
  root.querySelector('aside.sidebar')?.append(imp.controls, createSnapshotPanel(app));
  root.querySelector('#views')?.before(imp.summary);
  // Saved scenarios (issue 9: nothing a user made is lost), after the scenario form.
  root.querySelector('#scenario-form')?.after(createScenariosPanel(new Store(browserStorage())));
  // The real machine: page_fault1 on N Web Workers, live scores (web/panels/real-panel.ts).
  root.querySelector('aside.sidebar')?.append(createRealPanel());
}
