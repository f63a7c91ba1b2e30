import { defineConfig, type Plugin } from 'vite';
import { lessonsPlugin } from './web/lessons/vite-plugin.ts';
import { fileURLToPath } from 'node:url';
import { coreHash } from './scripts/core-hash.mjs';
import { coreSourcePlugin } from './web/lessons/source-plugin.ts';
import { publishPlugin } from './web/shell/publish-plugin.ts';
import { fidelityPlugin } from './web/compare/fidelity-plugin.ts';
import { otherShippedSets } from './web/compare/shipped-sets.ts';

// Emscripten pthreads use a SharedArrayBuffer, which the browser only hands out to a
// cross-origin-isolated page: both the dev server and `vite preview` send these headers. A
// static host that sends none gets them from the app's service worker (public/sw.js).
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

// Content-Security-Policy for built pages: only what the app needs. Scripts from our
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
  // relative asset paths: the built folder works at any address (a host's root, /course/, ...)
  base: './',
  // the time machine's default runs and the default compare link's measured runs ship with the
  // lessons' tables (web/lessons/precompute.ts)
  plugins: [
    contentSecurityPolicy(),
    lessonsPlugin({ sets: otherShippedSets }),
    coreSourcePlugin(),
    fidelityPlugin(),
    publishPlugin(),
  ],
  // which core the WebAssembly build comes from (web/engine/core-hash.ts): results are keyed by it
  define: { __BLAB_CORE_HASH__: JSON.stringify(coreHash(fileURLToPath(new URL('.', import.meta.url)))) },
  server: { headers: isolation, port, strictPort: true },
  preview: { headers: isolation, port, strictPort: true },
  // one stylesheet, in the order the modules import it: the pages' code is split by route
  // (web/shell/course.ts), their CSS is not, so every page cascades as before (7 KB gzipped)
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true, sourcemap: true, cssCodeSplit: false },
  // The engine worker loads emscripten's classic loader with importScripts(), so it must be
  // a classic worker: bundle workers as IIFE, not ES modules.
  worker: { format: 'iife' },
});
