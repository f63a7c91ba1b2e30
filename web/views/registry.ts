// The view registry: every view the pages can show, in one list (id, title, what data it draws,
// how to build it). The workbench, a lesson step, a compare column and the trace import all
// mount views from here by id, so a new view is one entry, and its heading, panel id and
// redraw pace are the same on every page.
import type { TraceSummary } from '../import/summary';
import type { SimStats } from '../engine/simstats';
import type { Player } from '../log/player';
import { createFigureLegend, createLegend, type LegendItem } from '../ui/legend';
import { el, panel, recordCanvases } from '../ui/dom';
import { panelToSvg, setPanelExporter } from '../ui/image';
import { createBuddyTreeView } from './buddytree';
import { createCacheView } from './cache';
import { createFreeAreasView } from './freeareas';
import { renderImportSummary } from './importsummary';
import { createLockHistView } from './lockhist';
import { createLockTimelineView } from './locktimeline';
import { createMemMapView } from './memmap';
import { createPcpView, type PcpParams } from './pcp';
import { createPcpHistView, type PcpHistData } from './pcphist';
import { createLatencyView } from './latency';
import type { LatencyData } from './latency-data';
import { buddyinfoText, cpuStatsText, prefetchFatesText, createTextView, pagetypeText, zoneinfoText } from './procfs';
import { SLAB_LEGEND, createSlabView } from './slab';
import { createEventView, eventLegend } from './eventanim';
import { buddyTreeLegend, freeAreasLegend, lockTimelineLegend, memMapLegend, pcpLegend } from './legends';
import type { FigureTerm } from './terms';
import './views.css';

/** Everything a view may draw from; each view names the parts it needs. */
interface AllViewData {
  /** the replay: every view of a run draws only from its Player */
  player: Player;
  /** pcp high and batch as the run configured them, or as observed in the log */
  pcp: PcpParams;
  /** an imported trace's summary, as the C importer counted it, and the file's name */
  summary: { name: string; summary: TraceSummary };
  /** pcp refill and drain sizes of a model run and / or a trace, as the core counted them */
  histograms: PcpHistData;
  /** each configuration's allocation and free latencies (and an imported kernel histogram) */
  latency: LatencyData;
}
type Need = keyof AllViewData;

/** What a page hands its views: any parts; a view whose needs are missing is left as it is. */
export interface ViewData extends Partial<AllViewData> {
  /** false while the workbench plays fast between text refreshes: per-frame text may wait */
  textDue?: boolean;
  /** the whole run's counters, when the page has the run the log came from (a view that can
   * show a run's figures, the cache view's memory gauge, shows them; no view needs them) */
  stats?: SimStats;
}

/**
 * When the workbench redraws a view while it plays: every frame (`always`, cheap ones), only
 * when on screen (`visible`), or on screen and at most four times a second (`text`: long text
 * costs more layout than all the canvases together). Paused or seeking, every view redraws.
 */
type Pace = 'always' | 'visible' | 'text';

/** A view's redraw, and optionally how it points at a part of itself that prose names. */
type Draw = ((d: ViewData & AllViewData) => void) & { mark?: (t: FigureTerm | undefined) => void };

interface ViewDef {
  /** the panel's id on the workbench; other pages prefix it (`lv-pcp`, `cmp0-pcp`) */
  readonly id: string;
  /** the heading on the workbench */
  readonly title: string;
  /** the line under the workbench's heading */
  readonly hint?: string;
  /** the heading where a view stands without its hint (a lesson step, a compare column) */
  readonly short?: string;
  readonly needs: readonly Need[];
  readonly pace: Pace;
  /** builds the view into a panel body; returns its redraw */
  create(body: HTMLElement): Draw;
  /** the colours this view draws for a run, named (a legend under the figure) */
  legend?(d: ViewData & AllViewData): LegendItem[];
  /** the prose terms this view can point at (its `mark` outlines the part; else the whole panel) */
  names?(t: FigureTerm): boolean;
}

/** Whether views are drawn on a lesson's lecture slide (lecture mode, a lesson page). */
const onSlide = () => document.documentElement.classList.contains('lecture') && document.querySelector('.lesson-stage') !== null;

