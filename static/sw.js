// Kartentisch's service worker: keeps the static files (styles, scripts, icons)
// so the app starts fast and installs. Pages, sync and the API always go to the
// network: a cached page could show a stale game, so none is ever kept.
// webapp/pwa.py fills in VERSION (a hash of the static files) and ASSETS.
"use strict";
const VERSION = "__VERSION__";
const ASSETS = "__ASSETS__";
const CACHE = "kartentisch-static-" + VERSION;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE)
      .then(function (cache) {
        return cache.addAll(ASSETS.map(function (url) { return new Request(url, { cache: "reload" }); }));
      })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names
          .filter(function (name) { return name.startsWith("kartentisch-static-") && name !== CACHE; })
          .map(function (name) { return caches.delete(name); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  const url = new URL(event.request.url);
  const isStatic = event.request.method === "GET" && url.origin === self.location.origin &&
    ASSETS.indexOf(url.pathname + url.search) !== -1;  // the exact URLs the pages load (hashed names)
  if (!isStatic) return;  // network only: the browser fetches it as if there were no worker
  event.respondWith(
    caches.open(CACHE).then(function (cache) {
      return cache.match(event.request).then(function (hit) { return hit || fetch(event.request); });
    })
  );
});
