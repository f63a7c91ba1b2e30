// Loading an event log from a file without freezing the page: the import worker reads it in
// slices and decodes it (binary records or JSON, web/log/), the page only builds the replay, in
// slices too (Player.build), with one progress bar for both and a Cancel that leaves the player
// as it was. Used by the workbench's "Event log" box and the "JSON event log" panel.
import { ImportCancelled, ImportClient } from '../import/import-client';
import { EventLog } from '../log/events';
import { Player } from '../log/player';
import { el } from '../ui/dom';
import type { OpenLog } from './panel';

/** share of the bar for reading the file; the rest is building the replay */
const READ_SHARE = 0.6;

const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MB`;

export interface LogLoaderOptions {
  input: HTMLInputElement;
  format: 'binary' | 'json';
  /** the largest file accepted, and how the limit is said (docs/limits.md) */
  maxBytes: number;
  limitText: string;
  open: OpenLog;
  client?: ImportClient;
}

/** A status line, a progress bar and a Cancel button that follow `input`'s picks. */
export function createLogLoader(o: LogLoaderOptions): HTMLElement {
  const client = o.client ?? new ImportClient();
  const status = el('p', { class: 'run-msg', role: 'status' });
  const progress = el('progress', { max: 1, value: 0, hidden: true, 'aria-label': 'loading the event log' });
  const cancel = el('button', { type: 'button', class: 'small', text: 'Cancel', hidden: true });
  let abort: AbortController | null = null;

  const busy = (on: boolean) => {
    progress.hidden = !on;
    cancel.hidden = !on;
    o.input.disabled = on;
  };

  async function load(file: File): Promise<void> {
    if (file.size > o.maxBytes) {
      status.textContent = `${file.name} is ${mb(file.size)}; the limit is ${o.limitText}.`;
      return;
    }
    if (file.size === 0) {
      status.textContent = `${file.name} is empty (0 bytes): nothing to load.`;
      return;
    }
    busy(true);
    progress.value = 0;
    status.textContent = `reading ${file.name}…`;
    try {
      const done = await client.loadLog(file, file.name, o.format, (bytes, total) => {
        progress.value = READ_SHARE * (total ? bytes / total : 1);
        status.textContent = `reading ${file.name}: ${mb(bytes)} of ${mb(total)}`;
      });
      const log = EventLog.fromColumns(done.columns);
      status.textContent = `${file.name}: ${log.length.toLocaleString('en')} records read; preparing the replay…`;
      abort = new AbortController();
      const player = await Player.build(log, {
        signal: abort.signal,
        onProgress: (n, total) => {
          progress.value = READ_SHARE + (1 - READ_SHARE) * (total ? n / total : 1);
        },
      });
      const r = o.open(player, { label: done.label ?? file.name });
      status.textContent = r.ok ? '' : `${file.name}: ${r.error}`;
    } catch (e) {
      if (e instanceof ImportCancelled || abort?.signal.aborted) status.textContent = `Loading ${file.name} was cancelled; nothing was changed.`;
      else status.textContent = `${file.name}: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      abort = null;
      busy(false);
      o.input.value = '';
    }
  }

  o.input.addEventListener('change', () => {
    const f = o.input.files?.[0];
    if (f) void load(f);
  });
  cancel.addEventListener('click', () => {
    client.cancel();
    abort?.abort();
  });
  return el('div', { class: 'log-loader' }, progress, cancel, status);
}
