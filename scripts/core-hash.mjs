#!/usr/bin/env node
// The core build hash: SHA-256 over `sha256sum`'s lines for every C source and header of the
// core (wasm-core/include, src, wasm), sorted by path in byte order, cut to 16 hex digits. The
// same as
//   cd wasm-core && find include src wasm -type f -name '*.[ch]' | LC_ALL=C sort | xargs sha256sum | sha256sum
// and as CMake computes it for the native blab (`blab version`). Results of the model are
// keyed by it: the same sources give the same numbers, natively and in WebAssembly.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

function sources(dir, rel, out) {
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = `${rel}/${e.name}`;
    if (e.isDirectory()) sources(dir, r, out);
    else if (e.isFile() && /\.[ch]$/.test(e.name)) out.push(r);
  }
  return out;
}

/** The hash of the core under root (the repository). */
export function coreHash(root) {
  const core = join(root, 'wasm-core');
  const files = ['include', 'src', 'wasm'].flatMap((d) => sources(core, d, []));
  files.sort((a, b) => (Buffer.compare(Buffer.from(a), Buffer.from(b))));
  const lines = files.map((f) => `${createHash('sha256').update(readFileSync(join(core, f))).digest('hex')}  ${f}\n`).join('');
  return createHash('sha256').update(lines).digest('hex').slice(0, 16);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(coreHash(join(fileURLToPath(import.meta.url), '..', '..')));
