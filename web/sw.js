// Holecard's service worker: keeps this build's files so a second visit starts from them and the table plays with
// no network. web/pack.mjs writes BUILD and FILES for each build.
//
// - Installing caches every file of the build (the module, the glue, the loader, the page, every asset, sounds
//   included) under `holecard-<BUILD>`. The files the page has just downloaded come from the browser's own cache,
//   not the network again (holecard-server lets a browser keep them: their names carry their contents' hash).
// - It takes over at once and deletes every other build's cache, so a new build replaces the old one cleanly.
// - The page itself is asked of the network first (so a new build is seen as soon as it is out) and taken from the
//   cache when there is no network; every other file of the build comes from the cache first. Anything else (the
//   casino's /api and its WebSocket, another site) is left to the network, untouched.
const BUILD = "__BUILD__";
const FILES = ["__FILES__"];
const CACHE = `holecard-${BUILD}`;
const kept = new Set(FILES.map((file) => new URL(file, self.registration.scope).href));
const PAGE = new URL('./', self.registration.scope).href;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(FILES);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('holecard-') && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// The page, from the network while there is one; the one this build cached when there is not.
async function page(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) return response;
    return (await cache.match(PAGE)) ?? response;
  } catch (error) {
    const cachedPage = await cache.match(PAGE);
    if (cachedPage) return cachedPage;
    throw error;
  }
}

// A file of this build, from the cache; fetched (and kept) if it is not there yet.
async function file(request) {
  const cache = await caches.open(CACHE);
  const cachedFile = await cache.match(request);
  if (cachedFile) return cachedFile;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  url.search = '';
  url.hash = '';
  if (request.mode === 'navigate' && (url.href === PAGE || url.href === `${PAGE}index.html`)) {
    event.respondWith(page(request));
  } else if (kept.has(url.href)) {
    event.respondWith(file(request));
  }
});
