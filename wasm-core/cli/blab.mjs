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
const blab = await createBlab({ noInitialRun: true, thisProgram: 'blab' });
// callMain() ends the process itself (EXIT_RUNTIME) with main's exit status.
const status = blab.callMain(process.argv.slice(2));
process.exit(status);
