// The friends' table (issue 21), in Chromium against the real server: a seat named at creation
// is listed as kept for its player (no Join button for strangers), the creator is told the
// truth about the links, and a mistyped address shows the client's own "page not found".

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedServerAndBrowser, api, shotPath, seriousViolations } from './harness.mjs';

const env = sharedServerAndBrowser();

for (const [name, viewport] of /** @type {const} */ ([['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]])) {
  test(`${name}: a seat named at creation is kept for its link in an open game`, { timeout: 60_000 }, async () => {
    const created = await api(env.server.base, '/api/games', { players: 4, open: true, names: { r: 'Hazel' } });
    const ctx = await env.browser.newContext({ viewport });
    const page = await ctx.newPage();
    await page.goto(env.server.base);
    const row = page.locator('.game-row', { hasText: 'kept for Hazel' }).first();
    await row.waitFor();
    // Strangers may join blue, yellow or green, never Hazel's red.
    const joins = await row.locator('button.join').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-player')));
    assert.deepEqual(joins, ['b', 'y', 'g']);
    assert.ok(created.seats.find((/** @type {any} */ s) => s.player === 'r').invite_url);
    await page.screenshot({ path: shotPath(`friends-kept-seat-${name}.png`), fullPage: true });
    assert.deepEqual(await seriousViolations(page), []);
    await ctx.close();
  });
}

test('a mistyped address shows the client\'s "page not found", not JSON', { timeout: 30_000 }, async () => {
  const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  const response = await page.goto(`${env.server.base}/gmae/oops`);
  assert.equal(response && response.status(), 404);
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  assert.ok(!(await page.content()).includes('"not_found"'));
  await page.getByRole('link', { name: 'Go to the lobby' }).click();
  await page.waitForURL(`${env.server.base}/`);
  // The API stays JSON, even for a browser.
  const api404 = await page.goto(`${env.server.base}/api/nothing-here`);
  assert.equal(api404 && api404.status(), 404);
  assert.match(await page.content(), /not_found/);
  await ctx.close();
});
