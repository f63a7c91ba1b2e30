// The workbench's "Event log" box: a log recorded in the core's binary records (32 bytes each,
// docs/events.md), read and decoded in the import worker and its replay built in slices, so a
// 2^24-record log (512 MB) loads with a progress bar and never blocks the page (log-loader.ts).
import { el } from '../ui/dom';
import { createLogLoader } from './log-loader';
import type { OpenLog, Panel } from './panel';

/** the largest log a user may load (docs/limits.md): 2^24 records */
export const MAX_LOG_BYTES = 32 * (1 << 24);

export function createBinLogPanel(open: OpenLog): Panel {
  const sec = el('section', { class: 'logfile', 'aria-labelledby': 'log-title' });
  const input = el('input', { type: 'file', id: 'log-file', accept: '.bin,.blog,application/octet-stream' });
  sec.append(
    el('h2', { id: 'log-title', text: 'Event log' }),
    el('label', { for: 'log-file', text: 'Load a recorded log (32-byte records, docs/events.md)' }),
    input,
    createLogLoader({ input, format: 'binary', maxBytes: MAX_LOG_BYTES, limitText: `${MAX_LOG_BYTES / (1024 * 1024)} MB (2^24 records)`, open }),
  );
  return { root: sec };
}
