import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig, type Plugin } from 'vite';

// Emscripten pthreads use a SharedArrayBuffer, which the browser only hands out to a
// cross-origin-isolated page: both the dev server and `vite preview` send these headers.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

// Static hosts that cannot send headers get isolation from coi-serviceworker instead. The file
// comes from npm (no vendored copy to go stale): served in dev, emitted into dist/ on build.
const require = createRequire(import.meta.url);
function coiServiceWorker(): Plugin {
  const file = require.resolve('coi-serviceworker/coi-serviceworker.min.js');
  const name = 'coi-serviceworker.js';
  return {
    name: 'buddylab-coi-serviceworker',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url !== `/${name}`) return next();
        res.setHeader('Content-Type', 'text/javascript');
        res.end(readFileSync(file));
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: name, source: readFileSync(file) });
    },
  };
}

const port = Number(process.env['BUDDYLAB_PORT'] ?? 5173);

export default defineConfig({
  plugins: [coiServiceWorker()],
  server: { headers: isolation, port, strictPort: true },
  preview: { headers: isolation, port, strictPort: true },
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true, sourcemap: true },
});
