// The import summary panel: what the C importer counted in a kernel trace (docs/import.md),
// as tables with bars. Text only, through textContent: nothing from the file becomes markup.
import type { Batches, TraceSummary } from '../import/summary';
import { el } from '../ui/dom';

const fmt = (n: number) => n.toLocaleString('en');

function table(caption: string, head: string[], rows: (string | number)[][], bar?: { col: number; max: number }): HTMLTableElement {
  const t = el('table', { class: 'isum-table' }, el('caption', { text: caption }));
  const tr = el('tr');
  for (const h of head) tr.append(el('th', { scope: 'col', text: h }));
  t.append(el('thead', {}, tr));
  const body = el('tbody');
  for (const r of rows) {
    const row = el('tr');
    r.forEach((c, k) => {
      const td = el('td', { text: typeof c === 'number' ? fmt(c) : c });
      if (bar && k === bar.col && typeof c === 'number' && bar.max > 0) {
        const b = el('span', { class: 'isum-bar', 'aria-hidden': 'true' });
        b.style.width = `${Math.max(0.1, (c / bar.max) * 8).toFixed(2)}rem`;
        td.append(b);
      }
      row.append(td);
    });
    body.append(row);
  }
  t.append(body);
  return t;
}

function batches(name: string, what: string, b: Batches): HTMLElement {
  const box = el('div', { class: 'isum-block' });
  box.append(
    el('h3', { text: `${name}: ${fmt(b.count)} batch${b.count === 1 ? '' : 'es'}` }),
    el('p', {
      class: 'hint',
      text: b.count
        ? `${fmt(b.events)} events; run length min ${fmt(b.min)}, max ${fmt(b.max)}, mean ${b.mean}. ${what}`
        : `none in this trace. ${what}`,
    }),
  );
  if (b.sizes.length) {
    const max = Math.max(...b.sizes.map(([, n]) => n));
    box.append(table(`${name} sizes (pages per run)`, ['run length', 'runs'], b.sizes.map(([r, n]) => [r, n]), { col: 1, max }));
  }
  return box;
}

/** Draws a summary into body (replacing what was there). */
export function renderImportSummary(body: HTMLElement, name: string, s: TraceSummary): void {
  const parts: HTMLElement[] = [];
  const span = s.time ? `${s.time.span.toFixed(6)} s from t = ${s.time.first.toFixed(6)}` : 'no timestamps';
  parts.push(
    el('p', {
      class: 'isum-head',
      text:
        `${name}: ${fmt(s.lines)} lines (${fmt(s.bytes)} bytes), ${fmt(s.events)} kmem page events on ${fmt(s.cpus)} CPU${s.cpus === 1 ? '' : 's'}, ${span}. ` +
        `Skipped ${fmt(s.skipped)} lines that are no kmem page event, ${fmt(s.comment)} # lines, ${fmt(s.malformed)} malformed.`,
    }),
  );
  if (s.stopped) parts.push(el('p', { class: 'isum-warn', role: 'alert', text: `The parse stopped early: ${s.stopped}. Everything up to there is shown.` }));
  if (s.malformedLines.length) {
    parts.push(table(`First malformed lines (of ${fmt(s.malformed)})`, ['line', 'why'], s.malformedLines.map(([l, why]) => [l, why])));
  }
  const kmax = Math.max(0, ...s.kinds.map(([, n]) => n));
  parts.push(table('Events per tracepoint', ['tracepoint', 'events'], s.kinds.map(([k, n]) => [k, n]), { col: 1, max: kmax }));
  parts.push(
    table(
      'Events per CPU',
      ['cpu', 'all', ...s.cpuColumns.map((c) => c.replace(/^mm_page_/, ''))],
      s.perCpu.map((c) => [c.cpu, c.events, ...c.kinds]),
    ),
  );
  parts.push(
    el(
      'div',
      { class: 'isum-row' },
      batches('pcp refill (rmqueue_bulk)', 'Runs of mm_page_alloc_zone_locked with percpu_refill=1 on one CPU: blocks moved from the buddy lists to a per-cpu list under one zone->lock hold.', s.refill),
      batches('pcp drain (free_pcppages_bulk)', 'Runs of mm_page_pcpu_drain on one CPU: blocks given back from a per-cpu list to the buddy lists.', s.drain),
    ),
  );
  parts.push(
    el(
      'div',
      { class: 'isum-row' },
      table('Orders (mm_page_alloc / mm_page_free)', ['order', 'allocs', 'frees'], s.orders.map((o) => [o.order, o.allocs, o.frees])),
      table('Migratetypes of mm_page_alloc', ['migratetype', 'allocs'], s.migratetypes.map((m) => [`${m.mt} ${m.name}`, m.allocs])),
    ),
  );
  const rmax = Math.max(0, ...s.rate.map((r) => Math.max(r.allocs, r.frees)));
  parts.push(
    table(
      `Alloc / free rate over time (buckets of ${fmt(s.rateBucketUs)} µs; empty buckets left out)`,
      ['t (µs)', 'allocs', 'frees'],
      s.rate.map((r) => [`+${fmt(r.atUs)}`, r.allocs, r.frees]),
      { col: 1, max: rmax },
    ),
  );
  parts.push(
    el('p', {
      class: 'hint',
      text:
        `${fmt(s.unknownPages)} unknown pages: freed but never seen allocated, so allocated before the recording began (not an error). ` +
        (s.pfnRange ? `pfns 0x${s.pfnRange.lo.toString(16)}..0x${s.pfnRange.hi.toString(16)} (a span of ${fmt(s.pfnRange.pages)} pfns). ` : '') +
        `${fmt(s.allocFailed)} failed allocations. Parser bounds: ${s.limits}.`,
    }),
  );
  body.replaceChildren(...parts);
}
