// The trace import panel: a file picker and a drop zone for kernel traces (perf script or
// tracefs text of the kmem page tracepoints). The import worker reads and parses the file in
// chunks with a progress bar and a cancel button; the summary panel shows what the C parser
// counted, and the replay goes into the player like any other event log.
import './import.css';
import { EngineClient } from '../engine/engine-client';
import { EventLog } from '../log/events';
import { Player } from '../log/player';
import { IMPORT_LIMITS } from '../scenario/limits';
import { el } from '../ui/dom';
import { mountView } from '../views/registry';
import { ImportCancelled, ImportClient } from '../import/import-client';
import { GUIDE_BUILD, GUIDE_NOTES, GUIDE_PERF, GUIDE_PRIVILEGES, GUIDE_TRACEFS } from '../import/recording-guide';
import { SummaryFormatError, parseSummary } from '../import/summary';
import { TRACE_ERR } from '../import/trace-core';
import type { OpenLog, Panel } from './panel';

export interface ImportPanel extends Panel {
  /** the sidebar section: picker, drop zone, progress, cancel, recording guide */
  readonly root: HTMLElement;
  /** the summary panel, for the content column (hidden until a trace is imported) */
  readonly summary: HTMLElement;
  importFile(file: File): Promise<void>;
}

/** The bar's share for reading and parsing the file; the rest is building the replay. */
const PARSE_SHARE = 0.8;

const mb = (b: number) => `${(b / (1024 * 1024)).toFixed(1)} MB`;

/** The sidebar section: picker, drop zone, progress, cancel, status and the recording guide. */
function importSection() {
  const sec = el('section', { class: 'trace-import', id: 'trace-import', 'aria-labelledby': 'trace-import-title' });
  const input = el('input', { type: 'file', id: 'trace-file', accept: '.txt,.trace,.log,text/plain' });
  const drop = el('div', {
    class: 'dropzone',
    id: 'trace-drop',
    tabindex: 0,
    role: 'button',
    'aria-describedby': 'trace-drop-hint',
    text: 'Drop a trace file here',
  });
  const progress = el('progress', { id: 'import-progress', max: 1, value: 0, 'aria-label': 'import progress' });
  progress.hidden = true;
  const cancel = el('button', { type: 'button', id: 'import-cancel', text: 'Cancel import' });
  cancel.hidden = true;
  const status = el('p', { class: 'import-status', id: 'import-status', role: 'status' });
  const alert = el('p', { class: 'import-alert', id: 'import-alert', role: 'alert' });
  const guide = el(
    'details',
    { class: 'guide', id: 'recording-guide' },
    el('summary', { text: 'How to record a trace (page_fault1)' }),
    el('p', { text: GUIDE_PRIVILEGES }),
    el('p', { text: 'Build the benchmark:' }),
    el('pre', { text: GUIDE_BUILD }),
    el('p', { text: 'With perf:' }),
    el('pre', { text: GUIDE_PERF }),
    el('p', { text: 'Or with tracefs (as root):' }),
    el('pre', { text: GUIDE_TRACEFS }),
    el('p', { class: 'hint', text: GUIDE_NOTES }),
  );
  sec.append(
    el('h2', { id: 'trace-import-title', text: 'Import a kernel trace' }),
    el('label', { for: 'trace-file', text: '`perf script` or tracefs `trace` text of the kmem: page tracepoints' }),
    input,
    drop,
    el('p', {
      class: 'hint',
      id: 'trace-drop-hint',
      text: `Up to ${mb(IMPORT_LIMITS.maxTraceBytes)} and ${IMPORT_LIMITS.maxEvents.toLocaleString('en')} events; read in a worker, so the page stays responsive.`,
    }),
    progress,
    cancel,
    status,
    alert,
    guide,
  );
  return { sec, input, drop, progress, cancel, status, alert };
}

/** The drop zone opens the picker (click, Enter, Space), and a file dropped anywhere on the page
 * is imported (and never opened by the browser instead). */
function wireDrop(drop: HTMLElement, input: HTMLInputElement, importFile: (f: File) => void) {
  drop.addEventListener('click', () => input.click());
  drop.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      input.click();
    }
  });
  const isFileDrag = (ev: DragEvent) => ev.dataTransfer?.types.includes('Files') ?? false;
  document.addEventListener('dragover', (ev) => {
    if (!isFileDrag(ev)) return;
    ev.preventDefault();
    drop.classList.add('over');
  });
  document.addEventListener('dragleave', () => drop.classList.remove('over'));
  document.addEventListener('drop', (ev) => {
    if (!isFileDrag(ev) || ev.defaultPrevented) return;
    ev.preventDefault();
    drop.classList.remove('over');
    const f = ev.dataTransfer?.files[0];
    if (f) importFile(f);
  });
}

