// A chosen subset of the app's views, drawing one Player: what a lesson step, a lecture slide
// or one column of the compare view shows. The views themselves are the app's (web/views/);
// this only decides which ones and where.
import type { Player } from '../log/player';
import { el, panel } from '../ui/dom';
import { createFreeAreasView } from './freeareas';
import { createBuddyTreeView } from './buddytree';
import { createMemMapView } from './memmap';
import { createPcpView, type PcpParams } from './pcp';
import { createLockTimelineView } from './locktimeline';
import { buddyinfoText, cpuStatsText, createTextView } from './procfs';
import type { ViewId } from '../lessons/lesson';

export const VIEW_TITLES: Record<ViewId, string> = {
  'free-areas': 'Free areas: free_area[order]',
  'buddy-tree': 'Buddy tree: buddy pfn = pfn ^ (1 << order)',
  'mem-map': 'mem_map: every pfn',
  pcp: 'pcp lists: per_cpu_pages {count, high, batch}',
  'lock-timeline': 'Lock timeline: zone->lock, lru_lock',
  buddyinfo: '/proc/buddyinfo',
  cpustats: 'zone->lock and cache, per CPU',
};

export interface ViewSet {
  root: HTMLElement;
  update(p: Player): void;
  highlight(id: ViewId | undefined): void;
  /** the panel element of a view, for export */
  panelOf(id: ViewId): HTMLElement | undefined;
}

/** prefix keeps panel ids unique when several view sets share a page (compare columns) */
export function createViewSet(parent: HTMLElement, ids: readonly ViewId[], pcp: PcpParams, prefix = 'lv'): ViewSet {
  const root = el('div', { class: `viewset viewset-${ids.length}` });
  parent.append(root);
  const updaters: ((p: Player) => void)[] = [];
  const panels = new Map<ViewId, HTMLElement>();
  for (const id of ids) {
    const body = panel(root, `${prefix}-${id}`, VIEW_TITLES[id]);
    panels.set(id, body.parentElement!);
    switch (id) {
      case 'free-areas': {
        const v = createFreeAreasView(body);
        updaters.push((p) => v.update(p));
        break;
      }
      case 'buddy-tree': {
        const v = createBuddyTreeView(body);
        updaters.push((p) => v.update(p));
        break;
      }
      case 'mem-map': {
        const v = createMemMapView(body);
        updaters.push((p) => v.update(p));
        break;
      }
      case 'pcp': {
        const v = createPcpView(body);
        updaters.push((p) => v.update(p, pcp));
        break;
      }
      case 'lock-timeline': {
        const v = createLockTimelineView(body);
        updaters.push((p) => v.update(p));
        break;
      }
      case 'buddyinfo': {
        const v = createTextView(body, '/proc/buddyinfo');
        updaters.push((p) => v.set(buddyinfoText(p)));
        break;
      }
      case 'cpustats': {
        const v = createTextView(body, 'zone->lock and cache counters per CPU');
        updaters.push((p) => v.set(cpuStatsText(p)));
        break;
      }
    }
  }
  return {
    root,
    update(p) {
      for (const u of updaters) u(p);
    },
    highlight(id) {
      for (const [k, e] of panels) e.classList.toggle('highlighted', k === id);
    },
    panelOf(id) {
      return panels.get(id);
    },
  };
}
