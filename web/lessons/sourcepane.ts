// The source pane: where in the core's C the current record was written (our function, file and
// line, with the lines around it), and the same kernel function on Elixir at the tag the run's
// preset models. The map is scanned from wasm-core/src at build time (source-scan.ts) and loaded
// only on a lesson page, as its own chunk.
import { el } from '../ui/dom';
import type { Player } from '../log/player';
import { eventName, pathWhere } from '../log/events';
import type { Preset } from './lesson';
import { siteOf, type CoreSourceMap, type SourcePlace } from './source-scan';
import { kernelLink } from './kernel-link';

let mapPromise: Promise<CoreSourceMap> | undefined;
const loadMap = () => (mapPromise ??= import('virtual:core-source').then((m) => m.default));

/** "file.c:123" without the repository's folders above wasm-core/src */
const shortFile = (p: SourcePlace) => `${p.file.replace(/^wasm-core\/src\//, '')}:${p.line}`;

export function createSourcePane(preset: Preset | undefined) {
  const root = el('details', { class: 'source-pane', open: true });
  const summary = el('summary', { class: 'source-summary' }, 'Where in the C');
  const head = el('p', { class: 'source-head' });
  const code = el('pre', { class: 'source-code', tabindex: 0, 'aria-label': 'The C lines that wrote this record' });
  const links = el('p', { class: 'source-links' });
  root.append(summary, head, code, links);
  let map: CoreSourceMap | undefined;
  let shown = '';
  let pending: Player | undefined;

  void loadMap().then((m) => {
    map = m;
    if (pending) update(pending);
  });

  function update(p: Player) {
    pending = p;
    if (!map) return;
    const i = p.currentIndex();
    const key = i === undefined ? '-' : `${p.log.type[i]}:${p.log.path[i]}`;
    if (key === shown) return;
    shown = key;
    if (i === undefined) {
      root.dataset['fn'] = '';
      head.textContent = 'Before the first record: nothing has run yet.';
      code.replaceChildren();
      links.replaceChildren();
      return;
    }
    const type = p.log.type[i]!;
    const path = p.log.path[i]!;
    const site = siteOf(map, type, path);
    const info = map.paths.find((x) => x.id === path);
    if (!site) {
      root.dataset['fn'] = '';
      head.textContent = `${eventName(type)}: no code of the core writes this record (it comes from an imported trace).`;
      code.replaceChildren();
      links.replaceChildren();
      return;
    }
    root.dataset['fn'] = site.at.fn;
    const where = pathWhere(path);
    head.replaceChildren(
      el('code', { text: `${site.at.fn}()` }),
      ` ${shortFile(site.at)}`,
      site.emit.fn !== site.at.fn ? ` → ${site.chain.slice(1).map((f) => `${f}()`).join(' → ')} writes ${eventName(type)} at ${shortFile(site.emit)}` : ` writes ${eventName(type)}`,
      where ? ` (path: ${where})` : '',
      site.others ? `; ${site.others} other ${site.others === 1 ? 'call' : 'calls'} on this path can write it too` : '',
    );
    const snip = map.snippets[`${site.at.file}:${site.at.line}`];
    code.replaceChildren();
    if (snip) {
      const [first, ...lines] = snip;
      lines.forEach((text, k) => {
        const n = first + k;
        const now = n >= site.at.line && n <= (site.at.to ?? site.at.line);
        code.append(el('span', { class: now ? 'src-line src-now' : 'src-line' }, el('span', { class: 'src-no', 'aria-hidden': 'true', text: String(n).padStart(4) }), ` ${text}\n`));
      });
    }
    // the kernel functions this record's path and writer are named after
    const names = [...new Set([info?.kernel, site.emit.fn].filter((n): n is string => !!n && map!.kernelNames.includes(n)))];
    links.replaceChildren(...names.flatMap((n, k) => {
      const l = kernelLink(n, preset);
      const a = el('a', { href: l.url, target: '_blank', rel: 'noopener', class: 'kernel-link', text: `${l.name}() in Linux ${l.tag}` });
      return [k ? ' · ' : 'In the kernel: ', a, l.note ? ` (${l.note})` : ''];
    }));
  }

  return { root, update };
}
