// Issue 19, "Bots at the table", in headless Chromium against the real server: a person sees each
// bot turn on its own (one after another, even when they come in a burst), all of them marked and
// numbered on the board until they play, and every one narrated in order; playing is never held
// up by that; and a person whose Chief is killed is told so plainly, and by whom, with the choice
// to watch on or to leave. Screenshots go to artifacts/screenshots/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedServerAndBrowser, shotPath, api, seededRandom, waitForTurnOrEnd, playAnyTurn, seriousViolations, BROWSER_NOISE } from './harness.mjs';

const env = sharedServerAndBrowser();

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/**
 * Records every sentence added to the narration log, with when: `window.__said`.
 */
function listen() {
  const w = /** @type {any} */ (window);
  w.__said = [];
  new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        const parent = n.parentElement;
        if (n.nodeType === 1 && parent && parent.classList.contains('narration')) w.__said.push({ text: n.textContent, at: performance.now() });
      }
    }
  }).observe(document, { childList: true, subtree: true });
}

/**
 * A page in its own context that fails the test on script errors, narration recorded.
 * @param {object} options  context options
 */
async function openPage(options = DESKTOP) {
  const context = await env.browser.newContext(options);
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !BROWSER_NOISE.test(m.text())) errors.push(m.text());
  });
  await page.addInitScript(listen);
  return { context, page, errors };
}

/** Takes the invited seat under a name. @param {import('playwright-core').Page} page @param {string} url */
async function claim(page, url) {
  await page.goto(url);
  await page.locator('#claim-name').waitFor();
  await page.fill('#claim-name', 'Ann');
  await page.click('.claim button[type=submit]');
  await page.locator('.seat-badge', { hasText: 'You play' }).waitFor();
}

/** @param {import('playwright-core').Page} page @returns {Promise<{text: string, at: number}[]>} */
const said = (page) => page.evaluate(() => /** @type {any} */ (window).__said);

/** The number badges on the board, in order: [n, player]. @param {import('playwright-core').Page} page */
const badges = (page) => page.$$eval('.turn-badge', (els) => els.map((e) => [e.getAttribute('data-n'), e.getAttribute('data-player')]));

/** Enters and sends a turn square by square. @param {import('playwright-core').Page} page @param {string[]} squares */
async function play(page, squares) {
  for (const sq of squares) await page.click(`.hit[data-square="${sq}"]`);
  await page.click('.send-turn');
}

/**
 * The sentences said after the one that starts with `after`.
 * @param {{text: string, at: number}[]} all @param {RegExp} after
 */
function sentencesAfter(all, after) {
  const i = all.map((s) => after.test(s.text)).lastIndexOf(true);
  assert.ok(i >= 0, `no sentence like ${after} in ${JSON.stringify(all.map((s) => s.text))}`);
  return all.slice(i + 1);
}

