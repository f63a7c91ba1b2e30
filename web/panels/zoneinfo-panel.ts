// "Your own kernel": paste or drop your /proc/zoneinfo, and the C core (in the import worker,
// the parser of `blab zoneinfo`) computes for every zone and preset the pcp sizes that kernel
// would pick (batch, high; 6.7+ high_min and high_max) next to what your kernel printed, and
// flags every difference. Then page_fault1 runs on the model machine with your zone's sizes
// (the preset's own formulas for it): the log goes to the player, and the sizes of its
// rmqueue_bulk() refills and drains are drawn; add a kernel trace of your own and its sizes are
// drawn over the model's (docs/modern-pcp.md).
import './zoneinfo.css';
import { EngineClient } from '../engine/engine-client';
import { ImportClient } from '../import/import-client';
import { ZONEINFO_MAX_BYTES, zonesWithPcp, type ZoneReport, type ZoneinfoReport } from '../import/zoneinfo-core';
import type { PcpHistogram } from '../log/pcphist-json';
import { PRESETS } from '../scenario/url';
import { IMPORT_LIMITS } from '../scenario/limits';
import { el, panel } from '../ui/dom';
import type { PcpHistData } from '../views/pcphist';
import { mountView } from '../views/registry';
import type { OpenLog, Panel } from './panel';

export interface ZoneinfoPanel extends Panel {
  /** the sidebar section: the text box, the zone and preset, the run and trace controls */
  readonly root: HTMLElement;
  /** the report and the histograms, for the content column (hidden until something is read) */
  readonly results: HTMLElement;
  /** reads a zoneinfo as if pasted (the tests' and the lesson's way in) */
  read(text: string): Promise<ZoneinfoReport | undefined>;
}

/** page_fault1 in the browser: small enough to finish in seconds, long enough to climb to 2016 */
const RUN = { pages: 4096, iterations: 4, maxEvents: 200_000, maxTasks: 16 } as const;

const fmt = (n: number | undefined) => (n === undefined ? '-' : n.toLocaleString('en'));

/** The report of one zone: what the kernel printed, then every preset's sizes and differences. */
function zoneTable(z: ZoneReport, chosen: string): HTMLElement {
  const box = el('div', { class: 'zi-zone' });
  const k = z.kernel!;
  const printed =
    `${k.cpus_differ ? 'CPUs differ; cpu ' : 'cpu '}${k.cpu}: batch ${fmt(k.batch)}, high ${fmt(k.high)}` +
    (k.high_lo !== k.high_hi ? ` (${fmt(k.high_lo)} .. ${fmt(k.high_hi)} over the CPUs)` : '') +
    (k.high_min !== undefined ? `, high_min ${fmt(k.high_min)}, high_max ${fmt(k.high_max)}` : '');
  box.append(
    el('h3', { text: `node ${z.node}, zone ${z.zone}: managed ${fmt(z.managed)}, low watermark ${fmt(z.low)}` }),
    el('p', { class: 'hint', text: `your kernel printed ${printed}${z.managed_line ? '' : ' (no managed line: present stands in)'}` }),
  );
  const t = el('table', { class: 'isum-table zi-table' });
  t.append(el('caption', { text: `what each preset's kernel computes for this zone` }));
  const head = el('tr');
  for (const h of ['preset', 'batch', 'high', 'high_min', 'high_max', 'vs your kernel']) head.append(el('th', { scope: 'col', text: h }));
  t.append(el('thead', {}, head));
  const body = el('tbody');
  for (const [name, p] of Object.entries(z.presets)) {
    const row = el('tr', { class: name === chosen ? 'zi-chosen' : '' });
    const diff = p.differs.length ? p.differs.map((d) => `${d.field} ${fmt(d.computed)} ≠ ${fmt(d.kernel)}`).join(', ') : 'same';
    for (const c of [name, fmt(p.batch), fmt(p.high), fmt(p.high_min), fmt(p.high_max)]) row.append(el('td', { text: c }));
    row.append(el('td', { class: p.differs.length ? 'zi-differs' : 'zi-same', text: diff }));
    body.append(row);
  }
  t.append(body);
  box.append(t);
  const sixSeven = Object.entries(z.presets).filter(([, p]) => p.high_max !== undefined);
  const mismatch = k.high_min !== undefined && sixSeven.length > 0 && sixSeven.every(([, p]) => p.differs.length > 0);
  box.append(
    el('p', {
      class: mismatch ? 'import-alert' : 'hint',
      text: z.matches.length
        ? `${mismatch ? 'MISMATCH: no 6.7+ preset gives what your kernel printed; ' : ''}these presets give exactly what your kernel printed: ${z.matches.join(', ')}`
        : 'MISMATCH: no preset gives what your kernel printed (a watermark or the CPU count may have changed since the sizes were set: give the node’s CPUs)',
    }),
  );
  return box;
}

