// The site's service worker: shows what the server pushes (Web Push: a match's news)
// and opens the match when the notification is clicked; and for a navigation that
// finds no network, the offline page, which it keeps in the reader's language. It keeps
// nothing else: every other request, the API's above all, goes to the network as if
// there were no worker.
const OFFLINE = "/offline";
const CACHE = "jackpot-offline-1";

async function keepOfflinePage() {
  const cache = await caches.open(CACHE);
  await cache.add(new Request(OFFLINE, { cache: "reload" }));
}

/** Fetch the offline page again when the reader's language is no longer the one it has. */
async function followLanguage(response) {
  const lang = response.headers.get("content-language");
  if (!lang || !response.ok) return;
  const kept = await caches.match(OFFLINE);
  if (kept && kept.headers.get("content-language") === lang) return;
  await keepOfflinePage().catch(() => {});
}

self.addEventListener("install", (event) => {
  // Where the browser can route by itself, requests that are no navigation never
  // wake this worker (the static routing API); elsewhere the fetch handler passes them.
  try {
    if (event.addRoutes) {
      event.addRoutes([{ condition: { not: { requestMode: "navigate" } }, source: "network" }])
        .catch(() => {});
    }
  } catch { /* a browser that knows no such condition: the fetch handler passes them */ }
  event.waitUntil(keepOfflinePage().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate") return;
  event.respondWith((async () => {
    try {
      const response = (await event.preloadResponse) || (await fetch(event.request));
      event.waitUntil(followLanguage(response));
      return response;
    } catch {
      return (await caches.match(OFFLINE)) || Response.error();
    }
  })());
});

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = {}; }
  const title = data.title || "Jackpot";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    tag: data.tag,
    data: { url: data.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) return;  // only ever our own pages
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of open) {
      if (client.url === url.href && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(url.href);
  })());
});