/** A text view; `text` is told how many characters fit across it (a slide or a phone: fewer). */
const textView = (label: string, text: (d: AllViewData, cols: number) => string) => (body: HTMLElement): Draw => {
  const v = createTextView(body, label);
  return (d: AllViewData) => v.set(text(d, v.cols()));
};
const playerView =
  (create: (body: HTMLElement) => { update(p: Player): void; mark?(t: FigureTerm | undefined): void }) =>
  (body: HTMLElement): Draw => {
    const v = create(body);
    return Object.assign((d: AllViewData) => v.update(d.player), v.mark ? { mark: (t: FigureTerm | undefined) => v.mark!(t) } : {});
  };
/** names a view is about as a whole (the panel is outlined when prose names one) */
const about = (...names: string[]) => (t: FigureTerm) => t.kind === 'name' && names.includes(t.name);

const DEFS = [
  {
    id: 'free-areas',
    title: 'Free areas: free_area[order]',
    hint: 'Each row one order; each mark a free block at its pfn; nr_free at the right.',
    needs: ['player'],
    pace: 'visible',
    create: playerView(createFreeAreasView),
    legend: (d) => freeAreasLegend(d.player),
    names: (t) => t.kind === 'pfn' || t.kind === 'order' || about('free_area', 'nr_free', '__free_one_page', 'expand', '__rmqueue_smallest')(t),
  },
  {
    id: 'legend',
    title: 'Legend',
    needs: ['player'],
    pace: 'always',
    create(body) {
      const v = createLegend(body);
      return (d) => v.update(d.player.state.geo.maxOrder);
    },
  },
  {
    id: 'buddyinfo',
    title: '/proc/buddyinfo',
    hint: 'nr_free per order, 0 to MAX_PAGE_ORDER: the rows above, as the kernel prints them',
    needs: ['player'],
    pace: 'always',
    create: textView('/proc/buddyinfo', (d, cols) => buddyinfoText(d.player, cols)),
    names: about('/proc/buddyinfo', 'buddyinfo', 'nr_free'),
  },
  {
    id: 'mem-map',
    title: 'mem_map',
    hint: 'Every pfn one cell; white lines are pageblock borders.',
    short: 'mem_map: every pfn',
    needs: ['player'],
    pace: 'visible',
    create: playerView(createMemMapView),
    legend: (d) => memMapLegend(d.player),
    names: (t) => t.kind === 'pfn' || about('mem_map', 'struct page')(t),
  },
  {
    id: 'pcp',
    title: 'pcp lists: per_cpu_pages {count, high, batch}',
    needs: ['player', 'pcp'],
    pace: 'visible',
    create(body) {
      const v = createPcpView(body);
      return Object.assign((d: AllViewData) => v.update(d.player, d.pcp), { mark: v.mark });
    },
    legend: (d) => pcpLegend(d.player),
    names: (t) => t.kind === 'pcp' || (t.kind === 'lock' && t.lock === 'zone->lock') || about('rmqueue_bulk', 'free_pcppages_bulk', 'per_cpu_pages')(t),
  },
  {
    id: 'pagetypeinfo',
    title: 'Free pages per migratetype and order',
    needs: ['player'],
    pace: 'text',
    create: textView('free pages per migratetype', (d) => pagetypeText(d.player)),
  },
  {
    id: 'buddy-tree',
    title: 'Buddy tree',
    hint: 'buddy pfn = pfn ^ (1 << order): siblings in this tree',
    short: 'Buddy tree: buddy pfn = pfn ^ (1 << order)',
    needs: ['player'],
    pace: 'visible',
    create: playerView(createBuddyTreeView),
    legend: (d) => buddyTreeLegend(d.player),
    names: (t) => t.kind === 'pfn' || t.kind === 'order' || about('expand', '__free_one_page', 'buddy')(t),
  },
  {
    id: 'lock-timeline',
    title: 'Lock timeline: zone->lock, lru_lock',
    hint: 'one lane per CPU and lock: zone->lock spinning (vermillion), holding (blue); lru_lock spinning (yellow), holding (green); white line = now',
    needs: ['player'],
    pace: 'visible',
    create: playerView(createLockTimelineView),
    legend: (d) => lockTimelineLegend(d.player),
    names: (t) => t.kind === 'lock',
  },
  {
    id: 'lock-hist',
    title: 'Lock hold and wait times',
    needs: ['player'],
    pace: 'visible',
    create: playerView(createLockHistView),
  },
  {
    id: 'cache',
    title: 'Cache and prefetch',
    hint: 'struct page accesses by outcome, per CPU, and the current CPU’s latest ones; the memory controllers’ gauge for the whole run',
    needs: ['player'],
    pace: 'visible',
    create(body) {
      const v = createCacheView(body);
      return (d) => v.update(d.player, d.textDue ?? true, d.stats);
    },
  },
  {
    id: 'slab',
    title: 'Slab: kmem_cache_cpu freelists',
    hint: 'one row per CPU: its cpu slab, freelist order, remote frees, freelist prefetch',
    needs: ['player'],
    pace: 'visible',
    create: playerView(createSlabView),
    legend: () => [...SLAB_LEGEND],
    names: (t) => about('freelist', 'kmem_cache_cpu', 'get_freepointer', 'prefetch_freepointer')(t),
  },
  {
    id: 'zoneinfo',
    title: '/proc/zoneinfo (excerpt)',
    needs: ['player', 'pcp'],
    pace: 'text',
    create: textView('/proc/zoneinfo excerpt', (d) => zoneinfoText(d.player, d.pcp)),
  },
  {
    id: 'cpustats',
    title: 'zone->lock, per CPU',
    needs: ['player'],
    pace: 'text',
    create: textView('zone->lock counters per CPU', (d) => cpuStatsText(d.player)),
    names: (t) => about('zone->lock counters')(t),
  },
  {
    id: 'prefetches',
    title: 'Prefetches by fate, and accesses, per CPU',
    needs: ['player'],
    pace: 'text',
    // a lesson's slide shows the fates alone (its one table fits; the page shows both)
    create: textView('prefetches by fate and accesses by where they were served, per CPU', (d) => prefetchFatesText(d.player, 32, onSlide())),
    names: (t) => about('pf_hit', 'pf_late', 'pf_wasted', 'redundant', 'unread', 'misses')(t),
  },
  {
    id: 'event',
    title: 'What just happened',
    needs: ['player'],
    pace: 'always',
    create: playerView(createEventView),
    legend: (d) => eventLegend(d.player),
  },
  {
    id: 'import-summary',
    title: 'Imported trace',
    hint: 'What the kernel did, as the C importer counted it (docs/import.md).',
    needs: ['summary'],
    pace: 'always',
    create(body) {
      return (d) => renderImportSummary(body, d.summary.name, d.summary.summary);
    },
  },
  {
    id: 'pcp-hist',
    title: 'pcp refill and drain sizes: the model and a kernel trace',
    hint: 'pages per rmqueue_bulk() refill and per drain, as shares of each source’s own; filled: the model, outlined: the trace (docs/modern-pcp.md)',
    short: 'pcp refill and drain sizes',
    needs: ['histograms'],
    pace: 'visible',
    create(body) {
      const v = createPcpHistView(body);
      return (d) => v.update(d.histograms);
    },
  },
  {
    id: 'latency',
    title: 'Latency: how long each allocation and free took',
    hint: 'log2 buckets of model time, as funclatency prints them, one colour per run; dashed: p50, p99, p99.9; outlined: an imported kernel histogram. Click a bucket: its longest call in the replay.',
    short: 'Latency: log2 buckets',
    needs: ['latency'],
    pace: 'visible',
    create(body) {
      const v = createLatencyView(body);
      return (d) => v.update(d.latency);
    },
    names: about('latency', 'p99', 'p50', 'p99.9', 'funclatency'),
  },
] as const satisfies readonly ViewDef[];

