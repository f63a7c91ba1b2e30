import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig, type Plugin } from 'vite';
import { lessonsPlugin } from './web/lessons/vite-plugin.ts';
import { coreSourcePlugin } from './web/lessons/source-plugin.ts';

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

// Content-Security-Policy for built pages (issue 9): only what the app needs. Scripts from our
// own origin, WebAssembly compilation, workers (Emscripten pthreads may start them from blobs);
// no inline script, no eval, no remote anything. Styles set through the CSSOM by d3 are allowed
// by CSP; 'unsafe-inline' for style-src covers style attributes only, not scripts.
export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'buddylab-csp',
    apply: 'build', // the dev server injects inline HMR code; the built page has none
    transformIndexHtml() {
      return [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP }, injectTo: 'head-prepend' }];
    },
  };
}

const port = Number(process.env['BUDDYLAB_PORT'] ?? 5173);

export default defineConfig({
  plugins: [coiServiceWorker(), contentSecurityPolicy(), lessonsPlugin(), coreSourcePlugin()],
  server: { headers: isolation, port, strictPort: true },
  preview: { headers: isolation, port, strictPort: true },
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true, sourcemap: true },
  // The engine worker loads emscripten's classic loader with importScripts(), so it must be
  // a classic worker: bundle workers as IIFE, not ES modules.
  worker: { format: 'iife' },
});
