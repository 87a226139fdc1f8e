// Issue 46, "a first evening that goes right": the newcomer's defects, each replayed in Chromium
// against the real server at 360 and 1280 px, with a screenshot of each under
// artifacts/screenshots/newcomer-*.png. Every page here is watched strictly: no console error of
// any kind (a refused fetch or socket included) and no page error — an expected refusal is an
// answer, not an error.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, sharedServerAndBrowser, shotPath } from './harness.mjs';

const env = sharedServerAndBrowser();

/** The two widths every item is looked at. */
const WIDTHS = /** @type {const} */ ([360, 1280]);

/** @param {number} width */
const screen = (width) => (width < 600
  ? { viewport: { width, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }
  : { viewport: { width, height: 800 } });

/**
 * A page in a context of its own that records every console error and page error, the browser's
 * own ("Failed to load resource", a refused WebSocket) included.
 * @param {number} width
 */
async function strictPage(width) {
  const context = await env.browser.newContext(screen(width));
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  return { context, page, errors };
}

/** @param {import('playwright-core').Page} page @param {string} name */
async function shot(page, name) {
  await page.screenshot({ path: shotPath(`newcomer-${name}.png`) });
}

// ---- 1. A wrong or replaced invite link says so; a right one on a second device too.

for (const width of WIDTHS) {
  test(`${width} px: a wrong, a replaced and a right invite link each say what they are (item 1)`, { timeout: 60_000 }, async () => {
    const g = await api(env.server.base, '/api/games', { players: 4 });
    const link = (/** @type {number} */ i) => g.seats[i].invite_url;
    // Yann takes Green's seat from his phone.
    const yann = await strictPage(width);
    await yann.page.goto(link(3));
    await yann.page.fill('#claim-name', 'Yann');
    await yann.page.click('.claim button[type=submit]');
    await yann.page.locator('.seat-badge', { hasText: 'You play Green' }).waitFor();

    // The same (right) link in another browser: held with this link on another device.
    const second = await strictPage(width);
    await second.page.goto(link(3));
    const held = second.page.locator('.seat-held');
    await held.waitFor();
    assert.match(await held.innerText(), /Green's seat is already held with this link[\s\S]*This link is right, and Yann already plays this seat with it on another device/);
    assert.deepEqual(await held.locator('button').allInnerTexts(), ['Play as Yann', 'Watch the game']);
    await shot(second.page, `invite-held-${width}`);
    await second.page.click('.play-taken');
    await second.page.locator('.seat-badge', { hasText: 'You play Green' }).waitFor();

    // A mistyped link: not valid any more, and watching is the only way on.
    const token = g.seats[0].token;
    const typo = link(0).replace(token, (token[0] === 'A' ? 'B' : 'A') + token.slice(1));
    const wrong = await strictPage(width);
    await wrong.page.goto(typo);
    const card = wrong.page.locator('.invite-invalid');
    await card.waitFor();
    assert.match(await card.innerText(), /This invite link is not valid any more[\s\S]*It was replaced or mistyped: ask the game's creator for a new one/);
    assert.deepEqual(await card.locator('button').allInnerTexts(), ['Watch the game']);
    assert.equal(await wrong.page.locator('#claim-name').count(), 0, 'no claim form');
    assert.equal(await wrong.page.evaluate(() => document.activeElement && document.activeElement.textContent), 'Watch the game');
    await shot(wrong.page, `invite-wrong-${width}`);
    await card.locator('button').click();
    await wrong.page.locator('.seat-badge', { hasText: 'Watching' }).waitFor();

    // The creator replaces Blue's invite: the old link says the same.
    await fetch(`${env.server.base}/api/games/${g.id}/seats/b/invite`, { method: 'POST', headers: { Authorization: `Bearer ${g.admin_token}` } });
    const replaced = await strictPage(width);
    await replaced.page.goto(link(1));
    await replaced.page.locator('.invite-invalid').waitFor();
    await shot(replaced.page, `invite-replaced-${width}`);

    for (const p of [yann, second, wrong, replaced]) {
      assert.deepEqual(p.errors, []);
      await p.context.close();
    }
  });
}