export type ViewId = (typeof DEFS)[number]['id'];
const BY_ID = new Map<string, ViewDef>(DEFS.map((d) => [d.id, d]));

function defOf(id: ViewId): ViewDef {
  return BY_ID.get(id)!;
}

/** The heading a view has where it stands without its hint (lesson steps, compare, exports). */
export function viewTitle(id: ViewId): string {
  const d = defOf(id);
  return d.short ?? d.title;
}

export interface MountedView {
  readonly id: ViewId;
  readonly pace: Pace;
  /** the panel's section (panel-head and panel-body inside) */
  readonly section: HTMLElement;
  /** redraws from data; does nothing when a part the view needs is missing */
  update(d: ViewData): void;
  /** whether this view can point at what the term names */
  names(t: FigureTerm): boolean;
  /** points at the term's part (or outlines the whole panel); undefined clears it */
  mark(t: FigureTerm | undefined): void;
  /** the view as a vector SVG document, drawn again from the data it last showed */
  exportSvg(title: string): string;
}

export interface MountOptions {
  /** panel id prefix, so several sets can share a page: `lv` gives `lv-pcp` */
  prefix?: string;
  /** `full`: the workbench's heading and hint; `short`: one heading line, no hint */
  heading?: 'full' | 'short';
  /** a legend of the view's colours under it (views that draw colours have one) */
  legend?: boolean;
}

