#!/usr/bin/env node
// make test-e2e: serve dist/ with `vite preview` on a free localhost port, run Playwright
// against it, and stop the server afterwards, whatever happened (failure, Ctrl-C, timeout).
// With no arguments it runs the two projects of playwright.config.ts one after the other: the
// @timed tests alone on one worker, then the rest on two, and fails if either failed. With
// arguments (a spec, --grep, --update-snapshots ...) it is one `playwright test ARGS`.
import { spawn } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { startPreview } from '../../scripts/vite-preview.mjs';

mkdirSync('test-results', { recursive: true });
const log = openSync('test-results/preview.log', 'w');
let server;
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    server?.stop();
    process.exit(130);
  });
}

let code = 1;
try {
  server = await startPreview({ stdio: log });
  const { url } = server;
  console.log(`e2e: vite preview on ${url} (pid ${server.pid})`);
  const args = process.argv.slice(2);
  const runs = args.length ? [args] : [['--project', 'timed'], ['--project', 'parallel']];
  code = 0;
  for (const run of runs) code = Math.max(code, await playwright(run, url));
} catch (e) {
  console.error(`e2e: ${e.message}`);
} finally {
  server?.stop();
}
process.exit(code);

/** `playwright test ARGS` against URL; its exit status */
function playwright(args, url) {
  return new Promise((resolve) => {
    const pw = spawn(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', ...args], {
      stdio: 'inherit',
      env: { ...process.env, BUDDYLAB_URL: url },
    });
    pw.on('exit', (c, sig) => resolve(c ?? (sig ? 1 : 0)));
  });
}
