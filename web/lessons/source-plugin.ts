// Build step for the lesson player's source pane: reads every .c and .h under wasm-core/src
// (recursively, so files can move between folders) and the event header, and serves what
// source-scan.ts finds as the virtual module `virtual:core-source`. It runs on every build and
// dev-server start, so the pane always names the functions and lines of the C that was built.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Plugin } from 'vite';
import { scanCoreSource, type CoreSourceMap, type SourceFile } from './source-scan.ts';
import { virtualModule } from './virtual-module.ts';

function cFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return cFiles(p);
    return /\.[ch]$/.test(e.name) ? [p] : [];
  });
}

/** Scans the core under root (wasm-core/src and wasm-core/include/blab_events.h). */
export function loadCoreSource(root: string): { map: CoreSourceMap; files: string[] } {
  const files = cFiles(join(root, 'wasm-core', 'src'));
  const sources: SourceFile[] = files.map((f) => ({ path: relative(root, f).split(sep).join('/'), text: readFileSync(f, 'utf8') }));
  const header = join(root, 'wasm-core', 'include', 'blab_events.h');
  return { map: scanCoreSource(sources, readFileSync(header, 'utf8')), files: [...files, header] };
}

export function coreSourcePlugin(): Plugin {
  return virtualModule('buddylab-core-source', 'virtual:core-source', (root, watch) => {
    const { map, files } = loadCoreSource(root);
    for (const f of files) watch(f);
    return `export default ${JSON.stringify(map)};`;
  });
}
