// Game records (issue 21), in Chromium against the real server: a record imported from the
// lobby — as a file or pasted — opens its replay (a finished game) or its game (an unfinished
// one); what the server refuses is said under the record's field, in its words; the game over
// card and the replay offer the record as readable text next to the JSON. At desktop and phone
// sizes, with no serious accessibility violation, and no sideways scroll at 360 px.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { sharedServerAndBrowser, api, shotPath, seriousViolations } from './harness.mjs';
import { parseRecordText } from '../../web/js/lobby/importcard.js';

const env = sharedServerAndBrowser();

const START = 'CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1';

/** A finished game (three resignations) with its metadata, as the server exports it. */
const FINISHED = {
  format: 'djambi-game/1',
  rules: { own_kills: false, diplomat_to_maze: true, turn_limit: null },
  start: START,
  events: [{ turn: 1, player: 'r', move: 'b7-b5' }, { resign: 'b' }, { resign: 'y' }, { resign: 'g' }],
  result: { winner: 'r' },
  ranking: [['r'], ['g'], ['y'], ['b']],
  meta: {
    site: 'Djambi Online',
    players: { r: { name: 'Zoe' }, b: { name: 'Yann' }, y: { bot: 'easy' } },
    created: '2026-11-21T10:00:00Z',
    result_text: 'Red wins',
  },
};

/** A game still running: two turns, no result. */
const RUNNING = {
  format: 'djambi-game/1', rules: {}, start: START,
  events: [{ turn: 1, player: 'r', move: 'b7-b5' }, { turn: 2, player: 'b', move: 'g7-g5' }],
};

/** The same with an illegal second turn. */
const ILLEGAL = { ...RUNNING, events: [{ turn: 1, player: 'r', move: 'b7-b5' }, { turn: 2, player: 'b', move: 'h7-h2' }] };

const SCREENS = /** @type {const} */ ([
  ['desktop', { viewport: { width: 1280, height: 900 } }],
  ['phone', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
]);

/** Types a record into the import card's paste area and sends it. @param {import('playwright-core').Page} page @param {string} text */
async function pasteAndImport(page, text) {
  await page.getByLabel('Or paste the record').fill(text);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
}

test('import: nothing, or text that is not JSON, is refused before anything is sent', () => {
  // Outside a page the dictionary is not loaded: the translator answers with its keys.
  assert.deepEqual(parseRecordText(' \n '), { error: 'import.empty' });
  assert.deepEqual(parseRecordText('{"format": '), { error: 'import.not_json' });
  assert.deepEqual(parseRecordText(JSON.stringify(RUNNING)), { record: RUNNING });
});

for (const [name, options] of SCREENS) {
  test(`${name}: a record file imported from the lobby opens its replay; the text download reads`, { timeout: 90_000 }, async () => {
    const ctx = await env.browser.newContext({ ...options, acceptDownloads: true });
    const page = await ctx.newPage();
    /** @type {string[]} */
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(env.server.base + '/');
    const card = page.locator('section.import-record');
    await card.getByRole('heading', { name: 'Import a game record' }).waitFor();

    // Not JSON: the client says so under the field.
    await pasteAndImport(page, 'hello');
    const area = page.getByLabel('Or paste the record');
    await card.locator('.field-error', { hasText: 'not JSON' }).waitFor();
    assert.equal(await area.getAttribute('aria-invalid'), 'true');

    // An illegal turn: the server's reason, naming the event.
    await pasteAndImport(page, JSON.stringify(ILLEGAL));
    const refused = card.locator('.field-error', { hasText: 'does not replay' });
    await refused.waitFor();
    assert.match(await refused.innerText(), /^That record does not replay: event 2: h7-h2/);
    assert.equal(await card.locator('.field-error').count(), 1, 'one note at a time');
    const described = await area.getAttribute('aria-describedby');
    assert.equal(described, await refused.getAttribute('id'), 'the note is tied to the field');
    assert.deepEqual(await seriousViolations(page), []);
    await page.screenshot({ path: shotPath(`records-import-error-${name}.png`), fullPage: true });

    // A file fills the field; the note goes when the record changes.
    await page.getByLabel('Record file (JSON)').setInputFiles({
      name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(FINISHED, null, 2)),
    });
    await page.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.querySelector('#import-text')).value.includes('"resign"'));
    assert.equal(await card.locator('.field-error').count(), 0);
    await page.getByRole('button', { name: 'Import', exact: true }).click();

    // A finished game opens in its replay, with the names of its record.
    await page.waitForURL(/\/game\/[0-9a-f-]{36}\/replay$/);
    const id = /** @type {string} */ (new URL(page.url()).pathname.split('/')[2]);
    await page.locator('.replay-controls').waitFor();
    await page.locator('.replay-count', { hasText: '0 / 4' }).waitFor();
    await page.getByText('Zoe').first().waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await page.screenshot({ path: shotPath(`records-replay-${name}.png`), fullPage: true });

    // The record as text, next to the JSON.
    const link = page.locator('a.download-text');
    assert.equal(await link.getAttribute('href'), `/api/games/${id}/record.txt`);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    assert.equal(download.suggestedFilename(), `djambi-${id}.txt`);
    const text = readFileSync(/** @type {string} */ (await download.path()), 'utf8');
    for (const line of ['Site: Djambi Online', 'Red: Zoe', 'Blue: Yann', 'Yellow: (no name)', 'Result: Red wins', '1. Red b7-b5', 'Blue resigns', 'Green resigns']) {
      assert.ok(text.split('\n').includes(line), `${line} in\n${text}`);
    }

    // The game over card offers both downloads too.
    await page.goto(`${env.server.base}/game/${id}`);
    await page.locator('.game-over a.download-text').waitFor();
    assert.equal(await page.locator('.game-over a[href$="/record"]').count(), 1);
    assert.deepEqual(await seriousViolations(page), []);
    assert.deepEqual(errors, []);
    await ctx.close();
  });
}