/** The sidebar section: the zoneinfo, the node's CPUs, the zone and preset, the run and a trace. */
function zoneinfoSection() {
  const sec = el('section', { class: 'zoneinfo-panel', id: 'zoneinfo-panel', 'aria-labelledby': 'zoneinfo-title' });
  const text = el('textarea', { id: 'zi-text', rows: 5, spellcheck: false, 'aria-describedby': 'zi-hint', placeholder: 'cat /proc/zoneinfo' });
  const cpus = el('input', { id: 'zi-cpus', type: 'number', min: 0, max: 4096, value: '0', inputmode: 'numeric' });
  const readBtn = el('button', { type: 'button', id: 'zi-read', class: 'primary', text: 'Read zoneinfo' });
  const zoneSel = el('select', { id: 'zi-zone' });
  const presetSel = el('select', { id: 'zi-preset' });
  for (const [k, v] of Object.entries(PRESETS)) presetSel.append(el('option', { value: k, text: v }));
  presetSel.value = 'v6.19';
  const tasks = el('input', { id: 'zi-tasks', type: 'number', min: 1, max: RUN.maxTasks, value: '2', inputmode: 'numeric' });
  const runBtn = el('button', { type: 'button', id: 'zi-run', text: 'Run page_fault1 with these sizes', disabled: true });
  const traceInput = el('input', { type: 'file', id: 'zi-trace', accept: '.txt,.trace,.log,text/plain' });
  const msg = el('p', { class: 'import-alert', id: 'zi-msg', role: 'alert' });
  const status = el('p', { class: 'import-status', id: 'zi-status', role: 'status' });
  sec.append(
    el('h2', { id: 'zoneinfo-title', text: 'Your own kernel: zoneinfo' }),
    el('label', { for: 'zi-text', text: '/proc/zoneinfo of any kernel' }),
    text,
    el('p', { class: 'hint', id: 'zi-hint', text: 'paste, or drop the file here: cat /proc/zoneinfo' }),
    el('label', { for: 'zi-cpus', text: 'CPUs of each zone’s node (0: as the file lists them)' }),
    cpus,
    readBtn,
    el('label', { for: 'zi-zone', text: 'zone' }),
    zoneSel,
    el('label', { for: 'zi-preset', text: 'kernel (preset)' }),
    presetSel,
    el('label', { for: 'zi-tasks', text: `page_fault1 tasks (1..${RUN.maxTasks})` }),
    tasks,
    runBtn,
    el('label', { for: 'zi-trace', text: 'and a kernel trace to draw over it (perf script / tracefs text)' }),
    traceInput,
    msg,
    status,
  );
  return { sec, text, cpus, readBtn, zoneSel, presetSel, tasks, runBtn, traceInput, msg, status };
}

