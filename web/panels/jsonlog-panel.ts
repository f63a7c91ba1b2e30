// The player app's "load a JSON event log" box: a run exported from a lesson or the compare
// view (eventlog-json.ts) goes back into the player exactly as it was recorded.
import { el } from '../ui/dom';
import { readPicked } from '../ui/download';
import { eventLogFromJson } from '../log/eventlog-json';
import type { OpenLog, Panel } from './panel';

/** JSON is about three times the binary size: the loader reads at most this many bytes. */
export const MAX_JSON_LOG_BYTES = 256 * 1024 * 1024;

export function createJsonLogPanel(open: OpenLog): Panel {
  const sec = el('section', { class: 'jsonlog', 'aria-labelledby': 'jsonlog-title' });
  const input = el('input', { type: 'file', id: 'jsonlog-file', accept: '.json,application/json' });
  const msg = el('p', { class: 'run-msg', role: 'status' });
  sec.append(el('h2', { id: 'jsonlog-title', text: 'JSON event log' }), el('label', { for: 'jsonlog-file', text: 'Load a run exported as JSON (lessons, compare)' }), input, msg);
  input.addEventListener('change', async () => {
    try {
      const f = await readPicked(input, MAX_JSON_LOG_BYTES);
      if (!f) return;
      const { label, buffer } = eventLogFromJson(f.text);
      open(buffer, { label });
      msg.textContent = '';
    } catch (e) {
      msg.textContent = `${input.files?.[0]?.name ?? 'the file'}: ${e instanceof Error ? e.message : String(e)}`;
    }
  });
  return { root: sec };
}
