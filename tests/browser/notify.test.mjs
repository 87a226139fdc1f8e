// Notification settings (issue 23 item 4), in Chromium against the real server: the lobby's
// "Notifications and sounds" card asks for the browser's permission only when its button (which
// says why) is clicked; which kinds to be notified of, the chime and the title's mark are kept per
// browser across reloads; the game page follows them. Desktop and phone sizes, axe, 360 px.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedServerAndBrowser, shotPath, seriousViolations } from './harness.mjs';

const env = sharedServerAndBrowser();

const SCREENS = /** @type {const} */ ([
  ['desktop', { viewport: { width: 1280, height: 900 } }],
  ['phone', { viewport: { width: 360, height: 800 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
]);

const ALLOW = 'Allow notifications, so you hear when it is your turn even with this tab closed';

/** Counts the page's permission requests (window.__asked). @param {import('playwright-core').BrowserContext} ctx */
/** The sounds' switch, as the card labels it. */
const SOUNDS = 'Sounds: moves, kills, my turn, my clock running low, chat';

async function countPermissionRequests(ctx) {
  await ctx.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__asked = 0;
    if (typeof Notification === 'undefined') return;
    const ask = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = (...args) => {
      w.__asked++;
      return ask(...args);
    };
  });
}

for (const [name, options] of SCREENS) {
  test(`${name}: the settings are kept per browser; permission is asked only from the button that says why`, { timeout: 60_000 }, async () => {
    const ctx = await env.browser.newContext(options);
    await countPermissionRequests(ctx);
    const page = await ctx.newPage();
    /** @type {string[]} */
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(env.server.base + '/');
    const card = page.locator('section.notify-settings');
    await card.getByText('Notifications and sounds').click();
    const allow = card.getByRole('button', { name: ALLOW });
    await allow.waitFor();
    for (const label of ['My turn to play', 'Draw offers', 'Votes about an absent player', 'Requests to take back a turn', 'Time running out', 'The end of a game', "Mark the tab's title when it is my turn"]) {
      assert.equal(await card.getByLabel(label).isChecked(), true, `${label}: on by default`);
    }
    // Sounds are off until the person turns them on (issue 46).
    assert.equal(await card.getByLabel(SOUNDS).isChecked(), false, 'sounds: off by default');
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).__asked), 0, 'nothing asked on load');
    assert.deepEqual(await seriousViolations(page), []);
    await card.screenshot({ path: shotPath(`notify-settings-${name}.png`) });

    await card.getByLabel('Votes about an absent player').uncheck();
    await card.getByLabel('Time running out').uncheck();
    await card.getByLabel(SOUNDS).check();
    await card.getByLabel("Mark the tab's title when it is my turn").uncheck();
    await page.waitForTimeout(200);
    await page.reload();
    await card.getByText('Notifications and sounds').click();
    const now = {};
    for (const label of ['My turn to play', 'Votes about an absent player', 'Time running out', SOUNDS, "Mark the tab's title when it is my turn"]) {
      now[label] = await card.getByLabel(label).isChecked();
    }
    assert.deepEqual(now, {
      'My turn to play': true, 'Votes about an absent player': false, 'Time running out': false,
      [SOUNDS]: true, "Mark the tab's title when it is my turn": false,
    });

    // The click asks; the card then says where things stand.
    await ctx.grantPermissions(['notifications'], { origin: env.server.base });
    await card.getByRole('button', { name: ALLOW }).click();
    await card.getByText('Notifications are allowed in this browser.').waitFor();
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).__asked), 1);
    assert.equal(await card.getByRole('button', { name: ALLOW }).count(), 0);
    if (name === 'phone') {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 360, `${width} px wide`);
    }
    assert.deepEqual(errors, []);
    await ctx.close();
  });
}

test('the game page follows the settings: no title mark or chime when they are off', { timeout: 90_000 }, async () => {
  /** @param {boolean} mark */
  const titleOnMyTurn = async (mark) => {
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(env.server.base + '/');
    await page.getByText('Notifications and sounds').click();
    const sounds = page.getByLabel('Sounds: moves, kills, my turn, my clock running low, chat');
    // Sounds are off until the person turns them on (issue 46).
    assert.equal(await sounds.isChecked(), false, 'sounds are off by default');
    if (mark) {
      await sounds.check();
    } else {
      await page.getByLabel("Mark the tab's title when it is my turn").uncheck();
    }
    await page.getByRole('button', { name: 'Play against 3 bots' }).click();
    await page.locator('.turn-banner.mine').waitFor();
    await page.waitForTimeout(200);
    const title = await page.title();
    const sound = await page.locator('.sound-toggle').isChecked();
    await ctx.close();
    return { title, sound };
  };
  const on = await titleOnMyTurn(true);
  assert.ok(on.title.startsWith('● Your turn'), on.title);
  assert.equal(on.sound, true);
  const off = await titleOnMyTurn(false);
  assert.ok(!off.title.includes('●'), off.title);
  assert.equal(off.sound, false, 'the game page shows the same chime setting');
});

test('the card in French and Italian', { timeout: 60_000 }, async () => {
  const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(env.server.base + '/');
  await page.selectOption('#lang', 'fr');
  await page.getByText('Notifications et sons').click();
  await page.getByRole('button', { name: /pour savoir que c'est à vous même quand cet onglet est fermé/ }).waitFor();
  await page.getByLabel('Les propositions de nulle').waitFor();
  await page.selectOption('#lang', 'it');
  await page.getByText('Notifiche e suoni').waitFor();
  await page.getByLabel('Le proposte di patta').waitFor();
  await ctx.close();
});
