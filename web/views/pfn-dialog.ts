// A page's provenance: a dialog listing every record a pfn took part in (alloc, free, split,
// merge, pcp refill and drain, onto and off the free lists), each with the step to jump to; and
// a CPU's pcp list as pfns to pick from. Views ask for it with a bubbling DOM event
// (`pfn-select` {pfn}, `pcp-select` {cpu}), so they stay drawings; the page that owns the
// player opens the dialog and says how a step is jumped to.
import { describeEvent, hexPfn } from '../log/describe';
import { PAGE } from '../log/state';
import type { Player } from '../log/player';
import { pfnHistory, type PfnEventKind } from '../log/pfnhistory';
import { el } from '../ui/dom';

/** The events views send: pfn-select when a page is clicked, pcp-select for a CPU's list. */
export const PFN_SELECT = 'pfn-select';
export const PCP_SELECT = 'pcp-select';

export function selectPfn(from: Element, pfn: number): void {
  from.dispatchEvent(new CustomEvent(PFN_SELECT, { bubbles: true, detail: { pfn } }));
}
export function selectPcp(from: Element, cpu: number): void {
  from.dispatchEvent(new CustomEvent(PCP_SELECT, { bubbles: true, detail: { cpu } }));
}

/** rows shown at most; the rest are counted (a page in a busy zone takes part in thousands) */
const MAX_ROWS = 2000;

const KIND_WORDS: Record<PfnEventKind, string> = {
  alloc: 'allocated',
  free: 'freed',
  split: 'split (expand)',
  merge: 'merged (__free_one_page)',
  refill: 'pcp refill (rmqueue_bulk)',
  drain: 'pcp drain (free_pcppages_bulk)',
  'pcp add': 'onto a pcp list',
  'pcp del': 'off a pcp list',
  'buddy add': 'onto free_area',
  'buddy del': 'off free_area',
  'unknown before the trace': 'allocated before the trace began',
};

export interface PfnDialog {
  openPfn(p: Player, pfn: number): void;
  openPcp(p: Player, cpu: number): void;
  /** Listens on `root` for the views' pfn-select and pcp-select events; `player()` is the log shown. */
  listen(root: HTMLElement, player: () => Player | undefined): void;
}

/** `jump(step)` moves the page's player to a step (the dialog closes first). */
export function createPfnDialog(jump: (step: number, p: Player) => void): PfnDialog {
  const dialog = el('dialog', { class: 'pfn-dialog', 'aria-labelledby': 'pfn-dialog-title' });
  const title = el('h2', { id: 'pfn-dialog-title' });
  const close = el('button', { type: 'button', class: 'small pfn-close', text: 'Close', 'aria-label': 'Close the page history' });
  const content = el('div', { class: 'pfn-dialog-body' });
  dialog.append(el('div', { class: 'pfn-dialog-head' }, title, close), content);
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('click', (ev) => {
    if (ev.target === dialog) dialog.close(); // a click on the backdrop
  });
  let attached = false;
  const show = () => {
    if (!attached) {
      document.body.append(dialog);
      attached = true;
    }
    if (!dialog.open) dialog.showModal();
    close.focus();
  };

  function openPfn(p: Player, pfn: number): void {
    const events = pfnHistory(p.log).of(pfn);
    title.textContent = `pfn ${hexPfn(pfn)}: its history`;
    const counts = new Map<PfnEventKind, number>();
    for (const e of events) counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
    const summary =
      events.length === 0
        ? `No record of this log moves pfn ${hexPfn(pfn)}.`
        : `${events.length.toLocaleString('en')} records: ` + [...counts].map(([k, n]) => `${n.toLocaleString('en')} ${KIND_WORDS[k]}`).join(', ') + '.';
    const table = el('table', { class: 'data pfn-history' });
    table.append(
      el('caption', { class: 'sr-only', text: `Every record pfn ${hexPfn(pfn)} took part in, in order` }),
      el('thead', {}, el('tr', {}, ...['step', 'what', 'block', 'record', ''].map((h) => el('th', { scope: 'col', text: h })))),
    );
    const tb = el('tbody');
    for (const e of events.slice(0, MAX_ROWS)) {
      const step = e.index + 1;
      const go = el('button', { type: 'button', class: 'small', text: 'go', 'aria-label': `Go to step ${step}` });
      go.addEventListener('click', () => {
        dialog.close();
        jump(step, p);
      });
      const here = p.step === step;
      tb.append(
        el(
          'tr',
          here ? { class: 'pfn-here' } : {},
          el('th', { scope: 'row', text: step.toLocaleString('en') }),
          el('td', { text: KIND_WORDS[e.kind] }),
          el('td', { text: `${hexPfn(e.head)} order ${e.order}` }),
          el('td', { class: 'pfn-desc', text: describeEvent(p.log, e.index) }),
          el('td', {}, go),
        ),
      );
    }
    table.append(tb);
    const more = events.length > MAX_ROWS ? [el('p', { class: 'hint', text: `The first ${MAX_ROWS.toLocaleString('en')} of ${events.length.toLocaleString('en')} records.` })] : [];
    content.replaceChildren(el('p', { class: 'pfn-summary', text: summary }), ...(events.length ? [el('div', { class: 'table-scroll' }, table)] : []), ...more);
    show();
  }

  function openPcp(p: Player, cpu: number): void {
    const s = p.state;
    const pfns: number[] = [];
    for (let i = 0; i < s.geo.pages; i++) if (s.pageState[i] === PAGE.PCP && s.pageCpu[i] === cpu) pfns.push(s.geo.startPfn + i);
    title.textContent = `cpu ${cpu}'s pcp list at step ${p.step.toLocaleString('en')}`;
    const list = el('ul', { class: 'pfn-list' });
    for (const pfn of pfns.slice(0, MAX_ROWS)) {
      const b = el('button', { type: 'button', class: 'small', text: hexPfn(pfn), 'aria-label': `History of pfn ${hexPfn(pfn)}` });
      b.addEventListener('click', () => openPfn(p, pfn));
      list.append(el('li', {}, b));
    }
    content.replaceChildren(
      el('p', { class: 'pfn-summary', text: pfns.length ? `${pfns.length.toLocaleString('en')} pages on the list; pick one for its history.` : 'The list is empty at this step.' }),
      list,
    );
    show();
  }

  return {
    openPfn,
    openPcp,
    listen(root, player) {
      root.addEventListener(PFN_SELECT, (ev) => {
        const p = player();
        const pfn = (ev as CustomEvent<{ pfn: number }>).detail.pfn;
        if (p && Number.isInteger(pfn)) openPfn(p, pfn);
      });
      root.addEventListener(PCP_SELECT, (ev) => {
        const p = player();
        const cpu = (ev as CustomEvent<{ cpu: number }>).detail.cpu;
        if (p && Number.isInteger(cpu)) openPcp(p, cpu);
      });
    },
  };
}
