// `vite preview` of dist/ on a free localhost port, shared by the e2e runner (web/e2e/run.mjs)
// and the browser benchmarks (bench/preview.mjs): one way to pick the port, start the server,
// wait until it answers, and stop it whatever happens to the caller.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A port nothing listens on now (the OS picks it; vite is told --strictPort). */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts the server and resolves once it answers, with its url and stop() (also run when the
 * process exits). stdio: where the server's output goes ('ignore', or a file descriptor).
 * Rejects naming the url when it has not answered within `waitMs`.
 */
export async function startPreview({ stdio = 'ignore', waitMs = 20_000 } = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { stdio: ['ignore', stdio, stdio], env: { ...process.env, BUDDYLAB_PORT: String(port) } },
  );
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    server.kill('SIGTERM');
  };
  process.on('exit', stop);
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > until) {
      stop();
      throw new Error(`vite preview did not answer at ${url} within ${waitMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return { url, pid: server.pid, stop };
}
