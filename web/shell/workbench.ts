// The workbench page: the app (scenario form, player, views) and the sidebar's panels, each
// given the one way to hand a run's log to the player. Its own chunk: the course pages never
// fetch it (web/shell/main.ts).
import { App } from './app';
import { EngineClient } from '../engine/engine-client';
import { engine } from '../engine/engine';
import { createOpScriptPanel } from '../panels/opscript-panel';
import type { Route } from './routes';
import { createJsonLogPanel } from '../panels/jsonlog-panel';
import { createImportPanel } from '../panels/import-panel';
import { createSnapshotPanel } from '../panels/snapshot-panel';
import { createScenariosPanel } from '../panels/scenarios-panel';
import { Store, browserStorage } from '../storage/store';
import type { OpenLog, Panel } from '../panels/panel';
import { createRealPanel } from '../panels/real-panel';
import { createZoneinfoPanel } from '../panels/zoneinfo-panel';

export function mountWorkbench(root: HTMLElement, route: Extract<Route, { page: 'workbench' }>): void {
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
  if (route.focus === 'import') app.showTool(imp.root);
  if (route.focus === 'zoneinfo') app.showTool(zi.root);
}
