// Keyboard play: the description of a square shown in the prompt follows the board's cursor.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedServerAndBrowser, api, shotPath } from './harness.mjs';

const env = sharedServerAndBrowser();

test('the square-description line follows the keyboard cursor', { timeout: 60_000 }, async () => {
  const g = await api(env.server.base, '/api/games', { players: 4, bots: { b: 'easy', y: 'easy', g: 'easy' }, bot_movetime_ms: 200, names: { r: 'Ann' } });
  const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(g.seats[0].invite_url);
  await page.click('.claim button[type=submit]');
  await page.locator('.turn-banner.mine').waitFor();
  await page.focus('svg.board');
  // The cursor starts on the maze; Enter there chooses nothing and says what is there.
  await page.keyboard.press('Enter');
  const info = page.locator('.square-info');
  await info.waitFor();
  assert.match(await info.innerText(), /^e5\b/);
  /** @type {string[]} */
  const seen = [];
  for (const k of ['ArrowLeft', 'ArrowDown', 'ArrowDown']) {
    await page.keyboard.press(k);
    const text = await info.innerText();
    seen.push(text);
    const square = (/^([a-i][1-9])\b/.exec(text) || [])[1];
    assert.ok(square, `a square named: ${text}`);
    assert.notEqual(square, 'e5');
  }
  assert.equal(new Set(seen).size, 3, `three squares described: ${seen.join(' | ')}`);
  await page.screenshot({ path: shotPath('keyboard-cursor.png') });
  await ctx.close();
});
