// Time left reads the same in the lobby's "your games" and on the game page: "23 h 59 min".

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedServerAndBrowser, api, shotPath } from './harness.mjs';

const env = sharedServerAndBrowser();

test('a correspondence deadline in one format in the lobby and in the game', { timeout: 60_000 }, async () => {
  const g = await api(env.server.base, '/api/games', {
    players: 4, bots: { b: 'easy', y: 'easy', g: 'easy' }, bot_movetime_ms: 200, clock: { per_turn_s: 86_400 }, names: { r: 'Ann' },
  });
  const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(g.seats[0].invite_url);
  await page.click('.claim button[type=submit]');
  const inGame = page.locator('.turn-banner .deadline', { hasText: /^23 h 5\d min left$/ });
  await inGame.waitFor();
  await page.screenshot({ path: shotPath('timeleft-game.png') });
  await page.goto(env.server.base + '/');
  const inLobby = page.locator('.your-game .time-left');
  await inLobby.waitFor();
  assert.match(await inLobby.innerText(), /^23 h 5\d min left$/);
  await inLobby.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shotPath('timeleft-lobby.png') });
  // In French and Italian too.
  for (const [lang, left] of [['fr', /^encore 23 h 5\d min$/], ['it', /^restano 23 h 5\d min$/]]) {
    await page.selectOption('#lang', String(lang));
    await page.locator('.your-game .time-left', { hasText: left }).waitFor();
  }
  await ctx.close();
});
