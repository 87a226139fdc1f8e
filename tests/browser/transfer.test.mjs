// Your games on every device (issue 23 item 3), in Chromium against the real server: "Open my
// games on another device" shows a QR code and a /transfer#… link; a second browser opening the
// link sees the games it carries, imports them on a click into its own "Your games" (and plays
// the seat), while no request of it carries a token; a malformed link is refused and keeps
// nothing; a game is forgotten on one device only once confirmed. Desktop and phone sizes, axe,
// no sideways scroll at 360 px.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedServerAndBrowser, api, shotPath, seriousViolations } from './harness.mjs';
import { decodeTransfer, encodeTransfer, MAX_FRAGMENT, MAX_GAMES } from '../../web/js/shared/transfercode.js';

const env = sharedServerAndBrowser();

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 360, height: 800 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

const ID = '2f1c4b8e-3a57-4d9e-9c1a-8f0e6b5d4a21';
const TOKEN = 'GtjfwqvYN-6p79f6iOps5zTxtlTw7OBz';

test('transfer links: what is encoded reads back; anything malformed is refused whole', () => {
  const games = [
    { id: ID, seat: { player: 'y', token: TOKEN }, admin: '3iPROD6AInjGwMYVixpgSsTw5WZX0L8P' },
    { id: '7c81c4b0-37b9-423d-af4e-c54034914980', seat: null, admin: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
  ];
  const hash = encodeTransfer(games);
  assert.equal(hash, `v1~y.${ID}.${TOKEN}~a.${ID}.3iPROD6AInjGwMYVixpgSsTw5WZX0L8P~a.7c81c4b0-37b9-423d-af4e-c54034914980.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`);
  assert.deepEqual(decodeTransfer(`#${hash}`), { games, circles: [] });
  assert.deepEqual(decodeTransfer(''), { error: 'transfer.error_empty' });
  assert.deepEqual(decodeTransfer('#v1'), { error: 'transfer.error_empty' });
  assert.deepEqual(decodeTransfer('#v2~r.x.y'), { error: 'transfer.error_version' });
  assert.deepEqual(decodeTransfer(`#v1~r.${ID}.${TOKEN}~q.${ID}.${TOKEN}`), { error: 'transfer.error_malformed', params: { n: 2 } });
  assert.deepEqual(decodeTransfer(`#v1~r.${ID}.${TOKEN}<script>`), { error: 'transfer.error_malformed', params: { n: 1 } });
  assert.deepEqual(decodeTransfer(`#v1~r.${ID}.${TOKEN}~b.${ID}.${TOKEN}`), { error: 'transfer.error_malformed', params: { n: 2 } }, 'two seats of one game');
  assert.deepEqual(decodeTransfer(`#v1~${'r.'.padEnd(MAX_FRAGMENT, 'x')}`), { error: 'transfer.error_too_long' });
  const many = Array.from({ length: MAX_GAMES + 1 }, (_, i) => ({ id: `${String(i).padStart(8, '0')}-3a57-4d9e-9c1a-8f0e6b5d4a21`, seat: { player: 'r', token: TOKEN }, admin: null }));
  assert.ok(encodeTransfer(many).length < MAX_FRAGMENT);
  assert.deepEqual(decodeTransfer(encodeTransfer(many)), { error: 'transfer.error_too_many', params: { max: MAX_GAMES } });
  assert.equal(/** @type {any} */ (decodeTransfer(encodeTransfer(many.slice(0, MAX_GAMES)))).games.length, MAX_GAMES);
});

/** The seats and admin tokens a page's browser keeps. @param {import('playwright-core').Page} page */
const heldKeys = (page) => page.evaluate(() => Object.keys(localStorage).filter((k) => /^djambi\.(seat|admin)\./.test(k)));

/**
 * A browser holding two games: one it plays against bots (started from the lobby: its seat and
 * admin token) and one it created and cancelled (its admin token only).
 * @param {import('playwright-core').Page} page
 */
async function browserWithGames(page) {
  await page.goto(env.server.base + '/');
  await page.getByRole('button', { name: 'Play against 3 bots' }).click();
  await page.waitForURL(/\/game\/[0-9a-f-]{36}$/);
  const live = /** @type {string} */ (new URL(page.url()).pathname.split('/')[2]);
  const cancelled = await api(env.server.base, '/api/games', { players: 4 });
  const res = await fetch(`${env.server.base}/api/games/${cancelled.id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${cancelled.admin_token}` } });
  assert.ok(res.ok, `cancel: ${res.status}`);
  await page.evaluate(([id, admin]) => localStorage.setItem(`djambi.admin.${id}`, admin), [cancelled.id, cancelled.admin_token]);
  await page.goto(env.server.base + '/');
  await page.locator(`.your-game[data-game="${cancelled.id}"]`).waitFor();
  const seat = await page.evaluate((id) => JSON.parse(localStorage.getItem(`djambi.seat.${id}`) || 'null'), live);
  return { live, cancelled: cancelled.id, seat };
}