test('against three bots at 1 s: each bot turn on its own, all three marked and narrated in order', { timeout: 120_000 }, async () => {
  const created = await api(env.server.base, '/api/games', {
    players: 4, bots: { b: 'easy', y: 'easy', g: 'easy' }, bot_movetime_ms: 1000, names: { r: 'Ann' },
  });
  const { context, page, errors } = await openPage();
  await claim(page, created.seats[0].invite_url);
  const random = seededRandom(19);
  await waitForTurnOrEnd(page);
  await play(page, ['c7', 'c5']);
  await waitForTurnOrEnd(page, 45_000);
  // Their moments are over: nothing shown as the current one.
  await page.waitForFunction(() => !document.querySelector('.turn-badge.active'), null, { timeout: 5000 });

  // All three bot turns are marked, numbered in order, in the colour of who played.
  assert.deepEqual(await badges(page), [['1', 'b'], ['2', 'y'], ['3', 'g']]);
  for (const p of ['b', 'y', 'g']) {
    assert.equal(await page.locator(`.turn-mark.turn-to.army-${p}`).count(), 1, `${p}: where its piece went`);
    assert.equal(await page.locator(`.turn-mark.turn-from.army-${p}`).count(), 1, `${p}: where it came from`);
  }
  // The list under the board says them with the same numbers.
  const rows = await page.$$eval('.recap-row', (els) => els.map((e) => [e.getAttribute('data-n'), e.getAttribute('data-player'), e.querySelector('.recap-text')?.textContent]));
  assert.deepEqual(rows.map((r) => r.slice(0, 2)), [['1', 'b'], ['2', 'y'], ['3', 'g']]);
  await page.locator('.recap-title', { hasText: 'Since your last turn' }).waitFor();

  // The narration said every one of them, in order, each at its own moment.
  const bots = sentencesAfter(await said(page), /^Red's Necromobile moves from c7 to c5/);
  assert.deepEqual(bots.map((s) => s.text.split(' ')[0]), ["Blue's", "Yellow's", "Green's"], JSON.stringify(bots));
  assert.deepEqual(bots.map((s) => s.text), rows.map((r) => r[2]), 'the list and the narration agree');
  for (let i = 1; i < bots.length; i++) {
    const gap = bots[i].at - bots[i - 1].at;
    assert.ok(gap >= 500, `turn ${i + 1} said ${gap.toFixed(0)} ms after turn ${i}`);
  }
  await page.screenshot({ path: shotPath('bots-recap.png') });
  assert.deepEqual(await seriousViolations(page), [], 'the marks and the list are accessible');

  // Starting to play clears the marks; taking the choice back shows them again.
  const first = await page.$$eval('.hit.clickable', (els) => els.map((e) => e.getAttribute('data-square'))[0]);
  await page.click(`.hit[data-square="${first}"]`);
  assert.equal((await badges(page)).length, 0, 'no marks while the person enters a turn');
  await page.locator('.board').focus();
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.querySelectorAll('.turn-badge').length === 3);

  // Once the person has played, the numbers start again from the next bot turn.
  await playAnyTurn(page, random);
  await page.locator('.turn-badge[data-n="1"][data-player="b"]').waitFor({ timeout: 15_000 });
  assert.equal(await page.locator('.turn-badge[data-player="g"]').count(), 0, 'the last round\'s marks are gone');
  await page.screenshot({ path: shotPath('bots-recap-next.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a burst of bot turns is queued and shown one by one (reduced motion: squares light up); the person\'s own move is never held up', { timeout: 120_000 }, async (t) => {
  const created = await api(env.server.base, '/api/games', {
    players: 4, bots: { b: 'random', y: 'random', g: 'random' }, bot_movetime_ms: 200, names: { r: 'Ann' },
  });
  // On a phone whose person asked for less motion: the squares light up one after another, no
  // piece slides.
  const { context, page, errors } = await openPage({ ...PHONE, reducedMotion: 'reduce' });
  await page.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__slides = 0;
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (...args) {
      w.__slides++;
      return animate.apply(this, args);
    };
  });
  await claim(page, created.seats[0].invite_url);
  await waitForTurnOrEnd(page);

  // Round 1: the bots answer within a fraction of a second; the page still gives each its moment.
  await play(page, ['c7', 'c5']);
  await waitForTurnOrEnd(page, 30_000);
  await page.waitForFunction(() => !document.querySelector('.turn-badge.active'), null, { timeout: 10_000 });
  const round1 = sentencesAfter(await said(page), /^Red's Necromobile moves from c7 to c5/);
  assert.equal(round1.length, 3, JSON.stringify(round1));
  for (let i = 1; i < round1.length; i++) {
    const gap = round1[i].at - round1[i - 1].at;
    assert.ok(gap >= 600, `turn ${i + 1} said ${gap.toFixed(0)} ms after turn ${i}: shown one after another`);
  }
  assert.deepEqual((await badges(page)).map((b) => b[1]), ['b', 'y', 'g']);
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).__slides), 0, 'nothing slides');
  await page.screenshot({ path: shotPath('bots-burst-phone.png') });

  // Round 2: the person clicks a piece the moment the turn is theirs — while the bots' turns may
  // still be being shown. The board takes the click at once and goes live.
  const before = (await said(page)).length;
  await playAnyTurn(page, seededRandom(5));
  await page.locator('.turn-banner.mine').waitFor({ timeout: 30_000 });
  const replaying = await page.locator('.board-frame.replaying').count();
  let clickedAt = Date.now();
  // Red's Militants first, then any piece: whatever the random bots did, one of them can move.
  // The time counted is that of the click that chose a piece.
  const pieces = await page.$$eval('[data-piece]', (gs) => gs.map((g) => g.getAttribute('data-piece') || ''));
  for (const sq of ['a7', 'b7', 'a8', 'c8', ...pieces]) {
    clickedAt = Date.now();
    await page.click(`.hit[data-square="${sq}"]`);
    if (await page.locator('.mark-selected').count()) break;
  }
  await page.locator('.mark-selected').waitFor({ timeout: 1000 });
  t.diagnostic(`replaying when the turn came: ${replaying > 0}; a piece chosen after ${Date.now() - clickedAt} ms`);
  assert.ok(Date.now() - clickedAt < 1500, 'the choice is taken at once');
  assert.equal(await page.locator('.board-frame.replaying').count(), 0, 'the board shows the live game');
  // Every bot turn was still said, in order.
  const round2 = (await said(page)).slice(before).filter((s) => !/^Red's/.test(s.text));
  assert.deepEqual(round2.map((s) => s.text.split(' ')[0]).slice(0, 3), ["Blue's", "Yellow's", "Green's"], JSON.stringify(round2));
  assert.deepEqual(errors, []);
  await context.close();
});

// A built position (NOTATION §2): Red to move, Red's Chief on a9 open to Blue's Assassin on a5,
// Blue's Chief walled in by its own Militants (else it would rather take the maze first).
// Whatever harmless move Red makes (the Necromobile c7-c6 here), Blue's bot kills the Chief.
const DOOMED = 'Cr6MbCb/7MbMb/2Nr6/9/Ab8/9/9/7My1/1Cg1Mg4Cy r rbyg - 0 - 0 1';

/** A game from the doomed position, Red claimed in a new page. @param {object} [options] */
async function doomedGame(options = DESKTOP) {
  const created = await api(env.server.base, '/api/games', {
    players: 4, start: DOOMED, bots: { b: 'medium', y: 'easy', g: 'easy' }, bot_movetime_ms: 200, names: { r: 'Ann' },
  });
  const opened = await openPage(options);
  await claim(opened.page, created.seats[0].invite_url);
  await waitForTurnOrEnd(opened.page);
  await play(opened.page, ['c7', 'c6']);
  return { ...opened, id: created.id };
}

test('a person whose Chief is killed is told so and by whom; they may watch on, or leave', { timeout: 120_000 }, async () => {
  // Watching on.
  const { context, page, errors } = await doomedGame();
  const notice = page.locator('.out-notice');
  await notice.waitFor({ timeout: 20_000 });
  assert.equal(await notice.locator('.out-text').innerText(), "Blue's Assassin killed your Chief on a9: you are out.");
  assert.equal(await notice.getAttribute('role'), 'alert');
  // It is said in the narration too, after the turn that did it.
  const after = sentencesAfter(await said(page), /^Red's Necromobile moves from c7 to c6/);
  assert.match(after[0].text, /^Blue's Assassin kills Red's Chief on a9.*Red is eliminated/);
  await page.screenshot({ path: shotPath('eliminated.png') });
  assert.deepEqual(await seriousViolations(page), [], 'the message is accessible');
  await notice.locator('.watch-on').click();
  await notice.waitFor({ state: 'detached' });
  // Watching on: the prompt says they are out — unless the three bots left have already ended
  // the game (a sparse position may be drawn at once), and then the game-over panel shows.
  await page.waitForFunction(
    () => /You are out of the game/.test(document.querySelector('.prompt')?.textContent || '')
      || document.querySelector('.game-over'),
    null, { timeout: 30_000 });
  // The game goes on in front of the watcher (or ends there: three bots in a sparse position
  // may agree a draw at once when it goes nowhere).
  const turns = await page.locator('.history-row.turn').count();
  await page.waitForFunction(
    (n) => document.querySelectorAll('.history-row.turn').length > n || document.querySelector('.game-over'),
    turns, { timeout: 20_000 });
  await page.screenshot({ path: shotPath('eliminated-watching.png') });
  assert.deepEqual(errors, []);
  await context.close();

  // Leaving, on a phone.
  const phone = await doomedGame(PHONE);
  await phone.page.locator('.out-notice').waitFor({ timeout: 20_000 });
  await phone.page.screenshot({ path: shotPath('eliminated-phone.png') });
  await phone.page.locator('.out-notice .leave-game').click();
  await phone.page.waitForURL((u) => u.pathname === '/');
  await phone.page.locator('.play-bots').waitFor();
  assert.deepEqual(phone.errors, []);
  await phone.context.close();
});
