// The installable app (issue 23 item 1), in Chromium against the real server: the web app
// manifest and its icons, the service worker (registered, in control after a reload, its cache
// named after the client's hash, old caches gone, /api/ never cached), the offline page when the
// server is down, Chromium's own installability check, and push messages shown as
// notifications unless this browser's settings turn their kind off.
// Installability and push need a real profile (Chromium reports "in-incognito" for a plain
// context): those tests use a persistent context in a temporary folder.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, seriousViolations, sharedServerAndBrowser, shotPath, startServer } from './harness.mjs';

const env = sharedServerAndBrowser();
/** The profile folders of the persistent contexts, removed at the end. @type {string[]} */
const profiles = [];
after(() => {
  for (const dir of profiles) rmSync(dir, { recursive: true, force: true });
});

/** A Chromium with a profile on disk (not incognito), as an installed app would have. */
async function persistentContext() {
  const { chromium } = await import('playwright-core');
  const dir = mkdtempSync(join(tmpdir(), 'djambi-profile-'));
  profiles.push(dir);
  return chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true,
    viewport: { width: 1280, height: 900 },
  });
}

/** The client's hash, as index.html names its files (`/v/<hash>/…`). */
async function clientHash() {
  const html = await (await fetch(`${env.server.base}/`)).text();
  const m = /\/v\/([0-9a-f]+)\/js\/app\.js/.exec(html);
  assert.ok(m, 'index.html loads app.js under the hash');
  return m[1];
}

/** The width and height a PNG file declares (its IHDR chunk). @param {Uint8Array} bytes */
function pngSize(bytes) {
  assert.deepEqual([...bytes.slice(1, 4)], [0x50, 0x4e, 0x47], 'a PNG file');
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return `${view.getUint32(16)}x${view.getUint32(20)}`;
}

