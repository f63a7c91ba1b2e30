// Kernel terms in a step's prose that name a part of a figure on the page (`zone->lock`,
// `pcp->high`, `free_area[3]`, "pfn 2") become pointers: hovering or focusing one outlines that
// part (views/terms.ts, each view's `mark`), so a reader sees what the sentence is about.
import type { MountedView } from '../views/registry';
import { parseTerm, termKey, type FigureTerm } from '../views/terms';
import { viewTitle } from '../views/registry';

/** "pfn 2", "pfn 0x8" in running text (the prose's own words, not code spans) */
const PFN_TEXT = /\bpfn (0x[0-9a-f]+|\d+)\b/gi;

/** Wraps every "pfn N" of the text nodes under root in a span, so it can point like a code term. */
function wrapPfns(root: HTMLElement): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (!(n.parentElement?.closest('code, pre, a'))) nodes.push(n as Text);
  for (const t of nodes) {
    const s = t.data;
    PFN_TEXT.lastIndex = 0;
    if (!PFN_TEXT.test(s)) continue;
    PFN_TEXT.lastIndex = 0;
    const frag = document.createDocumentFragment();
    let at = 0;
    for (const m of s.matchAll(PFN_TEXT)) {
      frag.append(s.slice(at, m.index));
      const span = document.createElement('span');
      span.className = 'pfn-term';
      span.textContent = m[0];
      frag.append(span);
      at = m.index + m[0].length;
    }
    frag.append(s.slice(at));
    t.replaceWith(frag);
  }
}

/**
 * Makes the terms under root that a mounted view can point at focusable pointers. Returns how
 * many it wired (the others stay plain text).
 */
export function wireTerms(root: HTMLElement, views: readonly MountedView[], signal: AbortSignal): number {
  wrapPfns(root);
  let n = 0;
  for (const e of root.querySelectorAll<HTMLElement>('code, .pfn-term')) {
    const term = parseTerm(e.textContent ?? '');
    if (!term) continue;
    const targets = views.filter((v) => v.names(term));
    if (!targets.length) continue;
    n++;
    e.classList.add('term');
    e.tabIndex = 0;
    e.dataset['term'] = termKey(term);
    e.title = `points at it in: ${targets.map((v) => viewTitle(v.id)).join(', ')}`;
    const on = () => point(targets, term);
    const off = () => point(targets, undefined);
    e.addEventListener('pointerenter', on, { signal });
    e.addEventListener('focus', on, { signal });
    e.addEventListener('pointerleave', off, { signal });
    e.addEventListener('blur', off, { signal });
  }
  return n;
}

function point(views: readonly MountedView[], t: FigureTerm | undefined) {
  for (const v of views) v.mark(t);
}
