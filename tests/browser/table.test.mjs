// The friends' table (issue 21), in Chromium against the real server: a private game stays off
// the lobby and its spectators talk in their own room (a player reads it only after opening
// it); custom clocks, whose first turn is not charged; and a rematch after the game, joined with
// one click from each player's page. At desktop and phone sizes, with axe-core.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedServerAndBrowser, api, shotPath, seriousViolations } from './harness.mjs';

const env = sharedServerAndBrowser();

const SIZES = /** @type {const} */ ([['desktop', { width: 1280, height: 900 }], ['phone', { width: 360, height: 800 }]]);

/**
 * A page of its own (own storage), failing the test on any page error.
 * @param {{width: number, height: number}} viewport @param {string[]} errors
 */
async function newPage(viewport, errors) {
  const ctx = await env.browser.newContext({ viewport });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  return page;
}

/** Opens an invite link and takes the seat under its preset name. @param {import('playwright-core').Page} page @param {string} url */
async function claim(page, url) {
  await page.goto(url);
  await page.locator('.claim button[type=submit]').click();
  await page.locator('.seat-badge', { hasText: 'You play' }).waitFor();
}

/** On a phone the chat is a tab beside the turn list: choose it. @param {import('playwright-core').Page} page */
async function showChat(page) {
  await page.locator('.chat-form input').waitFor({ state: 'attached' });
  const tab = page.getByRole('tab', { name: /Chat/ });
  if (await tab.isVisible()) await tab.click();
  await page.locator('.chat-form input').waitFor();
}

/** Resigns, confirmed. @param {import('playwright-core').Page} page */
async function resign(page) {
  await page.locator('.turn-banner').waitFor();
  for (let attempt = 0; ; attempt++) {
    await page.click('button.resign');
    try {
      await page.locator('dialog[open]').waitFor({ timeout: 5000 });
      break;
    } catch (e) {
      if (attempt >= 2) throw e;
    }
  }
  await page.click('dialog[open] button[value=ok]');
}

/** @param {import('playwright-core').Page} page @param {string} text */
async function say(page, text) {
  await showChat(page);
  await page.fill('.chat-form input', text);
  await page.click('.chat-form button[type=submit]');
}

/** Whether the page scrolls sideways. @param {import('playwright-core').Page} page */
const scrollsSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

