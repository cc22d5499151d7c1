// The service worker: makes the site installable and shows an offline page when a page
// cannot be loaded. It keeps nothing else: scripts, styles and every API answer always
// come from the server, so a new version of the client is live at the next load and no
// game state is ever served from a cache. Play needs the server (and its WebSocket);
// there is no offline play.

/** This worker's global scope, typed as what it is (the type check's library names it). */
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const CACHE = "cardtable-offline-v1";
// What the offline page needs: itself (self-contained) and the icons it may show.
const OFFLINE = "/offline.html";
const KEEP = [OFFLINE, "/icons/icon.svg", "/icons/icon-192.png", "/manifest.webmanifest"];

worker.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(KEEP))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener("activate", (event) => {
  // Drop the caches of earlier versions, then serve open pages at once.
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener("fetch", (event) => {
  // Only page loads are answered here: from the network, or the offline page when the
  // network fails. Everything else goes to the network untouched.
  if (event.request.mode !== "navigate") return;
  event.respondWith(
    fetch(event.request).catch(() =>
      caches.match(OFFLINE).then((page) => page || new Response("offline", { status: 503 })),
    ),
  );
});
