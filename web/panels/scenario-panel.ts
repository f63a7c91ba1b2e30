// The workbench's scenario form: the Run button first, the run's results card right under it,
// the scenario's fields folded below (a phone sees Run and the results without scrolling; a
// keyboard reaches Run in a few Tabs). Run scenario runs the workload in the engine worker
// (web/engine/engine.ts) and hands its log to the player through OpenLog; every change of the
// fields goes to the workbench (onScenario), which keeps the scenario in the URL and tells the
// other panels. A scenario that comes back through load() and not from these fields (a link,
// the hash edited) is written into them.
import { engine } from '../engine/engine';
import { BATCH_SCALE_MAX_LIMIT, PRESETS, URL_LIMITS, WORKLOADS, presetBatchScaleMax, type Scenario } from '../scenario/url';
import { presetHint } from '../scenario/preset-switches';
import { WORKLOAD_TABLE, workloadEntry } from '../scenario/workloads';
import { el } from '../ui/dom';
import { createDrawer } from '../ui/drawer';
import { renderResults } from '../views/results';
import type { OpenLog, Panel, PanelData } from './panel';

const ZONE_SIZES = [16, 256, 1024, 4096, 16384, 65536, 262144];

type FieldName = 'pages' | 'cpus' | 'preset' | 'workload' | 'seed' | 'scale';

/** Under the scale menu: what the option does, or why this preset has none. */
const SCALE_HINT =
  'CONFIG_PCP_BATCH_SCALE_MAX (52166607ecc9, 6.7): a refill takes at most batch << N pages (2,016 at the default 5 with batch 63); 0..6 as mm/Kconfig allows.';
const scaleHint = (preset: string) => (presetBatchScaleMax(preset) === undefined ? `${SCALE_HINT} This preset is older than 6.7: it has no such option.` : SCALE_HINT);

export interface ScenarioPanel extends Panel {
  /** a line under the Run button (a link's step waits for a run) */
  say(text: string): void;
}

/** The form's fields, each with its label and hint, in the drawer's body. */
function scenarioFields(body: HTMLElement): Record<FieldName, HTMLInputElement | HTMLSelectElement> {
  const field = (id: string, label: string, input: HTMLInputElement | HTMLSelectElement, hint?: string) => {
    input.id = id;
    input.name = id;
    const wrap = el('div', { class: 'field' }, el('label', { for: id, text: label }), input);
    if (hint) {
      const h = el('span', { class: 'hint', id: `${id}-hint`, text: hint });
      input.setAttribute('aria-describedby', h.id);
      wrap.append(h);
    }
    body.append(wrap);
    return input;
  };
  const select = (options: [string, string][]) => {
    const s = el('select');
    for (const [v, t] of options) s.append(el('option', { value: v, text: t }));
    return s;
  };
  return {
    pages: field(
      'sc-pages',
      'zone size (pages)',
      select(ZONE_SIZES.map((n) => [String(n), `${n.toLocaleString('en')} (${(n * 4) / 1024 >= 1 ? `${(n * 4) / 1024} MiB` : `${n * 4} KiB`})`])),
      WORKLOAD_TABLE[0].params.pages,
    ),
    cpus: field('sc-cpus', 'CPUs', el('input', { type: 'number', min: 1, max: URL_LIMITS.maxCpus, step: 1, required: true }), WORKLOAD_TABLE[0].params.cpus),
    preset: field('sc-preset', 'preset (kernel change)', select(Object.entries(PRESETS)), ' '),
    workload: field('sc-workload', 'workload', select(Object.entries(WORKLOADS)), WORKLOAD_TABLE[0].description),
    seed: field('sc-seed', 'seed', el('input', { type: 'number', min: 0, max: 4294967295, step: 1, required: true })),
    scale: field(
      'sc-scale',
      'CONFIG_PCP_BATCH_SCALE_MAX',
      select([['', "the preset's (5)"], ...Array.from({ length: BATCH_SCALE_MAX_LIMIT + 1 }, (_, n): [string, string] => [String(n), `${n}: refills up to batch << ${n}`])]),
      SCALE_HINT,
    ),
  };
}

