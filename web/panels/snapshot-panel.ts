// "Start from a snapshot": paste or drop /proc/buddyinfo and /proc/zoneinfo, pick a zone, and
// the C core starts a zone in that state (an op script, snapshot-script.ts, run in the engine
// worker like the op-script panel's); the player shows the core's own log, and the script can
// go on in the op-script panel. The pcp numbers are compared with what a preset's kernel would
// pick for a zone of that size, as the core computes them (`zone ...` + `zoneinfo`).
import { EngineClient } from '../engine/engine-client';
import { IMPORT_LIMITS } from '../scenario/limits';
import { PRESETS, URL_LIMITS } from '../scenario/url';
import { el } from '../ui/dom';
import { parseBuddyinfo, parseZoneinfo, type BuddyinfoZone, type ZoneinfoZone } from '../import/procfs-parse';
import { SnapshotScriptError, snapshotScript } from '../import/snapshot-script';
import type { OpenLog, Panel } from './panel';

/** Puts a script into the op-script panel (web/panels/opscript-panel.ts) and brings it into view. */
function continueInOpScript(script: string): boolean {
  const text = document.getElementById('opscript-text');
  if (!(text instanceof HTMLTextAreaElement)) return false;
  text.value = script;
  text.scrollIntoView({ block: 'center' });
  text.focus();
  return true;
}

/** The snapshot's pcp lists beside what a preset gives a zone of its size and CPUs (the C core's
 * zone_batchsize() / high rule), or why there is no comparison. */
async function comparePcp(compare: HTMLElement, engine: EngineClient, zi: ZoneinfoZone | undefined, preset: string) {
  compare.replaceChildren();
  if (!zi || zi.pcp.length === 0) return;
  const cpus = zi.pcp.length;
  if (zi.managed < 1 || zi.managed > URL_LIMITS.maxPages || cpus > URL_LIMITS.maxCpus) {
    compare.append(el('p', { class: 'hint', text: `No preset comparison: the core models zones of 1 to ${URL_LIMITS.maxPages.toLocaleString('en')} managed pages and up to ${URL_LIMITS.maxCpus} CPUs.` }));
    return;
  }
  const why = EngineClient.unsupported();
  if (why) {
    compare.append(el('p', { class: 'hint', text: `No preset comparison: ${why}.` }));
    return;
  }
  let model: ZoneinfoZone | undefined;
  try {
    const r = await engine.replay(`zone pages=${zi.managed} cpus=${cpus} preset=${preset}\nzoneinfo\n`);
    if (r.status !== 0) throw new Error(r.stderr.trim());
    model = parseZoneinfo(r.stdout)[0];
  } catch (e) {
    compare.append(el('p', { class: 'hint', text: `No preset comparison: ${e instanceof Error ? e.message : String(e)}` }));
    return;
  }
  const t = el('table', { class: 'isum-table', id: 'snap-compare-table' });
  t.append(el('caption', { text: `pcp lists of ${zi.zone}: this machine against ${preset} for a zone of ${zi.managed.toLocaleString('en')} managed pages, ${cpus} CPUs (the C core's zone_batchsize() / high rule)` }));
  const head = el('tr');
  for (const h of ['cpu', 'count', 'batch', `${preset} batch`, 'high', `${preset} high`]) head.append(el('th', { scope: 'col', text: h }));
  t.append(el('thead', {}, head));
  const body = el('tbody');
  for (const p of zi.pcp) {
    const m = model?.pcp.find((x) => x.cpu === p.cpu) ?? model?.pcp[0];
    const row = el('tr');
    for (const c of [p.cpu, p.count, p.batch, m?.batch ?? '?', p.highMax !== undefined ? `${p.high} (${p.highMin}..${p.highMax})` : p.high, m?.high ?? '?']) {
      row.append(el('td', { text: typeof c === 'number' ? c.toLocaleString('en') : c }));
    }
    body.append(row);
  }
  t.append(body);
  compare.append(t);
  if (zi.pcp.some((p) => p.highMax !== undefined)) {
    compare.append(el('p', { class: 'hint', text: 'high_min..high_max: this kernel tunes high itself (6.7+); the presets predate that and keep one fixed high.' }));
  }
}