/** Builds one view in a titled panel appended to parent. */
export function mountView(parent: HTMLElement, id: ViewId, opts: MountOptions = {}): MountedView {
  const def = defOf(id);
  const panelId = opts.prefix ? `${opts.prefix}-${id}` : id;
  const body =
    opts.heading === 'short' ? panel(parent, panelId, viewTitle(id)) : panel(parent, panelId, def.title, def.hint);
  const draw = def.create(body);
  const section = body.parentElement!;
  const legend = opts.legend && def.legend ? createFigureLegend(section) : undefined;
  let last: (ViewData & AllViewData) | undefined;
  /**
   * A fresh copy of the view, laid out at this one's width off screen, draws the last data once
   * more with its canvases recording vector SVG (a fresh copy draws everything: no incremental
   * repaint, no animation half done), and the copy's panel becomes the SVG document.
   */
  const exportSvg = (title: string) => {
    const host = el('div', { class: 'svg-export-host', 'aria-hidden': 'true' });
    host.style.cssText = `position:fixed;left:-100000px;top:0;width:${Math.max(1, section.getBoundingClientRect().width)}px`;
    document.body.append(host);
    try {
      const copyBody = panel(host, `${panelId}-export`, def.title);
      const copyDraw = def.create(copyBody);
      const canvases = recordCanvases(host, () => {
        if (last) copyDraw({ ...last, textDue: true });
      });
      return panelToSvg(copyBody.parentElement!, title, canvases);
    } finally {
      host.remove();
    }
  };
  setPanelExporter(section, exportSvg);
  return {
    id,
    pace: def.pace,
    section,
    update(d) {
      if (!def.needs.every((n) => d[n] !== undefined)) return;
      last = d as ViewData & AllViewData;
      draw(last);
      legend?.set(def.legend!(last));
    },
    names: (t) => def.names?.(t) ?? false,
    mark(t) {
      const own = t && def.names?.(t) ? t : undefined;
      // a name the whole figure is about, or a view that cannot point at parts: outlined whole
      section.classList.toggle('term-marked', own !== undefined && (own.kind === 'name' || !draw.mark));
      draw.mark?.(own);
    },
    exportSvg,
  };
}

/** A chosen set of views side by side: what a lesson step, a lecture slide or a compare column shows. */
export interface ViewSet {
  root: HTMLElement;
  /** the mounted views, in order */
  views: readonly MountedView[];
  update(d: ViewData): void;
  highlight(id: ViewId | undefined): void;
  /** the panel element of a view, for export */
  panelOf(id: ViewId): HTMLElement | undefined;
}

/** Views side by side, each with its legend. `into` places each view (default: one box). */
export function mountViewSet(parent: HTMLElement, ids: readonly ViewId[], prefix = 'lv', into?: (id: ViewId) => HTMLElement): ViewSet {
  const root = el('div', { class: `viewset viewset-${ids.length}` });
  parent.append(root);
  const views = ids.map((id) => mountView(into?.(id) ?? root, id, { prefix, heading: 'short', legend: true }));
  return {
    root,
    views,
    update(d) {
      for (const v of views) v.update(d);
    },
    highlight(id) {
      for (const v of views) v.section.classList.toggle('highlighted', v.id === id);
    },
    panelOf(id) {
      return views.find((v) => v.id === id)?.section;
    },
  };
}
