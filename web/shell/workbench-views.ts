// Where the workbench's views stand: from the registry, by id, in rows and columns (the free
// areas and the legend across the top, mem_map beside the pcp lists, the locks side by side,
// the latency histograms under them, the /proc text at the foot), each with its export buttons; and the figures lecture mode
// offers, the free areas and the pcp lists first (a slide shows the first two).
import { addViewExportButtons } from '../ui/export-buttons';
import type { PresenterFigure } from '../ui/presenter';
import { mountView, viewTitle, type MountedView, type ViewId } from '../views/registry';
import { el } from '../ui/dom';

/** Mounts every view into `views` and returns them in page order. */
export function mountWorkbenchViews(views: HTMLElement): MountedView[] {
  const mounted: MountedView[] = [];
  const view = (parent: HTMLElement, id: ViewId) => {
    const v = mountView(parent, id);
    mounted.push(v);
    if (id !== 'legend') addViewExportButtons(v.section, { title: viewTitle(id), what: viewTitle(id), file: `buddylab-${id}` });
  };
  const wide = el('div', { class: 'views-wide' });
  const grid = el('div', { class: 'views-grid' });
  views.append(wide);
  view(wide, 'free-areas');
  view(wide, 'legend');
  view(views, 'buddyinfo');
  views.append(grid);
  view(grid, 'mem-map');
  const right = el('div', { class: 'views-col' });
  grid.append(right);
  view(right, 'pcp');
  view(right, 'pagetypeinfo');
  view(views, 'buddy-tree');
  const locks = el('div', { class: 'views-locks' });
  views.append(locks);
  view(locks, 'lock-timeline');
  view(locks, 'lock-hist');
  view(views, 'latency');
  view(views, 'cache');
  view(views, 'slab');
  const lower = el('div', { class: 'views-wide views-text' });
  views.append(lower);
  view(lower, 'zoneinfo');
  view(lower, 'cpustats');
  view(lower, 'prefetches');
  return mounted;
}

/** The views lecture mode can show, the free areas and the pcp lists first; the legend stays
 * on every slide (it names the colours of them all), so it is none of them. */
export function workbenchFigures(mounted: readonly MountedView[]): (PresenterFigure & { el: HTMLElement })[] {
  const onSlide: ViewId[] = ['free-areas', 'pcp'];
  const ids = [...onSlide, ...mounted.map((v) => v.id).filter((id) => id !== 'legend' && !onSlide.includes(id))];
  return ids.map((id) => ({ id: id as string, title: viewTitle(id), el: mounted.find((v) => v.id === id)!.section }));
}
