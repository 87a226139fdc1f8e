// Web Push (issue 23 item 2), in Chromium against the real server (with --push-allow-loopback):
// a browser that allows notifications and holds a seat subscribes with the server's key and gives
// the server its subscription for the seat; when the seat's turn comes with no tab of it open,
// the server pushes to the subscription's endpoint — here a push service run by this test on
// 127.0.0.1, since headless Chromium has no push service of its own: the page's PushManager is
// given a PushSubscription of that endpoint (with real P-256 keys), everything else is real.
// The lobby's card says where push stands, turns it off (the server forgets the subscription),
// and says so honestly where the browser has no push. Desktop and phone, axe, 360 px.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { generateKeyPairSync, randomBytes } from 'node:crypto';

process.env.DJAMBI_PUSH_ALLOW_LOOPBACK = 'true';
const { sharedServerAndBrowser, api, shotPath, seriousViolations, playAnyTurn, seededRandom } = await import('./harness.mjs');

const env = sharedServerAndBrowser();

/** @type {{path: string, encoding: string, authorization: string, length: number}[]} */
const pushes = [];
/** @type {import('node:http').Server} */
let service;
let serviceOrigin = '';

before(async () => {
  service = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      pushes.push({
        path: req.url || '',
        encoding: String(req.headers['content-encoding'] || ''),
        authorization: String(req.headers.authorization || ''),
        length: Buffer.concat(chunks).length,
      });
      res.writeHead(201).end();
    });
  });
  await new Promise((ok) => service.listen(0, '127.0.0.1', ok));
  const addr = /** @type {import('node:net').AddressInfo} */ (service.address());
  serviceOrigin = `http://127.0.0.1:${addr.port}`;
});

after(() => new Promise((ok) => service.close(ok)));

