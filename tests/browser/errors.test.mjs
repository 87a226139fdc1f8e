// Refused requests say why, in the server's words, next to the field they are about: a reserved
// name in the create form and in the claim form; a reason about no field in a toast.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedServerAndBrowser, api, shotPath, seriousViolations } from './harness.mjs';
import { fieldError } from '../../web/js/errors.js';

const env = sharedServerAndBrowser();

const SCREENS = {
  desktop: { viewport: { width: 1280, height: 900 } },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
};

test('fieldError: the field a reason names, without the parser wrapper', () => {
  assert.deepEqual(fieldError({ message: 'names.r: the name "Host" is taken or reserved' }), { field: 'names.r', text: 'the name "Host" is taken or reserved' });
  assert.deepEqual(fieldError({ message: 'Failed to deserialize the JSON body into the target type: rules.turn_limit: invalid value: integer `0`, expected a nonzero u32 at line 1 column 36' }),
    { field: 'rules.turn_limit', text: 'invalid value: integer `0`, expected a nonzero u32' });
  assert.deepEqual(fieldError({ message: 'too many games' }), { field: null, text: 'too many games' });
});

/**
 * Checks that `selector`'s control carries the reason `#id` says, and that the reason names `word`.
 * @param {import('playwright-core').Page} page @param {string} selector @param {string} id @param {string} word
 */
async function assertMarked(page, selector, id, word) {
  const note = page.locator(`#${id}`);
  await note.waitFor();
  assert.match(await note.innerText(), new RegExp(word));
  const control = page.locator(selector);
  assert.equal(await control.getAttribute('aria-invalid'), 'true');
  assert.match(await control.getAttribute('aria-describedby') || '', new RegExp(id));
  assert.equal(await page.locator('.toast', { hasText: 'did not understand' }).count(), 0);
}

for (const [screen, options] of Object.entries(SCREENS)) {
  test(`a reserved name in the create form is refused next to its field (${screen})`, { timeout: 60_000 }, async () => {
    const ctx = await env.browser.newContext(options);
    const page = await ctx.newPage();
    await page.goto(env.server.base + '/');
    await page.fill('input[name="name-r"]', 'Host');
    await page.click('.create button[type=submit]');
    await assertMarked(page, 'input[name="name-r"]', 'invalid-name-r', 'Host');
    // Focused, so a keyboard user is where the fix goes.
    assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.getAttribute('name')), 'name-r');
    await page.screenshot({ path: shotPath(`error-create-${screen}.png`) });
    assert.deepEqual(await seriousViolations(page), []);
    // Changing the field takes the reason away.
    await page.fill('input[name="name-r"]', 'Hostess');
    assert.equal(await page.locator('#invalid-name-r').count(), 0);
    assert.equal(await page.locator('input[name="name-r"]').getAttribute('aria-invalid'), null);
    await ctx.close();
  });

  test(`a reserved name in the claim form is refused next to its field (${screen})`, { timeout: 60_000 }, async () => {
    const g = await api(env.server.base, '/api/games', { players: 4 });
    const ctx = await env.browser.newContext(options);
    const page = await ctx.newPage();
    await page.goto(g.seats[1].invite_url);
    await page.fill('#claim-name', 'Admin');
    await page.click('.claim button[type=submit]');
    await assertMarked(page, '#claim-name', 'invalid-claim-name', 'Admin');
    await page.screenshot({ path: shotPath(`error-claim-${screen}.png`) });
    assert.deepEqual(await seriousViolations(page), []);
    // Another name takes the seat.
    await page.fill('#claim-name', 'Bea');
    await page.click('.claim button[type=submit]');
    await page.locator('.game-page .seat-badge', { hasText: 'Blue' }).waitFor();
    await ctx.close();
  });
}
