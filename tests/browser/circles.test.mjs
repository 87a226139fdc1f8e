// Circles of friends (issue 47), in Chromium against the real server: four browsers form a
// circle (one creates it in the lobby, three join with its invite link), play two rated games
// from the circle's page (members take their seats with "Take a seat"; the second with a bot),
// finished by resignations; each sees the standings, the head-to-head grid and the rating chart
// (with its table) follow the games. The member key moves to a fifth browser with "Open my games
// on another device". The page reads in French and Italian; phone and desktop screenshots;
// axe finds nothing serious.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedServerAndBrowser, pageWithErrors, shotPath, seriousViolations } from './harness.mjs';
import { pairOf } from '../../web/js/circle/headtohead.js';
import { circleGameBody } from '../../web/js/circle/createcard.js';
import { ratingText } from '../../web/js/circle/standings.js';

const env = sharedServerAndBrowser();

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

test('circle units: the head-to-head reads both ways, the create body, ratings as shown', () => {
  const pairs = [{ a: 'x', b: 'y', ahead: 2, behind: 1, games: 3 }];
  assert.deepEqual(pairOf(pairs, 'x', 'y'), [2, 1, 3]);
  assert.deepEqual(pairOf(pairs, 'y', 'x'), [1, 2, 3]);
  assert.deepEqual(pairOf(pairs, 'x', 'z'), [0, 0, 0]);
  assert.deepEqual(circleGameBody({ players: 4, seats: { r: 'person', b: 'person', y: 'person', g: 'easy' }, clock: 'none' }),
    { players: 4, bots: { g: 'easy' } });
  assert.deepEqual(circleGameBody({ players: 3, seats: { r: 'hard', b: 'person', y: 'person', g: 'easy' }, clock: 'live_5' }),
    { players: 3, hostage: 'g', bots: { r: 'hard' }, clock: { initial_s: 300, increment_s: 3 } });
  assert.equal(ratingText(8.333), '8.3');
  assert.equal(ratingText(-1.26), '−1.3');
});

/**
 * Resigns in the game open on `page` (confirmed).
 * @param {import('playwright-core').Page} page
 */
async function resign(page) {
  await page.locator('button.resign:not([disabled])').waitFor();
  await page.click('button.resign');
  await page.locator('dialog[open]').waitFor();
  await page.click('dialog[open] button[value=ok]');
  // Out of the game: no resign button any more.
  await page.locator('button.resign').waitFor({ state: 'detached' });
}

/**
 * The member on `page` takes a seat in the circle's newest waiting game, from the circle's page.
 * @param {import('playwright-core').Page} page @param {string} circle @param {string} game
 */
async function takeSeat(page, circle, game) {
  await page.goto(`${env.server.base}/circle/${circle}`);
  const card = page.locator(`.circle-game[data-game="${game}"]`);
  await card.locator('button.take-seat').click();
  await page.waitForURL(`${env.server.base}/game/${game}`);
  await page.locator('.seat-badge', { hasText: 'You play' }).waitFor();
}

/**
 * The member on `page` creates a game from the circle's page (taking its first seat): its id.
 * @param {import('playwright-core').Page} page @param {string} circle @param {Record<string, string>} [bots]
 */
async function newGame(page, circle, bots = {}) {
  await page.goto(`${env.server.base}/circle/${circle}`);
  for (const [p, level] of Object.entries(bots)) {
    await page.selectOption(`select.circle-seat-choice[data-player="${p}"]`, level);
  }
  await page.click('button.create-circle-game');
  await page.waitForURL(/\/game\/[0-9a-f-]{36}$/);
  await page.locator('.seat-badge', { hasText: 'You play' }).waitFor();
  return /** @type {string} */ (new URL(page.url()).pathname.split('/')[2]);
}

