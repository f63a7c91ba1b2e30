// The player app's "load a JSON event log" box: a run exported from a lesson or the compare
// view (eventlog-json.ts) goes back into the player exactly as it was recorded.
import { el } from '../ui/dom';
import { EVENTLOG_JSON_MAX_BYTES, EVENTLOG_JSON_MAX_RECORDS } from '../log/eventlog-json';
import { createLogLoader } from './log-loader';
import type { OpenLog, Panel } from './panel';

export function createJsonLogPanel(open: OpenLog): Panel {
  const sec = el('section', { class: 'jsonlog', 'aria-labelledby': 'jsonlog-title' });
  const input = el('input', { type: 'file', id: 'jsonlog-file', accept: '.json,application/json' });
  const loader = createLogLoader({
    input,
    format: 'json',
    maxBytes: EVENTLOG_JSON_MAX_BYTES,
    limitText: `${EVENTLOG_JSON_MAX_BYTES / (1024 * 1024)} MB and ${EVENTLOG_JSON_MAX_RECORDS.toLocaleString('en')} records (2^21)`,
    open,
  });
  sec.append(el('h2', { id: 'jsonlog-title', text: 'JSON event log' }), el('label', { for: 'jsonlog-file', text: 'Load a run exported as JSON (lessons, compare)' }), input, loader);
  return { root: sec };
}
