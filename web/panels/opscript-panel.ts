// The op-script panel: a student types `blab replay` operations, the real C core runs them
// in the engine worker, and the resulting event log goes into the player like any other.
// What the core printed (pfns, /proc/buddyinfo lines, `line N: why` errors) is shown as text.

import { EngineClient } from '../engine/engine-client';
import { el } from '../ui/dom';
import type { OpenLog, Panel } from './panel';

/** A first script: split an order-3 block down to order 0, then free it and watch it merge. */
export const EXAMPLE_SCRIPT = `# A 64-page zone, 2 CPUs, the 4.16 allocator with tiny pcp lists (batch=4, high=8).
zone pages=64 cpus=2 preset=v4.16 batch=4 high=8
buddyinfo
alloc order=3 cpu=0         # expand(): the order-6 block halves down to order 3
alloc order=0 cpu=0         # cpu 0's pcp list is empty: rmqueue_bulk() takes batch=4 pages
alloc order=0 cpu=1         # and so does cpu 1's
free pfn=0x0 order=3 cpu=0  # order 3 skips the order-0 pcp list: __free_one_page() merges
free pfn=0x8 order=0 cpu=0  # order 0 goes back to the head of cpu 0's pcp list
free pfn=0xc order=0 cpu=1
buddyinfo
drain cpu=all               # free_pcppages_bulk(): the pcp pages merge back into one block
buddyinfo
check
`;

export function createOpScriptPanel(open: OpenLog, engine: EngineClient): Panel {
  const sec = el('section', { class: 'opscript', 'aria-labelledby': 'opscript-title' });
  const text = el('textarea', {
    id: 'opscript-text',
    rows: 12,
    spellcheck: false,
    'aria-describedby': 'opscript-help',
  });
  text.value = EXAMPLE_SCRIPT;
  const run = el('button', { type: 'button', class: 'primary', id: 'opscript-run', text: 'Run op script' });
  const out = el('pre', { class: 'opscript-out', id: 'opscript-out', 'aria-live': 'polite', tabindex: 0 });
  sec.append(
    el('h2', { id: 'opscript-title', text: 'Op script' }),
    el('label', { for: 'opscript-text', text: 'Operations for the C core (as `blab replay` takes them)' }),
    el('p', {
      class: 'hint',
      id: 'opscript-help',
      text: 'zone pages=N [cpus=C] [preset=NAME] [batch=B] [high=H] · snapshot nr_free=N0,N1,.. [pcp=CPU:COUNT,..] · alloc order=K [cpu=C] · free pfn=P order=K [cpu=C] · drain cpu=C|all · buddyinfo · pcp · zoneinfo · check',
    }),
    text,
    run,
    out,
  );

  const unsupported = EngineClient.unsupported();
  if (unsupported) {
    run.disabled = true;
    out.textContent = `The core cannot run in this page: ${unsupported}.`;
    return { root: sec };
  }

  run.addEventListener('click', async () => {
    run.disabled = true;
    out.textContent = 'running in the engine worker…';
    try {
      const r = await engine.replay(text.value);
      const lines = [r.stdout.trimEnd()];
      if (r.stderr) lines.push(r.stderr.trimEnd());
      lines.push(r.status === 0 ? `(ok, ${r.events.byteLength / 32} events)` : `(stopped: exit status ${r.status})`);
      out.textContent = lines.filter((l) => l).join('\n');
      if (r.events.byteLength > 0) {
        const loaded = open(r.events, { label: 'op script' });
        if (!loaded.ok) out.textContent += `\nthe player refused this log: ${loaded.error}`;
      }
    } catch (e) {
      out.textContent = e instanceof Error ? e.message : String(e);
    } finally {
      run.disabled = false;
    }
  });
  return { root: sec };
}
