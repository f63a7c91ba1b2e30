// "A kernel's histogram over the model's": the text of BCC's funclatency or of a bpftrace
// hist() / lhist() map, pasted, chosen or dropped on this box, read by the core's own parser
// (blab_js_histtext() in the engine worker, the C `blab import` runs) and handed to the latency
// view, which draws it over the model's calls its function measures ("rmqueue_bulk" over the
// refills). A text the parser refuses shows its line and reason, and nothing changes; one whose
// function the model has no calls for, or whose unit it does not say, is not drawn, and says why.
import type { ReplayResult } from '../engine/blab-module';
import { HISTTEXT_LIMITS, overlayMatch, ownSeries, parseHistText, pickHistogram, type RealHistogram } from '../log/histtext-json';
import type { LatSeriesId } from '../log/latency-json';
import { el } from '../ui/dom';
import type { Panel } from './panel';

/** What the box hands the page: the histogram to draw and the series it goes over, or none. */
export type ShowOverlay = (o: { label: string; hist: RealHistogram; series: LatSeriesId } | undefined) => void;

export interface LatencyPanelOptions {
  /** the core's parser (the engine worker's histText) */
  parse(text: string): Promise<ReplayResult>;
  show: ShowOverlay;
  /** the element id prefix (two boxes on one page: the compare view's and a test's) */
  id?: string;
}

export function createLatencyPanel(o: LatencyPanelOptions): Panel {
  const id = o.id ?? 'lat-import';
  const input = el('input', { type: 'file', id: `${id}-file`, accept: '.txt,.hist,text/plain' });
  const text = el('textarea', { id: `${id}-text`, rows: 5, spellcheck: 'false', placeholder: '     nsecs               : count     distribution\n      4096 -> 8191       : 2        |*                   |' });
  const draw = el('button', { type: 'button', class: 'small', id: `${id}-draw`, text: 'Draw over the model' });
  const clear = el('button', { type: 'button', class: 'small', id: `${id}-clear`, text: 'Clear', disabled: true });
  const msg = el('p', { class: 'hint', id: `${id}-msg`, role: 'status' });
  const alert = el('p', { class: 'alert', id: `${id}-alert`, role: 'alert' });
  const root = el(
    'section',
    { class: 'lat-import dropzone-box', id, 'aria-labelledby': `${id}-title` },
    el('h3', { id: `${id}-title`, text: 'A kernel’s histogram over the model’s' }),
    el('p', {
      class: 'hint',
      text: 'Paste, choose or drop the text of BCC’s funclatency (nsecs or usecs) or of a bpftrace @x = hist(..) or lhist(..) map: it is drawn over the model’s calls its function measures (rmqueue_bulk over the refills). docs/import.md says how to record one.',
    }),
    el('label', { for: `${id}-text`, text: 'histogram text' }),
    text,
    el('div', { class: 'table-actions' }, draw, el('label', { for: `${id}-file`, class: 'small', text: 'or a file: ' }), input, clear),
    msg,
    alert,
  );

  let busy = false;
  const take = async (body: string, from: string) => {
    if (busy) return;
    alert.textContent = '';
    msg.textContent = '';
    if (!body.trim()) {
      alert.textContent = `${from} is empty: nothing to draw.`;
      return;
    }
    if (body.length > HISTTEXT_LIMITS.maxInputBytes) {
      alert.textContent = `${from} is ${body.length.toLocaleString('en')} characters; the limit is ${HISTTEXT_LIMITS.maxInputBytes.toLocaleString('en')} (docs/limits.md). Nothing was drawn.`;
      return;
    }
    busy = true;
    draw.disabled = true;
    try {
      const r = await o.parse(body);
      // refused whole by the core: its line and reason, and the view keeps what it had
      if (r.status !== 0) {
        alert.textContent = `${from} was not read: ${r.stderr.trim()}. Nothing was drawn.`;
        return;
      }
      const hs = parseHistText(r.stdout);
      const h = pickHistogram(hs);
      const m = overlayMatch(h, ownSeries(h) ?? 'alloc');
      if (!m.ok) {
        alert.textContent = `${from}: ${m.why} Nothing was drawn.`;
        return;
      }
      const unit = h.unit === 'nsecs' ? 'ns' : h.unit === 'usecs' ? 'µs' : 'ms';
      const label = `${h.kind === 'funclatency' ? 'funclatency' : `bpftrace ${h.kind}()`} ${h.name}`;
      o.show({ label, hist: h, series: m.series });
      clear.disabled = false;
      msg.textContent = `${label} (${from}, line ${h.line}): ${h.total.toLocaleString('en')} calls in ${h.buckets.length} buckets of ${unit}${hs.length > 1 ? `; the first of ${hs.length} histograms the model can draw` : ''}, over the model's calls its function measures.`;
    } catch (e) {
      alert.textContent = `${from}: ${e instanceof Error ? e.message : String(e)}. Nothing was drawn.`;
    } finally {
      busy = false;
      draw.disabled = false;
    }
  };
  const takeFile = async (f: File) => {
    if (f.size > HISTTEXT_LIMITS.maxInputBytes) {
      alert.textContent = `${f.name} is ${f.size.toLocaleString('en')} bytes; the limit is ${HISTTEXT_LIMITS.maxInputBytes.toLocaleString('en')}. Nothing was drawn.`;
      return;
    }
    await take(await f.text(), f.name);
  };
  draw.addEventListener('click', () => void take(text.value, 'the pasted text'));
  input.addEventListener('change', () => {
    const f = input.files?.[0];
    if (f) void takeFile(f);
    input.value = '';
  });
  clear.addEventListener('click', () => {
    o.show(undefined);
    clear.disabled = true;
    msg.textContent = 'The kernel’s histogram was taken off.';
  });
  // a file dropped on this box is a histogram for it, not a trace for the page's importer
  root.addEventListener('dragover', (ev) => {
    if (ev.dataTransfer?.types.includes('Files')) ev.preventDefault();
  });
  root.addEventListener('drop', (ev) => {
    const f = ev.dataTransfer?.files[0];
    if (!f) return;
    ev.preventDefault();
    void takeFile(f);
  });
  return { root };
}
