// Narrow screens: no page of the client scrolls sideways on a 360 px wide phone — the lobby, the
// rules, a live game against bots and the replay of a finished one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedServerAndBrowser, api, shotPath } from './harness.mjs';

const env = sharedServerAndBrowser();

const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/**
 * Opens a page at 360 px and fails if it is wider than the screen, naming the widest elements.
 * @param {string} name @param {(page: import('playwright-core').Page) => Promise<void>} open
 */
async function noSideways(name, open) {
  const ctx = await env.browser.newContext(PHONE);
  const page = await ctx.newPage();
  await open(page);
  await page.waitForTimeout(300);
  // A phone zooms out to fit a page wider than itself (innerWidth grows with it): measure
  // against the screen's own width.
  const found = await page.evaluate((w) => {
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > w + 0.5 && getComputedStyle(e).position !== 'fixed')
      .slice(0, 6)
      .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} right=${Math.round(e.getBoundingClientRect().right)}`);
    return { scroll: document.documentElement.scrollWidth, inner: window.innerWidth, wide };
  }, PHONE.viewport.width);
  await page.screenshot({ path: shotPath(`narrow-${name}.png`), fullPage: true });
  await ctx.close();
  assert.ok(found.scroll <= PHONE.viewport.width && found.inner <= PHONE.viewport.width, `${name}: ${found.scroll} px wide (inner ${found.inner}) on a ${PHONE.viewport.width} px screen: ${found.wide.join(', ')}`);
}

/** Polls the server until a game is over. @param {string} id */
async function finished(id) {
  for (let i = 0; i < 600; i++) {
    const g = await api(env.server.base, `/api/games/${id}`);
    if (g.status === 'finished') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the bots did not finish');
}

test('360 px: the lobby does not scroll sideways, with bots chosen in the create form and games listed', { timeout: 60_000 }, async () => {
  await api(env.server.base, '/api/games', { players: 4, open: true, names: { r: 'Annabella Longname' } });
  await noSideways('lobby', async (page) => {
    await page.goto(env.server.base + '/');
    await page.locator('form button[type=submit]').waitFor();
    await page.selectOption('select[name="seat-b"]', 'hard');
    await page.click('input[name=time][value=correspondence]');
  });
});

test('360 px: the rules do not scroll sideways', { timeout: 60_000 }, async () => {
  await noSideways('rules', async (page) => {
    await page.goto(env.server.base + '/rules');
    await page.locator('.rules-figure svg.board').first().waitFor();
  });
});

test('360 px: a live game against bots does not scroll sideways', { timeout: 60_000 }, async () => {
  const g = await api(env.server.base, '/api/games', {
    players: 4, bots: { b: 'easy', y: 'easy', g: 'easy' }, bot_movetime_ms: 200, clock: { initial_s: 600, increment_s: 5 }, names: { r: 'Ann' },
  });
  await noSideways('game', async (page) => {
    await page.goto(g.seats[0].invite_url);
    await page.click('.claim button[type=submit]');
    await page.locator('.turn-banner.mine').waitFor();
    await page.locator('.hit.clickable').first().click();
  });
});

test('360 px: the replay of a finished game does not scroll sideways', { timeout: 120_000 }, async () => {
  const g = await api(env.server.base, '/api/games', {
    players: 4, bots: { r: 'random', b: 'random', y: 'random', g: 'random' }, bot_movetime_ms: 200, rules: { turn_limit: 4 },
  });
  await finished(g.id);
  await noSideways('replay', async (page) => {
    await page.goto(`${env.server.base}/game/${g.id}/replay`);
    await page.locator('.replay-controls').waitFor();
    await page.click('.replay-next');
  });
});
