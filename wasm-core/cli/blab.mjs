#!/usr/bin/env node
// The WASM twin of build/native/blab: the same C command-line code, compiled by
// emscripten (make wasm) and run by Node. `node wasm-core/cli/blab.mjs replay F` prints
// exactly what `build/native/blab replay F` prints.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const modulePath = join(here, '..', '..', 'build', 'wasm', 'node', 'blab.js');
if (!existsSync(modulePath)) {
  process.stderr.write(`blab.mjs: ${modulePath} is missing; run "make wasm" first\n`);
  process.exit(2);
}
const createBlab = createRequire(import.meta.url)(modulePath);
// `run` blocks main() while its threads work, so every thread it will start must be a
// pre-loaded pool worker (a worker created later could not finish loading): size the pool
// from the largest count in --threads. The C side validates the argument itself.
const args = process.argv.slice(2);
let blabPoolSize = 4;
if (args[0] === 'run') {
  const i = args.indexOf('--threads');
  const counts = i >= 0 && args[i + 1] ? (args[i + 1].match(/\d+/g) ?? []).map(Number) : [1];
  blabPoolSize = Math.min(64, Math.max(1, ...counts.filter((n) => n <= 64)));
}
// `sim --jobs N` runs on N threads, the calling one among them (the same rule)
if (args[0] === 'sim') {
  const i = args.indexOf('--jobs');
  const n = i >= 0 ? Number(args[i + 1]) : 1;
  if (Number.isInteger(n) && n > 1) blabPoolSize = Math.min(64, Math.max(blabPoolSize, n - 1));
}
const blab = await createBlab({ noInitialRun: true, thisProgram: 'blab', blabPoolSize });
// callMain() ends the process itself (EXIT_RUNTIME) with main's exit status.
const status = blab.callMain(args);
process.exit(status);
