// A Vite plugin that serves one virtual module (`virtual:NAME`) made at build time from files
// it reads: the lessons and the core's source map are both made this way. `make` names the files
// it reads through `watch` (before it may throw on one, so a fix reloads) and returns the code.
import type { Plugin } from 'vite';

export function virtualModule(name: string, id: string, make: (root: string, watch: (file: string) => void) => string): Plugin {
  const resolved = `\0${id}`;
  let root = process.cwd();
  return {
    name,
    configResolved(c) {
      root = c.root;
    },
    resolveId(x) {
      return x === id ? resolved : null;
    },
    load(x) {
      if (x !== resolved) return null;
      return make(root, (f) => this.addWatchFile(f));
    },
  };
}
