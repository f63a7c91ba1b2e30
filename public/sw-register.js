/*
 * Registers buddylab's service worker (sw.js, next to this file) before the app starts, and
 * reloads the page once if that is what it takes to make it cross-origin isolated (a static
 * host sends no COOP/COEP; the worker adds them). The build stamps its version into
 * <meta name="buddylab-version">; the dev server says "dev" and gets no worker (it sends the
 * headers itself, and cached files would hide edits).
 */
(function () {
  'use strict';
  var meta = document.querySelector('meta[name="buddylab-version"]');
  var version = meta ? meta.getAttribute('content') : 'dev';
  // the offline copy is keyed by the version and the files' content hash (a rebuild of the
  // same version with other files is a new copy)
  var content = document.querySelector('meta[name="buddylab-content"]');
  if (version === 'dev' || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  var here = document.currentScript ? document.currentScript.src : location.href;
  var key = version + (content ? '.' + content.getAttribute('content') : '');
  var url = new URL('sw.js?v=' + encodeURIComponent(key), here);
  var KEY = 'buddylab-isolation-reload';
  navigator.serviceWorker.register(url.href).then(
    function (reg) {
      // isolated already (the host sent the headers, or the worker answered this page)
      if (window.crossOriginIsolated) {
        sessionStorage.removeItem(KEY);
        return;
      }
      // once only: a browser that will not isolate the page must not reload for ever
      if (sessionStorage.getItem(KEY)) return;
      var reload = function () {
        sessionStorage.setItem(KEY, '1');
        location.reload();
      };
      // controlled but not isolated (the page came before the worker), or active but not in
      // control (a hard reload): a plain reload goes through the worker; else wait for it
      if (navigator.serviceWorker.controller || reg.active) reload();
      else navigator.serviceWorker.addEventListener('controllerchange', reload);
    },
    function (err) {
      console.warn('buddylab: the service worker did not register (' + err + '): no offline copy, and no threads on a host without COOP/COEP');
    },
  );
})();