test('four friends form a circle, play two rated games and follow their standings', { timeout: 240_000 }, async () => {
  const names = ['Ann', 'Bea', 'Cid', 'Dee'];
  const people = await Promise.all(names.map(() => pageWithErrors(env.browser, DESKTOP)));
  const [ann, bea, cid, dee] = people.map((p) => p.page);
  const base = env.server.base;

  // Ann makes the circle from the lobby.
  await ann.goto(base + '/');
  await ann.locator('.your-circles').waitFor();
  await ann.click('.new-circle-toggle');
  await ann.fill('.new-circle-name', 'Thursday <club>');
  await ann.fill('.new-circle-me', 'Ann');
  await ann.click('button.create-circle');
  await ann.waitForURL(/\/circle\/[0-9a-f-]{36}$/);
  const circle = /** @type {string} */ (new URL(ann.url()).pathname.split('/')[2]);
  await ann.locator('h1.circle-name', { hasText: 'Thursday <club>' }).waitFor();
  const invite = await ann.locator('input.circle-invite').inputValue();
  assert.match(invite, new RegExp(`^${base}/circle/${circle}/join#[A-Za-z0-9_-]{32}$`));

  // Three friends join with the link; a name already taken is refused where it is typed.
  for (const [i, page] of [bea, cid, dee].entries()) {
    await page.goto(invite);
    await page.locator('.join-name').waitFor();
    if (i === 0) {
      await page.fill('.join-name', 'ann');
      await page.click('button.join-circle');
      await page.locator('.join-form .error-text', { hasText: 'already has that name' }).waitFor();
    }
    await page.fill('.join-name', names[i + 1]);
    await page.click('button.join-circle');
    await page.waitForURL(`${base}/circle/${circle}`);
    await page.locator('.circle-members li').nth(i + 1).waitFor();
    // The invite left the address bar; the key is in this browser only.
    assert.ok(!page.url().includes('#'));
  }
  await ann.reload();
  await ann.locator('.circle-members li').nth(3).waitFor();
  assert.equal(await ann.locator('.circle-members li').count(), 4);
  assert.ok(await ann.locator('.circle-standings', { hasText: 'Dee' }).isVisible());

  // Game 1: Ann creates it and plays; the others take a seat from the circle's page. Bea, Dee,
  // then Ann resign: Cid wins.
  const g1 = await newGame(ann, circle);
  for (const page of [bea, cid, dee]) await takeSeat(page, circle, g1);
  for (const page of [bea, dee, ann]) await resign(page);
  await cid.locator('.game-over h2', { hasText: 'You win!' }).waitFor();
  // After one game: Cid leads, the chart has one point per player, the grid its first results.
  await ann.goto(`${base}/circle/${circle}`);
  await ann.locator(`.circle-game[data-game="${g1}"] .tag`, { hasText: 'rated' }).waitFor();
  assert.match(await ann.locator('.standings tbody tr').first().innerText(), /Cid/);
  assert.equal(await ann.locator('.rating-chart circle').count(), 4);
  assert.ok(await ann.locator('.h2h tbody tr', { hasText: 'Cid' }).locator('td.ahead', { hasText: '1–0' }).count() === 3);
  await ann.screenshot({ path: shotPath('circle-after-one-game-desktop.png') });

  // Game 2, with a bot: Bea creates it with an easy bot on green; Cid and Dee take seats. Dee,
  // Bea, then Cid resign: the bot wins.
  const g2 = await newGame(bea, circle, { g: 'easy' });
  for (const page of [cid, dee]) await takeSeat(page, circle, g2);
  for (const page of [dee, bea, cid]) await resign(page);

  // Everyone's page shows both games' places, the standings, the grid and the chart.
  for (const [i, page] of [ann, bea, cid, dee].entries()) {
    await page.goto(`${base}/circle/${circle}`);
    await page.locator(`.circle-game[data-game="${g2}"] .tag`, { hasText: 'rated' }).waitFor();
    const rows = await page.locator('.standings tbody tr').allInnerTexts();
    assert.equal(rows.length, 4);
    assert.match(rows[0], /Cid/, 'Cid won one game and came second in the other');
    assert.match(rows[3], /Dee/, 'Dee was first out twice');
    const me = page.locator(`.standings tr.me`);
    assert.match(await me.innerText(), new RegExp(names[i]));
    assert.equal(await page.locator('.standings .provisional').count(), 4, 'provisional before 5 games');
    // Cid finished ahead of Dee in both games.
    const cidRow = page.locator('.h2h tbody tr', { hasText: 'Cid' });
    assert.ok(await cidRow.locator('td.ahead', { hasText: '2–0' }).count() >= 1);
    // The chart: one point per game per member who played it; its table lists both games.
    assert.equal(await page.locator('.rating-chart circle').count(), 4 + 3);
    await page.click('.chart-table summary');
    assert.equal(await page.locator('.chart-table tbody tr').count(), 2);
    // The finished games link to their replays; places are shown per seat.
    const g1card = page.locator(`.circle-game[data-game="${g1}"]`);
    assert.ok(await g1card.locator('a', { hasText: 'Replay' }).isVisible());
    assert.match(await g1card.locator('.circle-seat[data-player="y"]').innerText(), /place 1 \(won\)/);
    assert.match(await page.locator(`.circle-game[data-game="${g2}"] .circle-seat[data-player="g"]`).innerText(), /bot/);
  }
  // The name with markup is text, never markup.
  assert.equal(await ann.locator('h1.circle-name').innerText(), 'Thursday <club>');
  assert.equal(await ann.locator('h1.circle-name club').count(), 0);

  // Screenshots, looked at by people: desktop and phone.
  await ann.evaluate(() => window.scrollTo(0, 0));
  await ann.screenshot({ path: shotPath('circle-desktop.png'), fullPage: true });
  await ann.screenshot({ path: shotPath('circle-desktop-top.png') });
  assert.deepEqual(await seriousViolations(ann), []);
  const phone = await pageWithErrors(env.browser, PHONE);
  const key = await ann.evaluate((id) => localStorage.getItem(`djambi.circle.${id}`), circle);
  await phone.page.goto(base + '/');
  await phone.page.evaluate(([id, value]) => localStorage.setItem(`djambi.circle.${id}`, /** @type {string} */ (value)), [circle, key]);
  await phone.page.goto(`${base}/circle/${circle}`);
  await phone.page.locator('.standings tbody tr').nth(3).waitFor();
  await phone.page.screenshot({ path: shotPath('circle-phone.png') });
  await phone.page.locator('.circle-standings').scrollIntoViewIfNeeded();
  await phone.page.screenshot({ path: shotPath('circle-phone-standings.png') });
  await phone.page.locator('.circle-h2h').scrollIntoViewIfNeeded();
  await phone.page.screenshot({ path: shotPath('circle-phone-h2h.png') });
  await phone.page.evaluate(() => window.scrollTo(0, 0));
  await phone.page.screenshot({ path: shotPath('circle-phone-full.png'), fullPage: true });
  const wide = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(wide <= 1, `no sideways scroll on a phone (${wide}px)`);
  assert.deepEqual(await seriousViolations(phone.page), []);

  // In French and Italian.
  await phone.page.selectOption('#lang', 'fr');
  await phone.page.locator('.circle-standings h2', { hasText: 'Classement' }).waitFor();
  await phone.page.locator('.circle-h2h h2', { hasText: 'Face-à-face' }).waitFor();
  await phone.page.locator('.circle-standings').scrollIntoViewIfNeeded();
  await phone.page.screenshot({ path: shotPath('circle-phone-fr.png') });
  await phone.page.selectOption('#lang', 'it');
  await phone.page.locator('.circle-standings h2', { hasText: 'Classifica' }).waitFor();
  await phone.page.locator('.circle-chart h2', { hasText: 'Punteggi nel tempo' }).waitFor();
  await phone.context.close();

  // The lobby lists the circle.
  await dee.goto(base + '/');
  await dee.locator('.your-circles a.circle-link', { hasText: 'Thursday <club>' }).waitFor();
  await dee.locator('.your-circles').scrollIntoViewIfNeeded();
  await dee.screenshot({ path: shotPath('circle-lobby-desktop.png') });

  // Dee's key goes to a new browser with "Open my games on another device"; then Dee leaves.
  await dee.click('.your-circles button.circles-elsewhere');
  const link = await dee.locator('dialog[open] .transfer-url').inputValue();
  assert.match(link, new RegExp(`~c\\.${circle}\\.`));
  await dee.click('dialog[open] button[value=close]');
  const other = await pageWithErrors(env.browser, DESKTOP);
  await other.page.goto(link);
  await other.page.locator('.transfer-circle').waitFor();
  await other.page.click('button.import-games');
  await other.page.waitForURL(`${base}/`);
  await other.page.goto(`${base}/circle/${circle}`);
  await other.page.locator('.standings tr.me', { hasText: 'Dee' }).waitFor();
  await other.page.click('button.leave-circle');
  await other.page.click('dialog[open] button[value=ok]');
  await other.page.waitForURL(`${base}/`);
  // The key of the first browser no longer opens the circle: it says how a key is recovered.
  await dee.goto(`${base}/circle/${circle}`);
  await dee.locator('.circle-games-card h2', { hasText: 'no longer opens' }).waitFor();
  await dee.locator('.circle-games-card', { hasText: 'transfer link' }).waitFor();
  await ann.goto(`${base}/circle/${circle}`);
  await ann.locator('.standings tr.departed', { hasText: 'Dee' }).waitFor();
  await other.context.close();

  for (const p of people) {
    assert.deepEqual(p.errors, [], p.errors.join('\n'));
    await p.context.close();
  }
});
