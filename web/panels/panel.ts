// What the workbench and its panels say to each other. Data goes in through load(): the shell
// calls it with the scenario in the form and the run in the player whenever either changes. A
// panel that makes a run of its own hands the log back through an OpenLog function. So no panel
// holds the app object or reads its fields.
import type { LatencyReport } from '../log/latency-json';
import type { SimStats } from '../engine/simstats';
import type { Player } from '../log/player';
import type { Scenario } from '../scenario/url';
import type { PcpParams } from '../views/pcp';

export interface PanelData {
  /** the scenario form's state: what Run scenario would run */
  scenario: Scenario;
  /** the run in the player, once one is loaded */
  player?: Player;
  /** how that run came: its label, and pcp high/batch as configured or observed */
  run?: { label: string; pcp: PcpParams };
}

export interface Panel {
  /** the panel's element, for the shell to place */
  readonly root: HTMLElement;
  /** new data from the workbench (a panel that draws nothing from it has none) */
  load?(data: PanelData): void;
}

export interface LoadOptions {
  /** shown next to the player, e.g. "page_fault1, 4 CPUs, seed 1" */
  label?: string;
  /** pcp high and batch as the scenario configured them; otherwise they are read off the log */
  pcp?: { high: number; batch: number };
  /** the run's latencies, when it counted them (the latency view draws them) */
  latency?: LatencyReport;
  /** the counters of the model run the log came from: the views that show a whole run's
   * figures (the cache view's memory gauge) draw them; absent for any other log */
  stats?: SimStats;
}

export type LoadResult = { ok: true; events: number } | { ok: false; error: string };

/** Puts a log into the player (decoded and checked first; a bad one is shown and refused). */
export type OpenLog = (data: ArrayBuffer | ArrayBufferView | Player, opts?: LoadOptions) => LoadResult;
