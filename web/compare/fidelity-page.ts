// "How close is the model?" (?fidelity): every claim of the seeds that docs/fidelity.md holds
// the model to, from the same run of `make fidelity` (virtual:fidelity, checked against the
// report at build time): where the number is from, the band and its rule, the model's figure
// over the seeds, the verdict and, for a claim outside its band, why; each row links to the
// lesson step or the compare view that runs it again in this browser.
import fidelity from 'virtual:fidelity';
import { el } from '../ui/dom';
import { createPresenter } from '../ui/presenter';
import { fidelityRows, type FidelityRow } from './fidelity-rows';
import '../lessons/lessons.css';
import './fidelity.css';

/** lecture: a claim's reason folds (the row a lecturer steps to opens it), so a slide shows
 * several rows at once instead of one paragraph */
function row(r: FidelityRow, lecture: boolean): HTMLTableRowElement {
  const verdict = el('td', { class: `fid-verdict is-${r.verdict === 'outside' ? 'outside' : 'inside'}` }, el('strong', { text: r.verdictText }));
  if (r.why) {
    const why = el('details', { class: 'fid-why' }, el('summary', { text: 'Why' }), el('p', { text: `${r.why}.` }));
    why.open = !lecture;
    verdict.append(why);
  }
  const links = el('td', { class: 'fid-links' });
  for (const l of r.links) links.append(el('a', { href: l.href, text: l.text }), ' ');
  links.append(el('details', {}, el('summary', { text: 'blab command' }), el('code', { text: r.command })));
  return el(
    'tr',
    { id: `claim-${r.id}`, 'data-claim': r.id },
    el('th', { scope: 'row' }, el('span', { class: 'fid-id', text: r.id }), el('span', { class: 'fid-what', text: r.what })),
    el('td', {}, r.says, el('span', { class: 'fid-source', text: r.source })),
    el('td', { text: r.band }),
    el('td', {}, el('span', { class: 'fid-model', text: r.model }), el('span', { class: 'fid-spread', text: r.spread })),
    verdict,
    links,
  );
}

export function mountFidelity(root: HTMLElement, search = ''): void {
  const { doc, lessons } = fidelity;
  const { rows, inside } = fidelityRows(doc, lessons);
  const table = el('table', { class: 'data fid-table', id: 'fidelity-table' });
  const lecture = new URLSearchParams(search).get('lecture') === '1';
  const body = el('tbody', {}, ...rows.map((r) => row(r, lecture)));
  table.append(
    el('caption', { text: `${inside} of ${rows.length} claims inside their bands (the native model, core ${doc.core})` }),
    el('thead', {}, el('tr', {}, ...['claim', 'the seed says', 'band', 'the model', 'verdict', 'run it again'].map((h) => el('th', { scope: 'col', text: h })))),
    body,
  );
  const page = el(
    'div',
    { class: 'fidelity-page', id: 'fidelity' },
    el('h2', { class: 'page-title', text: 'How close is the model?' }),
    el('p', {}, el('a', { href: './', text: '← the course' }), ' · ', el('a', { href: '?compare', text: 'compare' }), ' · ', el('a', { href: '?timemachine', text: 'time machine' })),
    el('p', {
      text:
        'Every number the lessons set beside the model comes from a kernel mail, quoted in the lesson. Each row is one of those numbers, ' +
        'the band the model’s figure must fall in (one rule for each kind of claim), and the model’s figure: the mean over the seeds (each seed draws the tasks’ start offsets) with the lowest and highest. ' +
        'Where the model is outside its band the row says why, and so does the lesson that teaches it: a model that is wrong in a way we know is one a student can still learn from, once told.',
    }),
    el('p', {
      text:
        'This table is the fidelity report’s own: the native model writes the report and this page from the same runs, and the build refuses the two when they differ. ' +
        'The links run the same configurations again in this browser: in a lesson’s table (Run live), which runs the seed’s topology where its claim needs it (a zone per node, the tasks out of step), ' +
        'or in the compare view, which runs one zone for all CPUs with the tasks in step. Every row gives its native command too.',
    }),
  );
  const ctl = new AbortController();
  let at = -1;
  const go = (k: number) => {
    const trs = [...body.rows];
    if (!trs.length) return;
    at = Math.max(0, Math.min(trs.length - 1, k));
    trs.forEach((tr, i) => {
      tr.classList.toggle('current', i === at);
      // the row stepped to shows its reason; the others fold theirs again (lecture mode)
      const why = tr.querySelector('details.fid-why') as HTMLDetailsElement | null;
      if (why && document.documentElement.classList.contains('lecture')) why.open = i === at;
    });
    trs[at]!.scrollIntoView({ block: 'center' });
  };
  const presenter = createPresenter({ root: page, next: () => go(at + 1), prev: () => go(at - 1), signal: ctl.signal, lecture });
  page.insertBefore(presenter.controls, page.children[2]!);
  page.append(el('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'the claims' }, table));
  root.replaceChildren(page);
}