for (const [size, viewport] of SIZES) {
  test(`${size}: the create form lists, keeps the players' chat, and sets a custom clock`, { timeout: 60_000 }, async () => {
    /** @type {string[]} */
    const errors = [];
    const page = await newPage(viewport, errors);
    await page.goto(env.server.base);
    const listed = page.locator('input[name="listed"]');
    await listed.waitFor({ state: 'attached' });
    // Invite-only games are unlisted by default; an open game is listed unless unticked.
    assert.equal(await listed.isChecked(), false);
    await page.locator('input[name="open"]').check();
    assert.equal(await listed.isChecked(), true);
    await page.locator('input[name="open"]').uncheck();
    assert.equal(await listed.isChecked(), false);
    await page.locator('input[name="players_chat_public"]').uncheck();

    // A custom live clock: a bad value is refused next to its field.
    await page.locator('input[name="time"][value="live"]').check();
    await page.selectOption('select[name="live"]', 'custom');
    await page.fill('input[name="custom_min"]', '0');
    await page.click('button[type=submit].btn-wide');
    await page.locator('#invalid-custom_min', { hasText: 'from 1 to 180' }).waitFor();
    assert.equal(await page.locator('input[name="custom_min"]').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.getAttribute('name')), 'custom_min');
    await page.screenshot({ path: shotPath(`table-custom-clock-${size}.png`), fullPage: true });
    assert.deepEqual(await seriousViolations(page), []);
    assert.equal(await scrollsSideways(page), false);

    await page.fill('input[name="custom_min"]', '2');
    await page.fill('input[name="custom_inc"]', '7');
    const request = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/games');
    await page.click('button[type=submit].btn-wide');
    const body = (await request).postDataJSON();
    assert.deepEqual(body.clock, { initial_s: 120, increment_s: 7 });
    assert.equal(body.players_chat_public, false);
    assert.equal('listed' in body, false, 'invite-only: unlisted goes without saying');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test(`${size}: a private game is unlisted, and spectators talk in their own room`, { timeout: 90_000 }, async () => {
    /** @type {string[]} */
    const errors = [];
    const created = await api(env.server.base, '/api/games', {
      players: 4, names: { r: 'Ann', b: 'Bea' }, bots: { y: 'easy', g: 'easy' }, bot_movetime_ms: 200,
    });
    const list = await api(env.server.base, '/api/games?status=all&limit=200');
    assert.ok(!list.games.some((/** @type {any} */ g) => g.id === created.id), 'not listed');
    const [red, blue, zed] = [await newPage(viewport, errors), await newPage(viewport, errors), await newPage(viewport, errors)];
    await claim(red, created.seats[0].invite_url);
    await claim(blue, created.seats[1].invite_url);
    // The spectator watches through the game's link.
    await zed.goto(created.url);
    await zed.locator('.conn-badge.conn-online').waitFor();
    await showChat(zed);
    await zed.locator('.chat-room-note', { hasText: 'You talk with the other spectators' }).waitFor();

    await say(zed, 'who wins?');
    await zed.locator('.chat-msg', { hasText: 'who wins?' }).waitFor();
    await showChat(red);
    await red.waitForTimeout(500);
    assert.equal(await red.locator('.chat-msg', { hasText: 'who wins?' }).count(), 0, 'the room is closed by default');

    // Red opens the room: the message is there, and the next one comes live. Blue sees neither.
    await red.getByRole('button', { name: "Open the spectators' room" }).click();
    await red.locator('.chat-msg.from-spectators', { hasText: 'who wins?' }).waitFor();
    await say(zed, 'red, surely');
    await red.locator('.chat-msg.from-spectators', { hasText: 'red, surely' }).waitFor();
    await red.screenshot({ path: shotPath(`table-spectators-room-${size}.png`), fullPage: true });
    assert.deepEqual(await seriousViolations(red), []);
    await showChat(blue);
    await blue.waitForTimeout(300);
    assert.equal(await blue.locator('.chat-msg', { hasText: /who wins|red, surely/ }).count(), 0);

    // The players' chat reaches the spectator.
    await say(red, 'good luck all');
    await zed.locator('.chat-msg', { hasText: 'good luck all' }).waitFor();
    await zed.screenshot({ path: shotPath(`table-spectator-chat-${size}.png`), fullPage: true });
    assert.deepEqual(await seriousViolations(zed), []);
    for (const page of [red, blue, zed]) assert.equal(await scrollsSideways(page), false);
    assert.deepEqual(errors, []);
    for (const page of [red, blue, zed]) await page.context().close();
  });
}

test('a live clock starts after its player\'s first turn', { timeout: 60_000 }, async () => {
  /** @type {string[]} */
  const errors = [];
  const created = await api(env.server.base, '/api/games', {
    players: 4, names: { r: 'Ann' }, bots: { b: 'easy', y: 'easy', g: 'easy' }, bot_movetime_ms: 200, clock: { initial_s: 60, increment_s: 2 },
  });
  const red = await newPage({ width: 1280, height: 900 }, errors);
  await claim(red, created.seats[0].invite_url);
  await red.locator('.first-turn', { hasText: /first turn: 0:[23]\d/ }).waitFor();
  const face = red.locator('.player[data-player="r"] .clock .clock-face');
  await face.filter({ hasText: '1:00' }).waitFor();
  await red.waitForTimeout(1500);
  assert.equal(await face.innerText(), '1:00', 'not charged during the first turn');
  await red.screenshot({ path: shotPath('table-first-turn.png') });
  assert.deepEqual(await seriousViolations(red), []);
  assert.deepEqual(errors, []);
  await red.context().close();
});

for (const [size, viewport] of SIZES) {
  test(`${size}: after the game, a rematch with the seats rotated, joined with one click`, { timeout: 120_000 }, async () => {
    /** @type {string[]} */
    const errors = [];
    const names = { r: 'Ann', b: 'Bea', y: 'Cid', g: 'Dee' };
    const created = await api(env.server.base, '/api/games', { players: 4, names });
    /** @type {Record<string, import('playwright-core').Page>} */
    const pages = {};
    for (const seat of created.seats) {
      pages[seat.player] = await newPage(viewport, errors);
      await claim(pages[seat.player], seat.invite_url);
    }
    const zed = await newPage(viewport, errors);
    await zed.goto(created.url);
    // Blue, Yellow and Green resign: Red wins.
    for (const p of ['b', 'y', 'g']) await resign(pages[p]);
    await pages.b.locator('.game-over h2', { hasText: /Red \(Ann\) wins!/ }).waitFor();
    await pages.b.locator('button.ask-rematch').waitFor();
    assert.equal(await zed.locator('button.ask-rematch').count(), 0, 'spectators do not ask');
    await pages.b.screenshot({ path: shotPath(`table-rematch-ask-${size}.png`), fullPage: true });
    assert.deepEqual(await seriousViolations(pages.b), []);

    // Ann asks: her page goes straight to the new game, where she plays Blue.
    await pages.r.click('button.ask-rematch');
    await pages.r.waitForURL((u) => u.pathname.startsWith('/game/') && !created.url.endsWith(u.pathname));
    await pages.r.locator('.seat-badge', { hasText: 'You play Blue' }).waitFor();
    const newUrl = pages.r.url();
    assert.notEqual(newUrl, created.url);

    // Bea's page shows the offer; one click and she plays Yellow there.
    await pages.b.locator('.rematch', { hasText: 'Ann offers a rematch' }).waitFor();
    await pages.b.locator('.rematch', { hasText: 'You play Yellow' }).waitFor();
    await pages.b.screenshot({ path: shotPath(`table-rematch-offer-${size}.png`), fullPage: true });
    assert.deepEqual(await seriousViolations(pages.b), []);
    await pages.b.click('button.join-rematch');
    await pages.b.waitForURL(newUrl);
    await pages.b.locator('.seat-badge', { hasText: 'You play Yellow' }).waitFor();
    // The spectator is offered to watch it.
    await zed.locator('a.watch-rematch').waitFor();
    assert.equal(await zed.locator('a.watch-rematch').getAttribute('href'), new URL(newUrl).pathname);
    for (const p of ['y', 'g']) {
      await pages[p].click('button.join-rematch');
      await pages[p].waitForURL(newUrl);
    }
    // Everyone is seated: the rematch is on, Dee (once Green) opens as Red.
    await pages.g.locator('.seat-badge', { hasText: 'You play Red' }).waitFor();
    await pages.g.locator('.turn-banner.mine').waitFor();
    for (const page of Object.values(pages)) assert.equal(await scrollsSideways(page), false);
    assert.deepEqual(errors, []);
    for (const page of [...Object.values(pages), zed]) await page.context().close();
  });
}