export function createZoneinfoPanel(open: OpenLog, client = new ImportClient(), engine = new EngineClient()): ZoneinfoPanel {
  const { sec, text, cpus, readBtn, zoneSel, presetSel, tasks, runBtn, traceInput, msg, status } = zoneinfoSection();

  const results = el('div', { class: 'zoneinfo-results', id: 'zoneinfo-results' });
  const reportBox = el('div', { id: 'zi-report' });
  panel(results, 'zi-report-panel', 'Your zoneinfo: each preset’s pcp sizes for its zones', 'computed from managed pages, the low watermark and the node’s CPUs, next to what your kernel printed').append(reportBox);
  const hist = mountView(results, 'pcp-hist');
  hist.section.hidden = true;
  results.hidden = true;

  let report: ZoneinfoReport | undefined;
  const histData: PcpHistData = {};
  const drawHist = () => {
    hist.section.hidden = !histData.model && !histData.trace;
    hist.update({ histograms: { ...histData } });
  };
  const chosenZone = (): ZoneReport | undefined => (report ? zonesWithPcp(report).find((z) => `${z.node}/${z.zone}` === zoneSel.value) : undefined);
  const drawReport = () => {
    const z = chosenZone();
    reportBox.replaceChildren(
      ...(report
        ? [
            el('p', {
              class: 'isum-head',
              text: `${report.zones_count} zones on ${report.nodes} node${report.nodes === 1 ? '' : 's'}, ${report.cpus} CPUs, the ${report.format} format; zone_highsize() splits over ${report.node_cpus} CPUs${report.node_cpus_given ? ' (as given)' : report.nodes > 1 ? ' (an estimate: give the node’s CPUs)' : ''}.`,
            }),
          ]
        : []),
      ...(z ? [zoneTable(z, presetSel.value)] : []),
    );
  };

  async function read(t: string): Promise<ZoneinfoReport | undefined> {
    msg.textContent = '';
    status.textContent = 'reading the zoneinfo in the core…';
    runBtn.disabled = true;
    try {
      const n = Number(cpus.value);
      if (!Number.isInteger(n) || n < 0 || n > 4096) throw new Error('the node’s CPUs: a whole number, 0..4096');
      report = await client.zoneinfo(t, n);
    } catch (e) {
      report = undefined;
      msg.textContent = `This zoneinfo cannot be read: ${e instanceof Error ? e.message : String(e)}`;
      status.textContent = '';
      results.hidden = histData.model === undefined && histData.trace === undefined;
      return undefined;
    }
    const zones = zonesWithPcp(report);
    const keep = zoneSel.value;
    zoneSel.replaceChildren(...zones.map((z) => el('option', { value: `${z.node}/${z.zone}`, text: `node ${z.node}, ${z.zone}` })));
    const normal = zones.find((z) => z.zone === 'Normal') ?? zones.at(-1);
    zoneSel.value = zones.some((z) => `${z.node}/${z.zone}` === keep) ? keep : normal ? `${normal.node}/${normal.zone}` : '';
    status.textContent = zones.length ? '' : 'No zone with pcp lists in this file.';
    runBtn.disabled = zones.length === 0;
    results.hidden = false;
    drawReport();
    return report;
  }

  readBtn.addEventListener('click', () => void read(text.value));
  zoneSel.addEventListener('change', drawReport);
  presetSel.addEventListener('change', drawReport);
  text.addEventListener('dragover', (ev) => ev.preventDefault());
  text.addEventListener('drop', async (ev) => {
    ev.preventDefault();
    ev.stopPropagation(); // not taken as a trace by the page's drop zone
    const f = ev.dataTransfer?.files[0];
    if (!f) return;
    if (f.size > ZONEINFO_MAX_BYTES) {
      msg.textContent = `${f.name} is ${f.size.toLocaleString('en')} bytes; a zoneinfo is at most ${ZONEINFO_MAX_BYTES.toLocaleString('en')}.`;
      return;
    }
    text.value = await f.text();
    await read(text.value);
  });

  runBtn.addEventListener('click', async () => {
    const z = chosenZone();
    const sizes = z?.presets[presetSel.value];
    if (!z || !sizes) return;
    const n = Number(tasks.value);
    if (!Number.isInteger(n) || n < 1 || n > RUN.maxTasks) {
      msg.textContent = `tasks: a whole number, 1..${RUN.maxTasks}`;
      return;
    }
    msg.textContent = '';
    const label = `${presetSel.value}, page_fault1, ${n} task${n === 1 ? '' : 's'}, sizes of your ${z.zone} zone`;
    status.textContent = `${label}: running on the model machine…`;
    runBtn.disabled = true;
    try {
      const r = await engine.sim({
        workload: 'page_fault1',
        cpus: n,
        pages: RUN.pages,
        iterations: RUN.iterations,
        seed: 1,
        preset: presetSel.value,
        maxEvents: RUN.maxEvents,
        batch: sizes.batch,
        high: sizes.high,
        highMax: sizes.high_max ?? 0,
        histogram: true,
      });
      if (r.status !== 0) throw new Error(r.stderr.trim() || `the core stopped with status ${r.status}`);
      const res = open(r.events, { label, pcp: { high: sizes.high, batch: sizes.batch } });
      if (!res.ok) throw new Error(res.error);
      if (r.histogram) histData.model = { label: `model: ${label}`, hist: r.histogram };
      status.textContent = `${label}: batch ${fmt(sizes.batch)}, high ${fmt(sizes.high)}${sizes.high_max !== undefined ? ` (up to ${fmt(sizes.high_max)})` : ''}; the run is in the player, its refill and drain sizes below.`;
      drawHist();
    } catch (e) {
      msg.textContent = `The run failed: ${e instanceof Error ? e.message : String(e)}`;
      status.textContent = '';
    } finally {
      runBtn.disabled = false;
    }
  });

  traceInput.addEventListener('change', async () => {
    const f = traceInput.files?.[0];
    if (!f) return;
    if (f.size > IMPORT_LIMITS.maxTraceBytes) {
      msg.textContent = `${f.name} is ${f.size.toLocaleString('en')} bytes; the limit is ${IMPORT_LIMITS.maxTraceBytes.toLocaleString('en')}.`;
      return;
    }
    msg.textContent = '';
    status.textContent = `${f.name}: the core is reading the trace…`;
    try {
      const done = await client.importTrace(f, f.name, () => {});
      const h: PcpHistogram | undefined = done.result.histogram;
      if (!h) throw new Error(done.result.error || 'no kmem page events in it');
      histData.trace = { label: `trace: ${f.name}`, hist: h };
      status.textContent = `${f.name}: its refill and drain sizes are drawn over the model's.`;
      results.hidden = false;
      drawHist();
    } catch (e) {
      msg.textContent = `This trace cannot be read: ${e instanceof Error ? e.message : String(e)}`;
      status.textContent = '';
    }
  });

  return { root: sec, results, read };
}
