// The chat at the table: beside the board on a wide screen, a tab beside the turn list on a
// phone, with an unread count on the tab and in the window's title; no whispers to bots.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedServerAndBrowser, api, shotPath, seriousViolations } from './harness.mjs';

const env = sharedServerAndBrowser();

/**
 * A game of Ann (Red) and Bea (Blue) against two bots, each seated in a page of its own.
 * @param {any} redScreen  the context options of Ann's page
 */
async function table(redScreen) {
  const g = await api(env.server.base, '/api/games', { players: 4, bots: { y: 'easy', g: 'easy' }, bot_movetime_ms: 200 });
  const ann = await env.browser.newContext(redScreen);
  const bea = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const red = await ann.newPage();
  const blue = await bea.newPage();
  for (const [page, seat, name] of /** @type {const} */ ([[red, 0, 'Ann'], [blue, 1, 'Bea']])) {
    await page.goto(g.seats[seat].invite_url);
    await page.fill('#claim-name', name);
    await page.click('.claim button[type=submit]');
    await page.locator('.chat-form input').waitFor({ state: 'attached' });
  }
  await red.locator('.turn-banner').waitFor();
  return { red, blue, close: async () => { await ann.close(); await bea.close(); } };
}

/** @param {import('playwright-core').Page} page @param {string} text */
async function say(page, text) {
  await page.fill('.chat-form input', text);
  await page.click('.chat-form button[type=submit]');
}

test('1920x1080: the chat is beside the board, in view with it; bots are not whispered to', { timeout: 90_000 }, async () => {
  const { red, blue, close } = await table({ viewport: { width: 1920, height: 1080 } });
  const chat = await red.locator('section.chat').boundingBox();
  const board = await red.locator('.board-frame').boundingBox();
  assert.ok(chat && board);
  assert.ok(chat.y < 900, `the chat's top at ${chat.y}`);
  assert.ok(board.y < 1080 && board.y + board.height > 0 && chat.x > board.x + board.width - 1, 'the chat beside the board, both in view');
  assert.equal(await red.locator('.side-tabs').isVisible(), false);
  // Whispers go to people only: Blue, not the bots of Yellow and Green.
  const options = await red.$$eval('.chat-form select option', (os) => os.map((o) => /** @type {HTMLOptionElement} */ (o).value));
  assert.deepEqual(options, ['', 'b']);
  // A message read as it comes is not unread.
  await say(blue, 'hello from Bea');
  await red.locator('.chat-msg', { hasText: 'hello from Bea' }).waitFor();
  await red.waitForTimeout(200);
  assert.equal(await red.locator('section.chat .unread-badge').isVisible(), false);
  assert.doesNotMatch(await red.title(), /^\(\d+\)/);
  await red.screenshot({ path: shotPath('chat-1920.png') });
  assert.deepEqual(await seriousViolations(red), []);
  await close();
});

test('390x844: the turn list and the chat are tabs; unread public messages counted on the tab and in the title', { timeout: 90_000 }, async () => {
  const { red, blue, close } = await table({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const turnsTab = red.getByRole('tab', { name: /Turns/ });
  const chatTab = red.getByRole('tab', { name: /Chat/ });
  assert.equal(await turnsTab.getAttribute('aria-selected'), 'true');
  assert.equal(await red.locator('section.chat').isVisible(), false);
  await say(blue, 'one');
  await say(blue, 'two');
  await red.locator('.side-tab .unread-badge', { hasText: '2' }).waitFor();
  assert.match(await red.title(), /^\(2\) /);
  await red.locator('.side-tabs').scrollIntoViewIfNeeded();
  await red.screenshot({ path: shotPath('chat-390-unread.png') });
  assert.deepEqual(await seriousViolations(red), []);
  // The keyboard moves between the tabs; the chat shown is read.
  await turnsTab.focus();
  await red.keyboard.press('ArrowRight');
  assert.equal(await chatTab.getAttribute('aria-selected'), 'true');
  assert.equal(await red.evaluate(() => document.activeElement && document.activeElement.id), 'chat-tab');
  await red.locator('section.chat').scrollIntoViewIfNeeded();
  await red.waitForFunction(() => !document.querySelector('.side-tab .unread-badge') && !/^\(\d+\)/.test(document.title));
  assert.equal(await red.locator('#history-panel, section.history-panel').isVisible(), false);
  await red.screenshot({ path: shotPath('chat-390-read.png') });
  assert.deepEqual(await seriousViolations(red), []);
  // Back to the turns: a new message is counted again.
  await chatTab.click();
  await turnsTab.click();
  await say(blue, 'three');
  await red.locator('.side-tab .unread-badge', { hasText: '1' }).waitFor();
  await close();
});
