// The web app's folders are layers (web/README.md): a file imports only from its own folder or
// from a lower layer, so data flows one way (the log is replayed, views draw it, panels and
// pages arrange them) and no cycle can form between folders. Tests may reach across layers;
// app code never imports the test fixtures.
import { readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Lower numbers are lower layers; folders on one level may not import each other. */
const LAYERS: Record<string, number> = {
  log: 0, // event records, the player's state and indexes
  scenario: 1, // workloads, URL state, limits
  engine: 2, // the workers that run the core, and reading what it returns
  storage: 2, // what a user saves (localStorage)
  import: 3, // kernel traces and /proc snapshots into the core
  ui: 3, // DOM helpers, palette, legend, export buttons
  views: 4, // drawings of a Player, and the view registry
  panels: 5, // the workbench's panels
  lessons: 6, // the course pages
  compare: 7, // the compare page (builds on the lessons' runs and tables)
  exercise: 7, // the exercise pages (the lessons' run player for the working)
  shell: 8, // the workbench, routes, start-up
};
const TEST_ONLY = ['testing', 'e2e'];

const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+|new URL\(\s*)['"](\.\.?\/[^'"]+)['"]/g;

/** The problems in one file's imports: `file -> target: why`. */
function layerProblems(file: string, source: string): string[] {
  const from = file.split('/')[1]!;
  const out: string[] = [];
  if (!(from in LAYERS)) return [`${file}: web/${from}/ is in no layer (add it to LAYERS and web/README.md)`];
  for (const m of source.matchAll(IMPORT)) {
    const target = posix.normalize(posix.join(posix.dirname(file), m[1]!));
    const to = target.split('/')[1]!;
    if (!target.startsWith('web/') || to === from) continue;
    if (TEST_ONLY.includes(to)) out.push(`${file} -> ${target}: web/${to}/ is for tests only`);
    else if (!(to in LAYERS)) out.push(`${file} -> ${target}: web/${to}/ is in no layer`);
    else if (LAYERS[to]! >= LAYERS[from]!) out.push(`${file} -> ${target}: ${from} (layer ${LAYERS[from]}) may not import ${to} (layer ${LAYERS[to]})`);
  }
  return out;
}

function appFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return TEST_ONLY.includes(e.name) ? [] : appFiles(p);
    return /\.ts$/.test(e.name) && !/\.(test|d)\.ts$/.test(e.name) ? [p] : [];
  });
}

describe('web folders are layers', () => {
  it('no app file imports a higher or sibling layer, or the test fixtures', () => {
    const files = appFiles('web');
    expect(files.length).toBeGreaterThan(50);
    const problems = files.flatMap((f) => layerProblems(f, readFileSync(f, 'utf8')));
    expect(problems).toEqual([]);
  });

  it('fires on an upward import, a sibling import, a fixture and an unknown folder', () => {
    const src = [
      "import { App } from '../shell/app';",
      "import type { Store } from '../storage/store';",
      "import { synthLog } from '../testing/synth';",
      "const w = new URL('../views/x.worker.ts', import.meta.url);",
      "import { decodeEvents } from '../log/events';",
      "import { el } from './dom';",
    ].join('\n');
    expect(layerProblems('web/engine/x.ts', src)).toEqual([
      'web/engine/x.ts -> web/shell/app: engine (layer 2) may not import shell (layer 8)',
      'web/engine/x.ts -> web/storage/store: engine (layer 2) may not import storage (layer 2)',
      'web/engine/x.ts -> web/testing/synth: web/testing/ is for tests only',
      'web/engine/x.ts -> web/views/x.worker.ts: engine (layer 2) may not import views (layer 4)',
    ]);
    expect(layerProblems('web/newthing/x.ts', '')).toEqual(['web/newthing/x.ts: web/newthing/ is in no layer (add it to LAYERS and web/README.md)']);
  });
});
