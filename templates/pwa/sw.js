{% autoescape off %}{% comment %}
// Service worker for the Big Two table companion, rendered by bigtwo_site.pwa.service_worker.
//
// - Static files (/static/...) come from the cache first: their deployed names carry a hash of
//   their contents, so a cached copy is never stale.
// - Page loads go to the network first; when it can't be reached, the cached offline page is
//   shown instead. Of the pages that carry a signed-in user's name, CSRF token and scores, only
//   game pages are kept (in PAGES, for a day at most), so that a game goes on offline
//   (static/js/waiting-deals.js, which also stores the page as it shows once a deal waits).
//   Each copy names the account it was made for (a digest, in CONFIG.accountHeader;
//   bigtwo_site/pwa.py): the network's in its header, the page's own from the page
//   (data-signed-in-as). PAGES notes the account the network last named (under SIGNED_IN), and
//   a copy is shown only to that account: a tab another account left open, recording a deal
//   offline, never leaves its game to the one signed in now. A page for another account than
//   noted throws the kept pages away before it is shown, however the session changed hands;
//   sending a form that changes who is signed in (logging in or out, signing up, deleting the
//   account) throws them away at once, and notes nobody until a page names the new account.
//   With nobody noted (a worker that has seen no page yet), no copy is shown.
// - A copy is shown without what its page said once (Django's messages, "Deal 2 changed.", and
//   the deal form's notice), which the templates mark <!--once-->…<!--/once-->.
// - Anything but a GET (recording a deal, logging in) and any fetch from a page (htmx) is left
//   alone, straight to the network, so the page itself sees a failure and can retry it.
//
// The cache is named after a digest of the precached files, so a deploy that changes any of
// them installs a new cache and deletes the old ones.
(In a template comment: it costs the phone no download.)
{% endcomment %}"use strict";

const CONFIG = {{ config }};
const CACHE = "bigtwo-" + CONFIG.version;
const PAGES = "game-pages";
// Not a page: where PAGES notes the account the network last named.
const SIGNED_IN = "/sw/signed-in";
const ONCE = /<!--once-->[^]*?<!--\/once-->/g;
const DAY = 24 * 60 * 60 * 1000;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(CONFIG.precache);
      // Fetched without cookies: the cached offline page must not be anyone's own page.
      await cache.add(new Request(CONFIG.offlineUrl, { credentials: "omit", cache: "reload" }));
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
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.method !== "GET") {
    if (request.mode === "navigate" && CONFIG.accountChanges.includes(url.pathname)) {
      event.waitUntil(noteSignedIn("?")); // nobody's yet: no copy is shown until a page names them
    }
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(networkFirst(event));
  } else if (url.pathname.startsWith(CONFIG.staticPrefix)) {
    event.respondWith(cacheFirst(event));
  }
});

async function networkFirst(event) {
  const gamePage = new RegExp(CONFIG.gamePage).test(new URL(event.request.url).pathname);
  try {
    const preloaded = await event.preloadResponse;
    const response = preloaded || (await fetch(event.request));
    const account = response.headers.get(CONFIG.accountHeader);
    if (account !== null) {
      await noteSignedIn(account);
      if (gamePage && response.ok && !response.redirected) {
        event.waitUntil(keepPage(event.request, response.clone()));
      }
    }
    return response;
  } catch (error) {
    const kept = gamePage && (await caches.match(event.request, { cacheName: PAGES, ignoreSearch: true }));
    if (kept && kept.headers.get(CONFIG.accountHeader) === (await signedIn()) && Date.now() - Date.parse(kept.headers.get("Date")) < DAY) {
      return new Response((await kept.text()).replace(ONCE, ""), kept); // its status and headers
    }
    const cache = await caches.open(CACHE);
    return (await cache.match(CONFIG.offlineUrl)) || Response.error();
  }
}

async function keepPage(request, response) {
  await (await caches.open(PAGES)).put(request, response);
}

// The account the network last named, or undefined before any.
async function signedIn() {
  return (await caches.match(SIGNED_IN, { cacheName: PAGES }))?.text();
}

// Note `account` as the one signed in: another than noted, and the kept pages go first.
async function noteSignedIn(account) {
  if ((await signedIn()) !== account) {
    await caches.delete(PAGES);
    await (await caches.open(PAGES)).put(SIGNED_IN, new Response(account));
  }
}

async function cacheFirst(event) {
  const cache = await caches.open(CACHE);
  // Also in PAGES: the scripts of a game page, kept there by the page (waiting-deals.js).
  const cached = await caches.match(event.request);
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
