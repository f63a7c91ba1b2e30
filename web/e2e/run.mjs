#!/usr/bin/env node
// make test-e2e: serve dist/ with `vite preview` on a free localhost port, run Playwright
// against it, and stop the server afterwards, whatever happened (failure, Ctrl-C, timeout).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, openSync } from 'node:fs';

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function waitFor(url, ms) {
  const until = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > until) throw new Error(`vite preview did not answer at ${url} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
mkdirSync('test-results', { recursive: true });
const log = openSync('test-results/preview.log', 'w');
const server = spawn(
  process.execPath,
  ['node_modules/vite/bin/vite.js', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
  { stdio: ['ignore', log, log], env: { ...process.env, BUDDYLAB_PORT: String(port) } },
);
let stopped = false;
const stop = () => {
  if (stopped) return;
  stopped = true;
  server.kill('SIGTERM');
};
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    stop();
    process.exit(130);
  });
}
process.on('exit', stop);

let code = 1;
try {
  await waitFor(url, 20_000);
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
  stop();
}
process.exit(code);
