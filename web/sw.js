// The service worker (served at /sw.js, so its scope is the whole site). The server fills in
// the client's hash and the list of its files when it serves this file (src/http/pwa.rs), so a
// new client is a new worker with a new cache, and the old caches go when it takes over.
//
// - Files under /v/<hash>/ (never changed under one hash): from the cache, precached on install.
// - Pages: from the network; when it cannot be reached, the offline page.
// - The client's files by their plain path (/i18n/…, icons): network first, cache as fallback.
//   Anything else (another hash, health checks, …) is left to the browser.
// - /api/ and /ws/ are never touched: the game's state is the server's, never a cached copy.
// - Push messages (JSON: game, kind, title, body) become notifications, unless this browser's
//   settings (IndexedDB, written by js/shared/notifysettings.js) turn that kind off; a click on one
//   focuses a tab of that game or opens it.

/* global self, caches, clients, indexedDB */
'use strict';

/** The client's hash, put here by the server. */
const HASH = '__DJAMBI_CLIENT_HASH__';
/** The client's files (paths under the web folder), put here by the server. */
const FILES = /** @type {string[]} */ ([/* __DJAMBI_CLIENT_FILES__ */]);
const CACHE = `djambi-${HASH}`;
const OFFLINE = '/offline.html';
const VERSIONED = `/v/${HASH}/`;

/** The kinds of push message, as the server sends them; anything else is ignored. */
const KINDS = ['your_turn', 'draw_offer', 'vote', 'takeback', 'deadline', 'game_over', 'circle_game'];
/** A UUID, as ids are. */
const UUID = /^[0-9a-f-]{36}$/;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([OFFLINE, ...FILES.map((f) => VERSIONED + f)]);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('djambi-') && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/ws/') || url.pathname === '/sw.js') return;
  if (req.mode === 'navigate') {
    event.respondWith(fetch(req).catch(() => offlinePage()));
  } else if (url.pathname.startsWith(VERSIONED)) {
    event.respondWith(cacheFirst(req));
  } else if (FILES.includes(url.pathname.slice(1))) {
    event.respondWith(networkFirst(req));
  }
});

/** The offline page from the cache (a plain answer if even that is missing). */
async function offlinePage() {
  const cached = await caches.match(OFFLINE);
  return cached || new Response('Djambi Online: offline', { status: 503, headers: { 'Content-Type': 'text/plain' } });
}

/** @param {Request} req */
async function cacheFirst(req) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(req);
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok) await cache.put(req, res.clone());
  return res;
}

/** @param {Request} req */
async function networkFirst(req) {
  const cache = await caches.open(CACHE);
  try {
    const res = await fetch(req);
    if (res.ok) await cache.put(req, res.clone());
    return res;
  } catch (e) {
    const hit = await cache.match(req);
    if (hit) return hit;
    throw e;
  }
}

/**
 * This browser's notification settings (see js/shared/notifysettings.js): the kinds turned off.
 * Missing or unreadable settings turn nothing off.
 * @returns {Promise<Record<string, boolean>>}
 */
function readSettings() {
  return new Promise((resolve) => {
    let open;
    try {
      open = indexedDB.open('djambi', 1);
    } catch {
      resolve({});
      return;
    }
    open.onupgradeneeded = () => open.result.createObjectStore('settings');
    open.onerror = () => resolve({});
    open.onsuccess = () => {
      const db = open.result;
      try {
        const get = db.transaction('settings', 'readonly').objectStore('settings').get('notify');
        get.onsuccess = () => {
          db.close();
          resolve(get.result && typeof get.result === 'object' ? get.result : {});
        };
        get.onerror = () => { db.close(); resolve({}); };
      } catch {
        db.close();
        resolve({});
      }
    };
  });
}

/**
 * A push message's payload, checked: null unless it is what the server sends.
 * @param {any} data
 */
function pushPayload(data) {
  let p;
  try { p = data ? data.json() : null; } catch { return null; }
  if (!p || typeof p !== 'object') return null;
  const ok = typeof p.game === 'string' && UUID.test(p.game) && KINDS.includes(p.kind)
    && typeof p.title === 'string' && typeof p.body === 'string'
    // A new game of a circle names its circle: the click opens the circle's page (its seats).
    && (p.kind !== 'circle_game' || (typeof p.circle === 'string' && UUID.test(p.circle)));
  if (!ok) return null;
  const circle = p.kind === 'circle_game' ? p.circle : null;
  return { game: p.game, circle, kind: p.kind, title: p.title.slice(0, 200), body: p.body.slice(0, 500) };
}

self.addEventListener('push', (event) => {
  event.waitUntil((async () => {
    const p = pushPayload(event.data);
    if (!p) return;
    const settings = await readSettings();
    if (settings[p.kind] === false) return;
    await self.registration.showNotification(p.title, {
      body: p.body,
      data: { game: p.game, circle: p.circle },
      tag: `${p.game}:${p.kind}`,
      icon: '/icons/icon-192.png',
    });
  })());
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  const game = data.game;
  if (typeof game !== 'string') return;
  const path = typeof data.circle === 'string' ? `/circle/${data.circle}` : `/game/${game}`;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const tab = open.find((c) => new URL(c.url).pathname === path);
    if (tab) return tab.focus();
    return self.clients.openWindow(path);
  })());
});