for (const [name, first, second] of /** @type {const} */ ([['desktop to phone', DESKTOP, PHONE], ['phone to desktop', PHONE, DESKTOP]])) {
  test(`${name}: the link of "Open my games on another device" imports the games into another browser`, { timeout: 90_000 }, async () => {
    const a = await env.browser.newContext(first);
    const pageA = await a.newPage();
    const { live, cancelled, seat } = await browserWithGames(pageA);
    assert.equal(seat.player, 'r');

    await pageA.getByRole('button', { name: 'Open my games on another device' }).click();
    const dialog = pageA.getByRole('dialog', { name: 'Your games on another device' });
    await dialog.waitFor();
    // The games still in play go by default; the cancelled one on request.
    await dialog.locator('.transfer-count', { hasText: 'Games in this link: 1' }).waitFor();
    const qr = dialog.getByRole('img', { name: 'QR code of the link to your games (1)' });
    assert.ok(Number(await qr.getAttribute('data-modules')) >= 21);
    await dialog.getByLabel('Include the finished games (1)').check();
    await dialog.locator('.transfer-count', { hasText: 'Games in this link: 2' }).waitFor();
    const link = await dialog.getByRole('textbox', { name: 'Link to your games' }).inputValue();
    assert.ok(link.startsWith(`${env.server.base}/transfer#v1~`), link);
    assert.ok(link.includes(seat.token), 'the link carries the seat token');
    assert.deepEqual(await seriousViolations(pageA), []);
    await pageA.screenshot({ path: shotPath(`transfer-dialog-${first === PHONE ? 'phone' : 'desktop'}.png`) });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await a.close();

    const b = await env.browser.newContext(second);
    const pageB = await b.newPage();
    /** @type {string[]} */
    const leaks = [];
    pageB.on('request', (req) => {
      if (`${req.url()} ${req.postData() || ''} ${JSON.stringify(req.headers())}`.includes(seat.token)) leaks.push(req.url());
    });
    await pageB.goto(link);
    await pageB.getByRole('heading', { name: 'Games from another device' }).waitFor();
    const rows = pageB.locator('.transfer-game');
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    await pageB.locator(`.transfer-game[data-game="${live}"]`, { hasText: 'You play Red' }).waitFor();
    await pageB.locator(`.transfer-game[data-game="${live}"]`, { hasText: 'being played' }).waitFor();
    await pageB.locator(`.transfer-game[data-game="${cancelled}"]`, { hasText: 'cancelled' }).waitFor();
    assert.deepEqual(await seriousViolations(pageB), []);
    await pageB.screenshot({ path: shotPath(`transfer-page-${second === PHONE ? 'phone' : 'desktop'}.png`), fullPage: true });
    assert.deepEqual(await heldKeys(pageB), [], 'nothing is kept before the click');

    await pageB.getByRole('button', { name: 'Add to Your games (2)' }).click();
    await pageB.waitForURL(`${env.server.base}/`);
    await pageB.locator(`.your-game[data-game="${live}"]`).waitFor();
    await pageB.locator(`.your-game[data-game="${cancelled}"]`).waitFor();
    assert.deepEqual(await pageB.evaluate((id) => JSON.parse(localStorage.getItem(`djambi.seat.${id}`) || 'null'), live), seat);
    // The tokens left the address bar and the page's history entry.
    await pageB.goBack();
    await pageB.waitForURL(`${env.server.base}/transfer`);
    await pageB.locator('.transfer-error').waitFor();
    // This browser now plays Red in that game.
    await pageB.goto(`${env.server.base}/game/${live}`);
    await pageB.locator('.seat-badge', { hasText: 'You play Red' }).waitFor();
    assert.deepEqual(leaks, [], 'no request carries the seat token');
    await b.close();
  });
}