/** A browser's subscription keys: a real P-256 public key and a 16-byte secret, base64url. */
function browserKeys() {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(String(jwk.x), 'base64url'), Buffer.from(String(jwk.y), 'base64url')]);
  return { p256dh: point.toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

/**
 * A context whose pages' PushManager hands out a subscription of `endpoint` (the test's push
 * service), recording the calls in window.__push; with `endpoint` null, no Push API at all.
 * @param {object} options @param {string | null} endpoint
 */
async function pushContext(options, endpoint) {
  const ctx = await env.browser.newContext(options);
  await ctx.grantPermissions(['notifications'], { origin: env.server.base });
  await ctx.addInitScript((sub) => {
    const w = /** @type {any} */ (window);
    if (!sub) {
      delete w.PushManager;
      return;
    }
    w.__push = [];
    const KEY = 'test.push.subscribed';
    const made = () => ({
      endpoint: sub.endpoint,
      expirationTime: null,
      toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
      unsubscribe: async () => {
        w.__push.push('unsubscribe');
        sessionStorage.removeItem(KEY);
        return true;
      },
    });
    PushManager.prototype.getSubscription = async function () {
      return sessionStorage.getItem(KEY) ? made() : null;
    };
    PushManager.prototype.subscribe = async function (opts) {
      const key = btoa(String.fromCharCode(...new Uint8Array(opts.applicationServerKey)))
        .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      w.__push.push(`subscribe ${opts.userVisibleOnly} ${key}`);
      sessionStorage.setItem(KEY, '1');
      return made();
    };
  }, endpoint ? { endpoint, keys: browserKeys() } : null);
  return ctx;
}

/** A standard game, every seat claimed through the API: its id and tokens in base order. */
async function claimedGame() {
  const created = await api(env.server.base, '/api/games', { players: 4 });
  const tokens = [];
  for (const [i, seat] of created.seats.entries()) {
    await api(env.server.base, `/api/games/${created.id}/seats`, { name: ['Ann', 'Bea', 'Cid', 'Dee'][i], token: seat.token });
    tokens.push(seat.token);
  }
  return { id: created.id, tokens };
}

/** Puts a seat in a page's storage, as the game page keeps it. @param {import('playwright-core').Page} page */
async function holdSeat(page, id, player, token) {
  await page.goto(env.server.base + '/rules');
  await page.evaluate(([k, v]) => localStorage.setItem(k, v), [`djambi.seat.${id}`, JSON.stringify({ player, token })]);
}

test('a seat held here is subscribed; its turn is pushed when no tab of it is open', { timeout: 90_000 }, async () => {
  const { id, tokens } = await claimedGame();
  const { key } = await api(env.server.base, '/api/push/key');
  const endpoint = `${serviceOrigin}/push/blue`;
  const ctx = await pushContext({ viewport: { width: 1280, height: 900 } }, endpoint);
  const page = await ctx.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await holdSeat(page, id, 'b', tokens[1]);
  const posted = page.waitForResponse((r) => r.url().endsWith(`/api/games/${id}/push`) && r.request().method() === 'POST');
  await page.goto(`${env.server.base}/game/${id}`);
  const answer = await posted;
  assert.equal(answer.status(), 201);
  const body = answer.request().postDataJSON();
  assert.equal(body.token, tokens[1]);
  assert.equal(body.lang, 'en');
  assert.equal(body.subscription.endpoint, endpoint);
  assert.deepEqual(Object.keys(body.subscription.keys).sort(), ['auth', 'p256dh']);
  assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).__push), [`subscribe true ${key}`]);
  // A reload gives nothing new to the server.
  let again = 0;
  page.on('request', (r) => { if (r.url().endsWith('/push') && r.method() === 'POST') again++; });
  await page.reload();
  await page.locator('.turn-banner').waitFor();
  await page.waitForTimeout(500);
  assert.equal(again, 0);
  await page.close();

  // Red plays in another browser; blue has no tab open: its push service gets the push.
  const red = await (await env.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await holdSeat(red, id, 'r', tokens[0]);
  await red.goto(`${env.server.base}/game/${id}`);
  await red.locator('.turn-banner.mine').waitFor();
  await playAnyTurn(red, seededRandom(5));
  for (let i = 0; i < 100 && !pushes.some((p) => p.path === '/push/blue'); i++) await red.waitForTimeout(100);
  const push = pushes.find((p) => p.path === '/push/blue');
  assert.ok(push, 'blue is pushed');
  assert.equal(push.encoding, 'aes128gcm');
  assert.match(push.authorization, new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${key}$`));
  assert.ok(push.length > 86, 'an encrypted payload (header and record)');
  await red.context().close();
  assert.deepEqual(errors, []);
  await ctx.close();
});

const SCREENS = /** @type {const} */ ([
  ['desktop', { viewport: { width: 1280, height: 900 } }],
  ['phone', { viewport: { width: 360, height: 800 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
]);

for (const [name, options] of SCREENS) {
  test(`${name}: the card says push is on, turns it off (the server forgets it), and on again`, { timeout: 60_000 }, async () => {
    const { id, tokens } = await claimedGame();
    const ctx = await pushContext(options, `${serviceOrigin}/push/card-${name}`);
    const page = await ctx.newPage();
    /** @type {string[]} */
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await holdSeat(page, id, 'y', tokens[2]);
    const posted = page.waitForResponse((r) => r.url().endsWith(`/api/games/${id}/push`) && r.request().method() === 'POST');
    await page.goto(env.server.base + '/');
    const card = page.locator('section.notify-settings');
    await card.getByText('Notifications and sounds').click();
    assert.equal((await posted).status(), 201);
    const toggle = card.getByLabel("Also when Djambi is closed (through this browser's push service)");
    await card.getByText('This browser is told about the games it holds, even with every Djambi tab closed.').waitFor();
    assert.equal(await toggle.isChecked(), true);
    assert.deepEqual(await seriousViolations(page), []);
    await card.screenshot({ path: shotPath(`push-card-on-${name}.png`) });

    const deleted = page.waitForResponse((r) => r.url().endsWith(`/api/games/${id}/push`) && r.request().method() === 'DELETE');
    await toggle.uncheck();
    assert.equal((await deleted).status(), 204);
    await card.getByText('Notifications come only while a Djambi tab is open.').waitFor();
    assert.ok((await page.evaluate(() => /** @type {any} */ (window).__push)).includes('unsubscribe'));
    await page.reload();
    await card.getByText('Notifications and sounds').click();
    await card.getByText('Notifications come only while a Djambi tab is open.').waitFor();
    assert.equal(await toggle.isChecked(), false, 'off is remembered');
    await card.screenshot({ path: shotPath(`push-card-off-${name}.png`) });

    const postedAgain = page.waitForResponse((r) => r.url().endsWith(`/api/games/${id}/push`) && r.request().method() === 'POST');
    await toggle.check();
    assert.equal((await postedAgain).status(), 201);
    await card.getByText('This browser is told about the games it holds, even with every Djambi tab closed.').waitFor();
    if (name === 'phone') {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 360, `${width} px wide`);
    }
    assert.deepEqual(errors, []);
    await ctx.close();
  });
}

test('forgetting a game takes its subscription back', { timeout: 60_000 }, async () => {
  const { id, tokens } = await claimedGame();
  const ctx = await pushContext({ viewport: { width: 1280, height: 900 } }, `${serviceOrigin}/push/forget`);
  const page = await ctx.newPage();
  await holdSeat(page, id, 'g', tokens[3]);
  const posted = page.waitForResponse((r) => r.url().endsWith(`/api/games/${id}/push`) && r.request().method() === 'POST');
  await page.goto(env.server.base + '/');
  assert.equal((await posted).status(), 201);
  const deleted = page.waitForResponse((r) => r.url().endsWith(`/api/games/${id}/push`) && r.request().method() === 'DELETE');
  await page.locator('.your-games button.forget').first().click();
  await page.locator('dialog[open] button[value=ok]').click();
  const answer = await deleted;
  assert.equal(answer.status(), 204);
  assert.equal(answer.request().postDataJSON().token, tokens[3]);
  await ctx.close();
});

test('a browser without push is told that notifications come only while a tab is open', { timeout: 60_000 }, async () => {
  const ctx = await pushContext({ viewport: { width: 360, height: 800 } }, null);
  const page = await ctx.newPage();
  await page.goto(env.server.base + '/');
  await page.selectOption('#lang', 'fr');
  const card = page.locator('section.notify-settings');
  await card.getByText('Notifications et sons').click();
  await card.getByText("Ce navigateur ne peut pas recevoir de notifications quand Djambi est fermé : vous n'êtes prévenu que si un onglet Djambi est ouvert.").waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  await card.screenshot({ path: shotPath('push-card-unsupported-phone-fr.png') });
  await ctx.close();
});
