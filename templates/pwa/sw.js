{% autoescape off %}// Service worker for the Big Two table companion, rendered by bigtwo_site.pwa.service_worker.
//
// - Static files (/static/...) come from the cache first: their deployed names carry a hash of
//   their contents, so a cached copy is never stale.
// - Page loads go to the network first; when it can't be reached, the cached offline page is
//   shown instead. No page but that one is cached: pages carry the signed-in user's name, CSRF
//   token and live scores, and a stale copy of any of them does harm.
// - Anything but a GET (recording a deal, logging in) and any fetch from a page (htmx) is left
//   alone, straight to the network, so the page itself sees a failure and can retry it.
//
// The cache is named after a digest of the precached files, so a deploy that changes any of
// them installs a new cache and deletes the old ones.
"use strict";

const CONFIG = {{ config }};
const CACHE = "bigtwo-" + CONFIG.version;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(CONFIG.precache);
      // Fetched without cookies: the cached offline page must not be anyone's own page.
      const offline = await fetch(
        new Request(CONFIG.offlineUrl, { credentials: "omit", cache: "reload" })
      );
      if (!offline.ok) {
        throw new Error("offline page: HTTP " + offline.status);
      }
      await cache.put(CONFIG.offlineUrl, offline);
      await self.skipWaiting();
    })()
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith("bigtwo-") && name !== CACHE)
          .map((name) => caches.delete(name))
      );
      if (self.registration.navigationPreload) {
        await self.registration.navigationPreload.enable();
      }
      await self.clients.claim();
    })()
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") {
    return;
  }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(networkFirst(event));
  } else if (url.pathname.startsWith(CONFIG.staticPrefix)) {
    event.respondWith(cacheFirst(event));
  }
});

async function networkFirst(event) {
  try {
    const preloaded = await event.preloadResponse;
    return preloaded || (await fetch(event.request));
  } catch (error) {
    const cache = await caches.open(CACHE);
    return (await cache.match(CONFIG.offlineUrl)) || Response.error();
  }
}

async function cacheFirst(event) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(event.request);
  if (cached) {
    return cached;
  }
  const response = await fetch(event.request);
  if (response.ok && response.type === "basic") {
    event.waitUntil(cache.put(event.request, response.clone()));
  }
  return response;
}
{% endautoescape %}
