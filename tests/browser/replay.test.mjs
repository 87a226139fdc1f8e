// The replay: its controls in view at 1280x900, distinct play and step icons with names, and the
// players as they stood at the position shown (no "Out" or ranks at the start).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedServerAndBrowser, api, shotPath, seriousViolations } from './harness.mjs';

const env = sharedServerAndBrowser();

/** Polls the server until a game is over. @param {string} id */
async function finished(id) {
  for (let i = 0; i < 600; i++) {
    const g = await api(env.server.base, `/api/games/${id}`);
    if (g.status === 'finished') return g;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the bots did not finish');
}

test('replay at 1280x900: controls in view, distinct icons, the players at the position shown', { timeout: 180_000 }, async () => {
  // Bots play to the end: someone is out, ranks are given.
  const g = await api(env.server.base, '/api/games', {
    players: 4, bots: { r: 'random', b: 'random', y: 'random', g: 'random' }, bot_movetime_ms: 200,
  });
  const end = await finished(g.id);
  const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(`${env.server.base}/game/${g.id}/replay`);
  await page.locator('.replay-controls button').first().waitFor();
  await page.locator('.player-list').waitFor();
  // It opens at the start: everybody in, nobody ranked, no result yet.
  await page.locator('.replay-caption', { hasText: /start/i }).waitFor();
  assert.equal(await page.locator('.player .tag-out').count(), 0);
  assert.equal(await page.locator('.player .tag-rank').count(), 0);
  assert.equal(await page.locator('.game-over').count(), 0);
  const box = await page.locator('.replay-controls').boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 900, `the controls in view: ${JSON.stringify(box)}`);
  // Play and the step forward look different and say what they do.
  const play = page.getByRole('button', { name: 'Play', exact: true });
  const next = page.getByRole('button', { name: 'Next turn', exact: true });
  assert.equal(await play.count(), 1);
  assert.equal(await next.count(), 1);
  const d = async (/** @type {import('playwright-core').Locator} */ b) => b.locator('path').getAttribute('d');
  assert.notEqual(await d(play), await d(next));
  await page.screenshot({ path: shotPath('replay-start-1280.png') });
  assert.deepEqual(await seriousViolations(page), []);
  // At the end, the end: who is out, the ranks, the result.
  await page.getByRole('button', { name: 'Last position' }).click();
  const out = end.seats.filter((/** @type {any} */ s) => s.alive === false).length;
  await page.waitForFunction((n) => document.querySelectorAll('.player .tag-out').length === n && document.querySelector('.game-over'), out);
  assert.ok(await page.locator('.player .tag-rank').count() > 0, 'ranks at the end');
  await page.screenshot({ path: shotPath('replay-end-1280.png') });
  // Back to the start with the button.
  await page.getByRole('button', { name: 'First position' }).click();
  await page.waitForFunction(() => !document.querySelector('.player .tag-out, .player .tag-rank, .game-over'));
  await ctx.close();
});