test('a pasted unfinished record opens its game, its seats waiting with this browser\'s invite links', { timeout: 60_000 }, async () => {
  const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(env.server.base + '/');
  await pasteAndImport(page, JSON.stringify(RUNNING));
  await page.waitForURL(/\/game\/[0-9a-f-]{36}$/);
  const id = /** @type {string} */ (new URL(page.url()).pathname.split('/')[2]);
  await page.locator('.turn-banner.waiting').waitFor();
  assert.equal(await page.locator('.copy-invite').count(), 4);
  const game = await api(env.server.base, `/api/games/${id}`);
  assert.equal(game.v, 2);
  assert.equal(game.status, 'open');
  await ctx.close();
});

test('360 px: the import card with its error, and the replay with its downloads, do not scroll sideways', { timeout: 60_000 }, async () => {
  const phone = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
  const ctx = await env.browser.newContext(phone);
  const page = await ctx.newPage();
  const created = await api(env.server.base, '/api/games/import', FINISHED);
  /** @param {string} where */
  const wide = async (where) => {
    await page.waitForTimeout(300);
    const found = await page.evaluate((w) => ({
      scroll: document.documentElement.scrollWidth,
      wide: [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > w + 0.5 && getComputedStyle(e).position !== 'fixed')
        .slice(0, 6).map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`),
    }), phone.viewport.width);
    assert.ok(found.scroll <= phone.viewport.width, `${where}: ${found.scroll} px wide: ${found.wide.join(', ')}`);
  };
  await page.goto(env.server.base + '/');
  await pasteAndImport(page, JSON.stringify({ ...ILLEGAL, start: 'not a position at all, and a long one: '.repeat(4) }));
  await page.locator('.import-record .field-error').waitFor();
  await page.locator('.import-record').scrollIntoViewIfNeeded();
  await wide('the lobby');
  await page.screenshot({ path: shotPath('records-import-360.png'), fullPage: true });
  await page.goto(`${env.server.base}/game/${created.id}/replay`);
  await page.locator('.replay-controls').waitFor();
  await page.locator('a.download-text').waitFor();
  await wide('the replay');
  await ctx.close();
});