export function createScenarioPanel(open: OpenLog, onScenario: (s: Scenario) => void): ScenarioPanel {
  const form = el('form', { class: 'scenario', id: 'scenario-form', 'aria-labelledby': 'scenario-title' });
  const runBtn = el('button', { type: 'submit', class: 'primary', id: 'run-scenario', text: 'Run scenario' });
  const runMsg = el('p', { class: 'run-msg', id: 'run-msg', role: 'status' });
  const results = el('section', { class: 'results', id: 'results', 'aria-labelledby': 'results-title', hidden: true });
  /** the scenario in one line, above Run (the fields may be folded away) */
  const line = el('p', { class: 'scenario-line', id: 'scenario-line' });
  const settings = createDrawer('Change the scenario', 'scenario-settings');
  form.append(el('h2', { id: 'scenario-title', text: 'Scenario' }), line, runBtn, runMsg, results, settings.root);
  const f = scenarioFields(settings.body);
  const hints: Record<string, HTMLElement> = Object.fromEntries([...settings.body.querySelectorAll<HTMLElement>('.hint')].map((h) => [h.id, h]));

  /** the workbench's data: the scenario it holds and the run in the player */
  let data: PanelData | undefined;
  /** the last scenario these fields made: one that differs came from elsewhere */
  let mine: Scenario | undefined;

  /** Under the preset menu: what the preset models and its switches (blab presets NAME). */
  const writePresetHint = () => {
    const h = hints['sc-preset-hint'];
    if (h) h.textContent = presetHint(f.preset.value);
    // the option came with 6.7: an older preset's menu is off, at the preset's own
    const has = presetBatchScaleMax(f.preset.value) !== undefined;
    f.scale.disabled = !has;
    if (!has) f.scale.value = '';
    const sh = hints['sc-scale-hint'];
    if (sh) sh.textContent = scaleHint(f.preset.value);
  };
  const writeLine = (s: Scenario) => {
    const scale = s.pcpBatchScaleMax !== undefined ? ` · CONFIG_PCP_BATCH_SCALE_MAX=${s.pcpBatchScaleMax}` : '';
    line.textContent = `${s.workload} · ${s.cpus} CPUs · ${s.pages.toLocaleString('en')} pages · ${s.preset}${scale} · seed ${s.seed}`;
  };
  const writeForm = (s: Scenario) => {
    if (!ZONE_SIZES.includes(s.pages)) f.pages.append(el('option', { value: String(s.pages), text: s.pages.toLocaleString('en') }));
    f.pages.value = String(s.pages);
    f.cpus.value = String(s.cpus);
    f.preset.value = s.preset;
    f.workload.value = s.workload;
    f.seed.value = String(s.seed);
    f.scale.value = s.pcpBatchScaleMax === undefined ? '' : String(s.pcpBatchScaleMax);
    writePresetHint();
  };
  /** The fields as a scenario; a field out of its bounds keeps the scenario's value. */
  const readScenario = (): Scenario => {
    const was = data!.scenario;
    const num = (v: string, lo: number, hi: number, dflt: number) => {
      const x = Number(v);
      return Number.isInteger(x) && x >= lo && x <= hi ? x : dflt;
    };
    mine = {
      pages: num(f.pages.value, URL_LIMITS.minPages, URL_LIMITS.maxPages, was.pages),
      cpus: num(f.cpus.value, 1, URL_LIMITS.maxCpus, was.cpus),
      preset: f.preset.value as Scenario['preset'],
      workload: f.workload.value as Scenario['workload'],
      seed: num(f.seed.value, 0, 0xffffffff, was.seed),
    };
    if (f.scale.value !== '' && presetBatchScaleMax(mine.preset) !== undefined) mine.pcpBatchScaleMax = num(f.scale.value, 0, BATCH_SCALE_MAX_LIMIT, 5);
    return mine;
  };

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const s = readScenario();
    onScenario(s);
    runMsg.textContent = engine.connected ? 'running…' : '';
    runBtn.disabled = true;
    try {
      const run = await engine.runScenario(s);
      const res = open(run.log, {
        label: `${s.workload}, ${s.cpus} CPUs, ${s.pages} pages, ${s.preset}${s.pcpBatchScaleMax !== undefined ? ` (scale max ${s.pcpBatchScaleMax})` : ''}, seed ${s.seed}`,
        ...(run.pcp ? { pcp: run.pcp } : {}),
        stats: run.stats,
        ...(run.latency ? { latency: run.latency } : {}),
      });
      // the player that open() just loaded: the workbench told every panel (load()) before it returned
      const player = data?.player;
      if (res.ok && player) {
        renderResults(results, { request: run.request, stats: run.stats, log: player.log });
        runMsg.textContent =
          s.workload === 'page_fault1'
            ? 'Next: press “next drain ▶” (or D) to watch a pcp list drain and its pages merge back into the free areas.'
            : 'Step through the run with the player (→, or Space to play).';
      } else {
        results.hidden = true;
        runMsg.textContent = 'The run’s event log was rejected by the player (see the message above the views).';
      }
    } catch (e) {
      runMsg.textContent = e instanceof Error ? e.message : String(e);
    } finally {
      runBtn.disabled = false;
    }
  });
  form.addEventListener('change', () => {
    writePresetHint();
    const w = workloadEntry(f.workload.value);
    if (w) {
      for (const [id, text] of [['sc-workload-hint', w.description], ['sc-pages-hint', w.params.pages], ['sc-cpus-hint', w.params.cpus]] as const) {
        const h = hints[id];
        if (h) h.textContent = text;
      }
    }
    onScenario(readScenario());
  });

  return {
    root: form,
    say: (text) => {
      runMsg.textContent = text;
    },
    load(d) {
      data = d;
      writeLine(d.scenario);
      if (!mine || !sameScenario(mine, d.scenario)) writeForm(d.scenario);
      mine = d.scenario;
    },
  };
}

const sameScenario = (a: Scenario, b: Scenario) =>
  a.pages === b.pages && a.cpus === b.cpus && a.preset === b.preset && a.workload === b.workload && a.seed === b.seed && a.pcpBatchScaleMax === b.pcpBatchScaleMax;