export function createSnapshotPanel(open: OpenLog, engine = new EngineClient(), goOn = continueInOpScript): Panel {
  const sec = el('section', { class: 'snapshot', id: 'snapshot', 'aria-labelledby': 'snapshot-title' });
  const area = (id: string, label: string, hint: string) => {
    const t = el('textarea', { id, rows: 4, spellcheck: false, 'aria-describedby': `${id}-hint`, placeholder: hint });
    // a file dropped here fills the box (and is not taken as a trace)
    t.addEventListener('dragover', (ev) => ev.preventDefault());
    t.addEventListener('drop', async (ev) => {
      ev.preventDefault();
      const f = ev.dataTransfer?.files[0];
      if (!f) return;
      if (f.size > IMPORT_LIMITS.maxSnapshotBytes) {
        msg.textContent = `${f.name} is ${f.size.toLocaleString('en')} bytes; the limit is ${IMPORT_LIMITS.maxSnapshotBytes.toLocaleString('en')} (snapshot text).`;
        return;
      }
      t.value = await f.text();
    });
    return [el('label', { for: id, text: label }), t, el('p', { class: 'hint', id: `${id}-hint`, text: `paste, or drop the file here: ${hint}` })] as const;
  };
  const [bl, buddy, bh] = area('snap-buddyinfo', '/proc/buddyinfo', 'cat /proc/buddyinfo');
  const [zl, zone, zh] = area('snap-zoneinfo', '/proc/zoneinfo (optional: size, start_pfn, pcp)', 'cat /proc/zoneinfo');
  const zoneSel = el('select', { id: 'snap-zone' });
  const presetSel = el('select', { id: 'snap-preset' });
  for (const [k, v] of Object.entries(PRESETS)) presetSel.append(el('option', { value: k, text: v }));
  presetSel.value = 'v5.18';
  const start = el('button', { type: 'button', id: 'snap-start', class: 'primary', text: 'Start zone from snapshot' });
  const msg = el('p', { class: 'import-alert', id: 'snap-msg', role: 'alert' });
  const status = el('p', { class: 'import-status', id: 'snap-status', role: 'status' });
  const compare = el('div', { id: 'snap-compare' });
  const goOnButton = el('button', { type: 'button', id: 'snap-continue', hidden: true, text: 'Continue in the op-script panel' });
  let lastScript = '';
  goOnButton.addEventListener('click', () => {
    const script = `${lastScript}# the zone is the core's now: go on, e.g.\n# alloc order=0 cpu=0\n# drain cpu=all\n`;
    if (!goOn(script)) msg.textContent = 'The op-script panel is not on this page.';
  });
  sec.append(
    el('h2', { id: 'snapshot-title', text: 'Start from a snapshot' }),
    bl,
    buddy,
    bh,
    zl,
    zone,
    zh,
    el('label', { for: 'snap-zone', text: 'zone' }),
    zoneSel,
    el('label', { for: 'snap-preset', text: 'compare pcp batch / high with' }),
    presetSel,
    start,
    msg,
    status,
    goOnButton,
    compare,
  );

  let parsed: { b: BuddyinfoZone[]; z: ZoneinfoZone[] } | undefined;
  const read = () => {
    parsed = undefined;
    msg.textContent = '';
    try {
      const b = parseBuddyinfo(buddy.value);
      const z = zone.value.trim() ? parseZoneinfo(zone.value) : [];
      parsed = { b, z };
      const keep = zoneSel.value;
      zoneSel.replaceChildren(...b.map((x) => el('option', { value: `${x.node}/${x.zone}`, text: `node ${x.node}, ${x.zone}` })));
      if (b.some((x) => `${x.node}/${x.zone}` === keep)) zoneSel.value = keep;
      else zoneSel.value = `${b.at(-1)!.node}/${b.at(-1)!.zone}`;
    } catch (e) {
      zoneSel.replaceChildren();
      if (buddy.value.trim() || zone.value.trim()) msg.textContent = e instanceof Error ? e.message : String(e);
    }
  };
  buddy.addEventListener('input', read);
  zone.addEventListener('input', read);
  buddy.addEventListener('drop', () => setTimeout(read, 50));
  zone.addEventListener('drop', () => setTimeout(read, 50));

  start.addEventListener('click', async () => {
    read();
    if (!parsed) {
      if (!msg.textContent) msg.textContent = 'Paste /proc/buddyinfo first.';
      return;
    }
    const b = parsed.b.find((x) => `${x.node}/${x.zone}` === zoneSel.value)!;
    const zi = parsed.z.find((x) => x.node === b.node && x.zone === b.zone);
    if (parsed.z.length && !zi) {
      msg.textContent = `zone ${b.zone} of node ${b.node} is in buddyinfo but not in zoneinfo: are they from one machine?`;
      return;
    }
    const label = `snapshot: node ${b.node}, zone ${b.zone}`;
    goOnButton.hidden = true;
    status.textContent = '';
    try {
      const why = EngineClient.unsupported();
      if (why) throw new SnapshotScriptError(`the core cannot run in this page: ${why}`);
      const built = snapshotScript(b, zi, presetSel.value);
      status.textContent = `${label}: the core is laying out ${built.pages.toLocaleString('en')} pages…`;
      const r = await engine.replay(built.script);
      if (r.status !== 0) throw new SnapshotScriptError(`the core refused it: ${r.stderr.trim()}`);
      const cpu0 = zi?.pcp[0];
      const res = open(r.events, { label, ...(cpu0 ? { pcp: { high: cpu0.high, batch: cpu0.batch } } : {}) });
      if (!res.ok) throw new SnapshotScriptError(res.error);
      lastScript = built.script;
      goOnButton.hidden = false;
      status.textContent =
        `${label}: ${built.pages.toLocaleString('en')} pages, ${built.cpus} CPU${built.cpus === 1 ? '' : 's'}, started by the C core (${presetSel.value}). ` +
        (built.cutFrom !== undefined
          ? `The zone spans ${built.cutFrom.toLocaleString('en')} pages, more than the browser's core takes for a snapshot: it is cut to its first ${built.pages.toLocaleString('en')} (nr_free and pcp counts stay the snapshot's; fewer pages are allocated). `
          : '') +
        'nr_free and pcp counts are the snapshot\'s; where each block sits is made up (docs/import.md, "Snapshots"): ' +
        'free blocks from the zone start, largest first, each next to an allocated buddy; then the pcp pages; the rest allocated.';
    } catch (e) {
      // SnapshotScriptError, SnapshotError, or the worker's own failure: all said, none fatal
      msg.textContent = `This snapshot cannot be started: ${e instanceof Error ? e.message : String(e)}`;
      status.textContent = '';
    }
    await comparePcp(compare, engine, zi, presetSel.value);
  });

  return { root: sec };
}
