#!/usr/bin/env node
// make test-e2e: serve dist/ with `vite preview` on a free localhost port, run Playwright
// against it, and stop the server afterwards, whatever happened (failure, Ctrl-C, timeout).
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
  code = await new Promise((resolve) => {
    const pw = spawn(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', ...process.argv.slice(2)], {
      stdio: 'inherit',
      env: { ...process.env, BUDDYLAB_URL: url },
    });
    pw.on('exit', (c, sig) => resolve(c ?? (sig ? 1 : 0)));
  });
} catch (e) {
  console.error(`e2e: ${e.message}`);
} finally {
  server?.stop();
}
process.exit(code);