export function createImportPanel(open: OpenLog, client = new ImportClient()): ImportPanel {
  const { sec, input, drop, progress, cancel, status, alert } = importSection();
  const summarySec = el('div', { class: 'import-summary-wrap', id: 'import-summary-wrap' });
  const summaryView = mountView(summarySec, 'import-summary');
  summarySec.hidden = true;

  const unsupported = EngineClient.unsupported();
  if (unsupported) {
    input.disabled = true;
    drop.setAttribute('aria-disabled', 'true');
    alert.textContent = `Traces cannot be imported in this page: ${unsupported}.`;
  }

  let abort: AbortController | null = null;
  const setBusy = (busy: boolean) => {
    input.disabled = busy || unsupported !== null;
    progress.hidden = !busy;
    cancel.hidden = !busy;
    drop.classList.toggle('busy', busy);
  };

  async function importFile(file: File): Promise<void> {
    alert.textContent = '';
    if (unsupported) {
      alert.textContent = `Traces cannot be imported in this page: ${unsupported}.`;
      return;
    }
    if (client.busy) {
      alert.textContent = 'An import is running: cancel it first.';
      return;
    }
    if (file.size === 0) {
      alert.textContent = `${file.name} is empty (0 bytes): nothing to import.`;
      return;
    }
    if (file.size > IMPORT_LIMITS.maxTraceBytes) {
      alert.textContent =
        `${file.name} is ${mb(file.size)}; the limit is ${mb(IMPORT_LIMITS.maxTraceBytes)} (trace file size, docs/limits.md). ` +
        'Record a shorter run, or cut the file (head -n 300000 trace.txt > part.txt).';
      return;
    }
    setBusy(true);
    progress.value = 0;
    status.textContent = `reading ${file.name}…`;
    try {
      const done = await client.importTrace(file, file.name, (bytes, total) => {
        progress.value = PARSE_SHARE * (total ? bytes / total : 1);
        status.textContent = `reading ${file.name}: ${mb(bytes)} of ${mb(total)}`;
      });
      const r = done.result;
      status.textContent = `${file.name}: parsed; preparing the summary…`;
      if (r.status === TRACE_ERR.EMPTY) throw new Error(`${file.name} is empty: nothing to import`);
      let summary;
      try {
        summary = r.summary ? parseSummary(r.summary) : undefined;
      } catch (e) {
        if (e instanceof SummaryFormatError) throw new Error(`the importer printed a summary this page cannot read: ${e.message}`);
        throw e;
      }
      if (r.status === TRACE_ERR.NOEVENTS) {
        const first = summary?.malformedLines[0];
        throw new Error(
          `${file.name}: ${r.error}. Expected the text of \`perf script\` or of tracefs \`trace\` for the kmem page tracepoints` +
            (first ? `; first malformed line ${first[0]}: ${first[1]}` : '') +
            ' (see "How to record a trace").',
        );
      }
      if (r.status !== 0 && r.status !== TRACE_ERR.LIMIT) throw new Error(`${file.name}: ${r.error || `import failed (${r.status})`}`);
      if (summary) {
        summaryView.update({ summary: { name: file.name, summary } });
        summarySec.hidden = false;
      }
      const notes: string[] = [];
      if (r.status === TRACE_ERR.LIMIT) notes.push(`stopped at a limit: ${r.error}; the part before it is shown`);
      if (summary && summary.malformed > 0) {
        const f = summary.malformedLines[0];
        notes.push(`${summary.malformed} malformed line${summary.malformed === 1 ? '' : 's'}${f ? ` (line ${f[0]}: ${f[1]})` : ''}: left out`);
      }
      let loaded: { ok: true; events: number } | { ok: false; error: string } = { ok: false, error: done.replayError ?? 'no events to replay' };
      if (done.columns) {
        // The replay is built in slices (Player.build), so the page keeps answering.
        status.textContent = `${file.name}: preparing the replay…`;
        abort = new AbortController();
        try {
          const player = await Player.build(EventLog.fromColumns(done.columns), {
            signal: abort.signal,
            onProgress: (n, total) => {
              progress.value = PARSE_SHARE + (1 - PARSE_SHARE) * (n / total);
            },
          });
          loaded = open(player, { label: `trace ${file.name}` });
        } catch (e) {
          if (abort.signal.aborted) throw new ImportCancelled();
          loaded = { ok: false, error: e instanceof Error ? e.message : String(e) };
        }
      }
      if (!loaded.ok) notes.push(`the views cannot replay it: ${loaded.error}`);
      status.textContent =
        `${file.name}: ${(summary?.events ?? 0).toLocaleString('en')} events imported in ${(done.elapsedMs / 1000).toFixed(1)} s` +
        (summary && done.parseMs > 0 ? ` (${summary.lines.toLocaleString('en')} lines parsed at ${linesPerSecond(summary.lines, done.parseMs)})` : '') +
        (loaded.ok ? `; ${loaded.events.toLocaleString('en')} records in the player.` : '.');
      alert.textContent = notes.length ? `Note: ${notes.join('; ')}.` : '';
    } catch (e) {
      status.textContent = '';
      if (e instanceof ImportCancelled) status.textContent = `Import of ${file.name} cancelled; nothing was changed.`;
      else alert.textContent = e instanceof Error ? e.message : String(e);
    } finally {
      abort = null;
      setBusy(false);
      input.value = '';
    }
  }

  input.addEventListener('change', () => {
    const f = input.files?.[0];
    if (f) void importFile(f);
  });
  cancel.addEventListener('click', () => {
    client.cancel();
    abort?.abort();
  });
  wireDrop(drop, input, (f) => void importFile(f));

  return { root: sec, summary: summarySec, importFile };
}

/** "1.2 M lines/s", "640 K lines/s": a parse rate as a reader takes it in */
function linesPerSecond(lines: number, ms: number): string {
  const r = lines / (ms / 1000);
  return r >= 1e6 ? `${(r / 1e6).toFixed(2)} M lines/s` : `${Math.round(r / 1e3)} K lines/s`;
}
