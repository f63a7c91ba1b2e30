// The workbench page: the app (the player, its controls and the views) and every panel around
// it, placed here and each given the one way to hand a run's log to the player. Its own chunk:
// the course pages never fetch it (web/shell/main.ts).
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
import { createScenarioPanel } from '../panels/scenario-panel';
import { createBinLogPanel } from '../panels/binlog-panel';
import { createThroughputPanel } from '../panels/throughput-panel';
import { createLatencyPanel } from '../panels/latency-panel';
import { createDrawer } from '../ui/drawer';

export function mountWorkbench(root: HTMLElement, route: Extract<Route, { page: 'workbench' }>): void {
  const app = new App(root);
  window.buddylab = app;
  if (window.__buddylabTestHooks === true) window.buddylabTest = { injectFault: (f) => engine.injectFault(f) };
  // Panels that make a run hand its log to the player through this; none holds the app.
  const open: OpenLog = (data, opts) => app.loadEventLog(data, opts);
  const sidebar = app.sidebar;
  const keys = sidebar.querySelector('.keys');
  const place = (p: Panel, where: (e: HTMLElement) => void) => {
    where(p.root);
    app.addPanel(p);
  };
  // The scenario form at the top: a newcomer's first click is Run scenario.
  const form = createScenarioPanel(open, (s) => app.setScenario(s));
  place(form, (e) => sidebar.prepend(e));
  if (app.linkStep() > 0) form.say(`This link points at step ${app.linkStep()}: press Run scenario to replay the run and land there.`);
  // The op-script panel runs the real C core (WASM) in the engine worker, after the form.
  place(createOpScriptPanel(open, new EngineClient()), (e) => form.root.after(e));
  // A recorded binary event log, above the player's keys.
  place(createBinLogPanel(open), (e) => (keys ? keys.before(e) : sidebar.append(e)));
  // Runs exported as JSON from the lessons and the compare view load back here.
  place(createJsonLogPanel(open), (e) => sidebar.append(e));
  // Kernel trace import: controls in the sidebar, its summary above the views.
  const imp = createImportPanel(open);
  place(imp, (e) => sidebar.append(e));
  place(createSnapshotPanel(open), (e) => sidebar.append(e));
  app.views.before(imp.summary);
  // Your own kernel: a zoneinfo's pcp sizes per preset, a run with them, a trace over it.
  const zi = createZoneinfoPanel(open);
  place(zi, (e) => sidebar.append(e));
  app.views.before(zi.results);
  // Saved scenarios (nothing a user made is lost), after the scenario form.
  place(createScenariosPanel(new Store(browserStorage())), (e) => form.root.after(e));
  // The real machine: page_fault1 on N Web Workers, live scores.
  place(createRealPanel(), (e) => sidebar.append(e));
  // A kernel's latency histogram over the run's: the box sits in the latency view's panel.
  const lat = createLatencyPanel({ parse: (t) => engine.histText(t), show: (o) => app.setLatencyOverlay(o) });
  app.views.querySelector('#latency .panel-body')?.append(lat.root);
  // The throughput sweep, after the views; a lecture slide may show its chart.
  const sweep = createThroughputPanel();
  place(sweep, (e) => app.views.append(e));
  app.addFigure({ id: 'throughput', title: 'Throughput', el: sweep.root });
  const tools = foldTools(sidebar, form.root);
  if (route.focus === 'import') showTool(tools, imp.root);
  if (route.focus === 'zoneinfo') showTool(tools, zi.root);
}

/**
 * Folds the sidebar's tools (everything after the scenario form: saved scenarios, op scripts,
 * logs, trace import, snapshots, the real machine) into one drawer, open on a wide screen and
 * closed on a narrow one, so that on a phone the views follow right after Run and its results.
 */
function foldTools(sidebar: HTMLElement, form: HTMLElement) {
  const tools = createDrawer('More tools: saved scenarios, op scripts, trace import, snapshots, real machine', 'tools');
  const rest = [...sidebar.children].filter((c) => c !== form);
  tools.body.append(...rest);
  form.after(tools.root);
  return tools;
}

/** Opens the tools' drawer and brings `part` into view, focused (?workbench=import). */
function showTool(tools: ReturnType<typeof createDrawer>, part: HTMLElement): void {
  if (tools.root.contains(part)) tools.open(true);
  const h = part.querySelector<HTMLElement>('h2') ?? part;
  if (!h.hasAttribute('tabindex')) h.setAttribute('tabindex', '-1');
  h.focus();
  h.scrollIntoView({ block: 'start' });
}