test('the manifest: its members, and icons of the sizes it says (one maskable)', async () => {
  const res = await fetch(`${env.server.base}/manifest.webmanifest`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/manifest+json');
  assert.equal(res.headers.get('cache-control'), 'no-cache');
  const m = await res.json();
  assert.equal(m.name, 'Djambi Online');
  assert.equal(m.short_name, 'Djambi');
  assert.equal(m.start_url, '/');
  assert.equal(m.display, 'standalone');
  assert.match(m.theme_color, /^#[0-9a-f]{6}$/);
  assert.match(m.background_color, /^#[0-9a-f]{6}$/);
  const sizes = [];
  for (const icon of m.icons) {
    const img = await fetch(env.server.base + icon.src);
    assert.equal(img.status, 200, icon.src);
    assert.equal(img.headers.get('content-type'), 'image/png', icon.src);
    assert.equal(pngSize(new Uint8Array(await img.arrayBuffer())), icon.sizes, icon.src);
    sizes.push(`${icon.sizes} ${icon.purpose}`);
  }
  assert.deepEqual(sizes.sort(), ['192x192 any', '512x512 any', '512x512 maskable']);
  // The page links it at the root (not under the hash), with the theme colour.
  const html = await (await fetch(`${env.server.base}/`)).text();
  assert.match(html, /<link rel="manifest" href="\/manifest\.webmanifest">/);
  assert.match(html, new RegExp(`<meta name="theme-color" content="${m.theme_color}">`));
});

test('/sw.js carries the client\'s hash; other methods are refused in the API\'s shape', async () => {
  const hash = await clientHash();
  const res = await fetch(`${env.server.base}/sw.js`);
  assert.equal(res.status, 200);
  assert.match(String(res.headers.get('content-type')), /^text\/javascript/);
  assert.equal(res.headers.get('cache-control'), 'no-cache');
  assert.equal(res.headers.get('etag'), `"${hash}"`);
  const body = await res.text();
  assert.ok(body.includes(`const HASH = '${hash}';`), 'the hash is put in');
  assert.ok(!body.includes('__DJAMBI_CLIENT'), 'no slot is left');
  assert.match(body, /"js\/app\.js"/);
  assert.equal((await fetch(`${env.server.base}/sw.js`, { headers: { 'If-None-Match': `"${hash}"` } })).status, 304);
  const post = await fetch(`${env.server.base}/sw.js`, { method: 'POST' });
  assert.equal(post.status, 405);
  assert.equal((await post.json()).error.code, 'method_not_allowed');
});

test('the service worker registers, controls the page after a reload, keeps the client under its hash, and deletes old caches', { timeout: 60_000 }, async () => {
  const hash = await clientHash();
  const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // A cache from an older client, made before any worker runs here.
  await page.goto(`${env.server.base}/offline.html`);
  await page.evaluate(() => caches.open('djambi-0123456789ab').then((c) => c.put('/old', new Response('old'))));
  await page.goto(`${env.server.base}/`);
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  assert.equal(scope, `${env.server.base}/`);
  await page.reload();
  await page.locator('form button[type=submit]').waitFor();
  assert.equal(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)), true);
  const cached = await page.evaluate(async () => {
    const names = await caches.keys();
    const keys = names.length === 1 ? await (await caches.open(names[0])).keys() : [];
    return { names, urls: keys.map((r) => new URL(r.url).pathname) };
  });
  assert.deepEqual(cached.names, [`djambi-${hash}`], 'only this client\'s cache is left');
  for (const path of ['/offline.html', `/v/${hash}/js/app.js`, `/v/${hash}/css/app.css`, `/v/${hash}/data/rules-examples.json`]) {
    assert.ok(cached.urls.includes(path), `${path} is precached`);
  }
  // The API goes to the network and is never kept.
  await page.evaluate(() => fetch('/api/games?status=open').then((r) => r.json()));
  const apiKept = await page.evaluate(async () => (await (await caches.open((await caches.keys())[0])).keys()).filter((r) => new URL(r.url).pathname.startsWith('/api/')).length);
  assert.equal(apiKept, 0);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('Chromium finds the site installable; with the server down a page is the offline page', { timeout: 90_000 }, async () => {
  const own = await startServer();
  const ctx = await persistentContext();
  try {
    const page = await ctx.newPage();
    await page.goto(`${own.base}/`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await page.locator('form button[type=submit]').waitFor();
    const cdp = await ctx.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, []);
    const manifest = await cdp.send('Page.getAppManifest');
    assert.deepEqual(manifest.errors, []);

    await own.stop(false);
    await page.goto(`${own.base}/rules`);
    await page.getByRole('heading', { name: 'You are offline' }).waitFor();
    await page.getByRole('link', { name: 'Try again' }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await page.screenshot({ path: shotPath('pwa-offline.png') });
    // In French, from the language the client keeps.
    await page.evaluate(() => localStorage.setItem('djambi.lang', 'fr'));
    await page.goto(`${own.base}/game/2f1c4b8e-3a57-4d9e-9c1a-8f0e6b5d4a21`);
    await page.getByRole('heading', { name: 'Vous êtes hors ligne' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr');
  } finally {
    await ctx.close();
    await own.stop();
  }
});

test('a push message is a notification that names its game, unless the settings turn its kind off', { timeout: 60_000 }, async () => {
  const ctx = await persistentContext();
  try {
    await ctx.grantPermissions(['notifications'], { origin: env.server.base });
    const page = await ctx.newPage();
    await page.goto(`${env.server.base}/`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    const cdp = await ctx.newCDPSession(page);
    /** @type {string[]} */
    const ids = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => ids.push(...e.registrations.filter((r) => !r.isDeleted).map((r) => r.registrationId)));
    await cdp.send('ServiceWorker.enable');
    for (let i = 0; i < 20 && !ids.length; i++) await page.waitForTimeout(100);
    assert.ok(ids.length, 'the worker is registered');
    const game = '2f1c4b8e-3a57-4d9e-9c1a-8f0e6b5d4a21';
    /** @param {any} payload */
    const push = (payload) => cdp.send('ServiceWorker.deliverPushMessage', { origin: env.server.base, registrationId: ids[0], data: JSON.stringify(payload) });
    const shown = () => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications())
      .map((n) => ({ title: n.title, body: n.body, tag: n.tag, game: n.data && n.data.game })));

    /** The notifications shown, once there are `n` of them (or after 5 s). @param {number} n */
    const shownWhen = async (n) => {
      for (let i = 0; i < 50; i++) {
        const list = await shown();
        if (list.length >= n) return list;
        await page.waitForTimeout(100);
      }
      return shown();
    };

    await push({ game, kind: 'your_turn', title: 'Your turn — Djambi', body: 'It is your turn to play Red.' });
    assert.deepEqual(await shownWhen(1), [{ title: 'Your turn — Djambi', body: 'It is your turn to play Red.', tag: `${game}:your_turn`, game }]);

    // Draw offers turned off in the lobby's settings: such a message shows nothing.
    await page.getByText('Notifications and sounds').click();
    await page.getByLabel('Draw offers').uncheck();
    const saved = () => page.evaluate(() => new Promise((ok) => {
      const open = indexedDB.open('djambi', 1);
      open.onsuccess = () => {
        const get = open.result.transaction('settings').objectStore('settings').get('notify');
        get.onsuccess = () => { open.result.close(); ok(get.result || null); };
      };
    }));
    for (let i = 0; i < 50 && !(await saved()); i++) await page.waitForTimeout(100);
    assert.equal((/** @type {any} */ (await saved())).draw_offer, false, 'the setting is in IndexedDB, where the worker reads it');
    await push({ game, kind: 'draw_offer', title: 'Draw offered', body: 'Blue offers a draw.' });
    // A malformed message is dropped too; the next good one still shows.
    await push({ game: 'not-an-id', kind: 'your_turn', title: 'x', body: 'y' });
    await push({ game, kind: 'game_over', title: 'Game over', body: 'Blue wins.' });
    await shownWhen(2);
    await page.waitForTimeout(300); // time for a wrongly shown one to appear too
    assert.deepEqual((await shown()).map((n) => n.tag).sort(), [`${game}:game_over`, `${game}:your_turn`]);
  } finally {
    await ctx.close();
  }
});
