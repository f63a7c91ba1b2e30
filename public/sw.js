/*
 * buddylab's service worker: cross-origin isolation on hosts that send no headers, and the
 * course offline after one visit.
 *
 * Isolation: the WebAssembly core uses threads, so the page must be cross-origin isolated. A
 * static host (GitHub Pages, a course page) cannot send COOP/COEP, so every response this
 * worker hands the page gets them added (what coi-serviceworker does; a scope has room for one
 * service worker only, so this one does both jobs).
 *
 * Offline: on install it caches every file of the build (sw-manifest.json, written by the
 * build: the app shell, its scripts and styles, the WebAssembly core, the lessons and their
 * tables), in a cache named after the build's version and content (sw.js?v=VERSION.HASH). Pages then load
 * from the network when there is one and from the cache when there is not (lecture-hall
 * Wi-Fi); everything else is served from the cache first. A new version's worker takes over
 * and drops the older caches.
 */
'use strict';

const VERSION = new URL(self.location.href).searchParams.get('v') || 'unversioned';
const CACHE = `buddylab-${VERSION}`;
const SCOPE = new URL(self.registration.scope);

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const res = await fetch(new URL(`sw-manifest.json?v=${encodeURIComponent(VERSION)}`, SCOPE), { cache: 'reload' });
      if (!res.ok) throw new Error(`sw-manifest.json: HTTP ${res.status}`);
      const manifest = await res.json();
      const cache = await caches.open(CACHE);
      // every file of the build, fresh from the network (never the HTTP cache's older copy)
      await cache.addAll(manifest.files.map((f) => new Request(new URL(f, SCOPE), { cache: 'reload' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith('buddylab-') && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

/** The response with the isolation headers added (an opaque one is passed as it is). */
function isolated(response) {
  if (!response || response.status === 0) return response;
  const headers = new Headers(response.headers);
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Resource-Policy', 'cross-origin');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The app's page (index.html) from the cache, for any address of the app while offline. */
async function cachedPage() {
  const cache = await caches.open(CACHE);
  return (await cache.match(new URL('index.html', SCOPE).href)) || (await cache.match(SCOPE.href));
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  if (req.cache === 'only-if-cached' && req.mode !== 'same-origin') return;
  const url = new URL(req.url);
  const ours = url.origin === SCOPE.origin && url.pathname.startsWith(SCOPE.pathname);
  if (!ours) {
    event.respondWith(fetch(req).then(isolated));
    return;
  }
  if (req.mode === 'navigate') {
    // a page: the network's newest when online, the cached one when not
    event.respondWith(
      fetch(req)
        .then(isolated)
        .catch(async () => isolated(await cachedPage()) || Response.error()),
    );
    return;
  }
  // scripts, styles, the core, lesson data: from the cache first (ignoring ?query), else the network
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const hit = await cache.match(req, { ignoreSearch: true });
      if (hit) return isolated(hit);
      return isolated(await fetch(req));
    })(),
  );
});