test('a malformed or oversized link is refused with its reason, and nothing is kept', { timeout: 60_000 }, async () => {
  const ctx = await env.browser.newContext(PHONE);
  const page = await ctx.newPage();
  const cases = [
    [`/transfer#v1~r.${ID}.${TOKEN}~x.broken`, 'This link is damaged (part 2 cannot be read), so nothing was added.'],
    ['/transfer#v9~whatever', 'This is not a link to your games'],
    ['/transfer', 'This link carries no games.'],
    [`/transfer#v1~${'r.'.padEnd(MAX_FRAGMENT + 10, 'x')}`, 'This link is too long to be a link to your games.'],
  ];
  for (const [path, words] of cases) {
    await page.goto(env.server.base + path);
    const error = page.locator('.transfer-error');
    await error.waitFor();
    assert.ok((await error.innerText()).startsWith(words), `${path.slice(0, 40)}: ${await error.innerText()}`);
    assert.equal(await page.getByRole('button', { name: /Add to Your games/ }).count(), 0);
    assert.deepEqual(await heldKeys(page), []);
  }
  assert.deepEqual(await seriousViolations(page), []);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `${width} px wide`);
  await page.screenshot({ path: shotPath('transfer-error-360.png') });
  await ctx.close();
});

test('a game is forgotten on this device only once confirmed; the dialog and the page fit 360 px', { timeout: 90_000 }, async () => {
  const ctx = await env.browser.newContext(PHONE);
  const page = await ctx.newPage();
  const { live, cancelled } = await browserWithGames(page);
  const row = page.locator(`.your-game[data-game="${live}"]`);

  // A seat of a game in play: the confirmation says what would be lost; Cancel keeps it.
  await row.getByRole('button', { name: 'Forget on this device' }).click();
  const confirm = page.getByRole('dialog', { name: 'Forget this game on this device?' });
  await confirm.getByText('This browser will no longer hold your seat.').waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  await page.screenshot({ path: shotPath('transfer-forget-360.png') });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await confirm.waitFor({ state: 'detached' });
  assert.equal(await row.count(), 1);
  assert.notEqual(await page.evaluate((id) => localStorage.getItem(`djambi.seat.${id}`), live), null);

  // The cancelled game goes, after its own (milder) confirmation; the other stays.
  await page.locator(`.your-game[data-game="${cancelled}"]`).getByRole('button', { name: 'Forget on this device' }).click();
  await page.getByRole('dialog').getByText('the game itself stays on the server').waitFor();
  await page.getByRole('dialog').getByRole('button', { name: 'Forget', exact: true }).click();
  await page.locator(`.your-game[data-game="${cancelled}"]`).waitFor({ state: 'detached' });
  assert.equal(await page.evaluate((id) => localStorage.getItem(`djambi.admin.${id}`), cancelled), null);
  await page.reload();
  await row.waitFor();
  assert.equal(await page.locator('.your-game').count(), 1);

  // 360 px: neither the dialog nor the lobby scrolls sideways.
  await page.getByRole('button', { name: 'Open my games on another device' }).click();
  await page.getByRole('dialog').locator('.qr-code').waitFor();
  const wide = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    dialog: Math.round(/** @type {HTMLElement} */ (document.querySelector('.transfer-dialog')).getBoundingClientRect().right),
  }));
  assert.ok(wide.page <= 360 && wide.dialog <= 360, JSON.stringify(wide));
  await page.screenshot({ path: shotPath('transfer-dialog-360.png') });
  await ctx.close();
});
