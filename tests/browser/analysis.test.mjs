// Issue 22, items 3 and 4, in headless Chromium against the real server: a finished game's replay
// offers "Analyse this game", follows the engine until it is done, then shows the chart of every
// player's chance and marks the turn list (?! ? ??) exactly as the server judged; a marked turn
// is shown from the position before it, the engine's better turn framed and the turn played
// numbered. In a game against bots the seat to move may ask for a good turn, framed on the board;
// between people only where the creator allowed hints, which the page says. Desktop (1280×900)
// and phone (360×800), axe-core with no serious violation. Screenshots go to artifacts/screenshots/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedServerAndBrowser, shotPath, api, seriousViolations, pageWithErrors, claimInvite } from './harness.mjs';

const env = sharedServerAndBrowser();

const SIZES = /** @type {const} */ ([
  ['desktop', { viewport: { width: 1280, height: 900 } }],
  ['phone', { viewport: { width: 360, height: 800 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
]);

const START = 'CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1';

/** Fourteen turns of random bots, then three resignations: red wins. Red's 13th costs the most. */
const MOVES = ['c9-d9', 'g8-f7', 'h3-h4', 'c3-f3', 'd9-f7@f9', 'h8-c8@g5', 'g1-f1', 'b2-g7@b2', 'g5-g3@h8',
  'c8-b8@e6', 'g2-g3@a4', 'g7-g9@c5', 'f7-h7@d9', 'b8-b7@c6'];
const FINISHED = {
  format: 'djambi-game/1', rules: {}, start: START,
  events: [
    ...MOVES.map((move, i) => ({ turn: i + 1, player: 'rbyg'[i % 4], move })),
    { resign: 'y' }, { resign: 'b' }, { resign: 'g' },
  ],
};

/** A page of its own, its script errors collected. @param {object} options */
const openPage = (options) => pageWithErrors(env.browser, options);

/** The page does not scroll sideways. @param {import('playwright-core').Page} page */
const noSidewaysScroll = async (page) => {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(scroll <= width, `the page scrolls sideways: ${scroll} > ${width}`);
};

/** The signs of the turn list, by turn number. @param {import('playwright-core').Page} page */
const signs = (page) => page.$$eval('.history-row.turn', (rows) => rows
  .filter((r) => r.querySelector('.judge'))
  .map((r) => [r.querySelector('.num')?.textContent, r.querySelector('.judge [aria-hidden]')?.textContent]));

for (const [size, options] of SIZES) {
  test(`${size}: a finished game's replay is analysed on request: chart, marks, and a marked turn with the better one`, { timeout: 120_000 }, async () => {
    const created = await api(env.server.base, '/api/games/import', FINISHED);
    const { context, page, errors } = await openPage(options);
    await page.goto(`${env.server.base}/game/${created.id}/replay`);

    // Opening the replay starts nothing: the engine is asked only by the button.
    const button = page.getByRole('button', { name: 'Analyse this game' });
    await button.waitFor();
    const looked = await api(env.server.base, `/api/games/${created.id}/analysis?start=false`);
    assert.equal(looked.status, 'not_started');
    assert.deepEqual(await seriousViolations(page), []);
    await button.click();

    // The chart comes once the engine is done: one line per player, a dot per marked turn.
    await page.locator('.chance-chart').waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('.chance-line').count(), 4 + 4, 'four lines, and four in the legend');
    const analysis = await api(env.server.base, `/api/games/${created.id}/analysis?start=false`);
    assert.equal(analysis.status, 'done');
    const marked = analysis.turns.filter((/** @type {any} */ t) => ['inaccuracy', 'mistake', 'blunder'].includes(t.label));
    const sign = { inaccuracy: '?!', mistake: '?', blunder: '??' };
    assert.deepEqual(await signs(page), marked.map((/** @type {any} */ t) => [String(t.turn), sign[/** @type {keyof typeof sign} */ (t.label)]]));
    assert.equal(await page.locator('.chance-mark').count(), marked.length);
    // Red's 13th turn gave away the most chance of the game (about 11 points): a mistake.
    const loss = (/** @type {any} */ t) => t.kept - t.after;
    const worst = marked.reduce((a, b) => (loss(b) > loss(a) ? b : a));
    assert.equal(worst.turn, 13);
    assert.ok(['mistake', 'blunder'].includes(worst.label), worst.label);
    await page.getByRole('row', { name: /Red/ }).first().waitFor();
    assert.match(await page.locator('.chance-chart desc').textContent() || '', /At the end: .*Red/);
    // The chart says what it shows, and a hover (a tap on a phone) reads out a point: its turn
    // and each player's chance, the numbers of the analysis.
    assert.ok((await page.locator('.chance-chart text').allTextContents()).includes('Chance of winning'));
    const chart = page.locator('.chance-chart');
    const box = await chart.boundingBox();
    assert.ok(box);
    const at = { x: box.width * 0.6, y: box.height / 2 };
    if (size === 'phone') await chart.tap({ position: at });
    else await chart.hover({ position: at });
    const tip = page.locator('.chart-tip');
    await tip.waitFor();
    const read = await tip.innerText();
    const i = Number(await tip.getAttribute('data-i'));
    assert.ok(i >= 1 && i <= MOVES.length, `${i}`);
    const point = analysis.turns[i - 1];
    assert.ok(read.startsWith(`Turn ${point.turn}, `) && read.includes(point.played), read);
    for (const [k, name] of ['Red', 'Blue', 'Yellow', 'Green'].entries()) {
      const pct = Math.round(analysis.chances[i - 1][k] * 100);
      assert.ok(read.includes(`${pct}%`), `${name} ${pct}% in ${read}`);
    }
    // Each player's accuracy beside its tally, as the analysis gives it.
    const accuracy = await page.$$eval('.tally tbody td.tally-accuracy', (cells) => cells.map((c) => c.textContent));
    assert.deepEqual(accuracy, analysis.accuracy.map((/** @type {number} */ a) => String(Math.round(a))));
    const [tallyRight, panelRight] = await page.evaluate(() => [
      document.querySelector('.tally')?.getBoundingClientRect().right || 0,
      document.querySelector('.analysis-panel')?.getBoundingClientRect().right || 0]);
    assert.ok(tallyRight <= panelRight, `the tally overflows its panel: ${tallyRight} > ${panelRight}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: shotPath(`analysis-chart-${size}.png`), fullPage: true });
    assert.deepEqual(await seriousViolations(page), []);
    await noSidewaysScroll(page);

    // The numbers behind the chart, for those who do not read charts.
    await page.getByText('Show the numbers').click();
    assert.equal(await page.locator('.chance-numbers tbody tr').count(), MOVES.length + 1);
    await noSidewaysScroll(page);
    assert.deepEqual(await seriousViolations(page), []);

    // That turn, selected in the turn list: the position before it, the engine's turn framed
    // (with an arrow from its start), the turn played numbered 13, and both said in words.
    const blunder = worst;
    const labelText = { mistake: 'Mistake', blunder: 'Blunder' }[/** @type {'mistake' | 'blunder'} */ (worst.label)];
    await page.locator('.history-row.turn', { has: page.locator('.num', { hasText: /^13$/ }) }).locator('button').click();
    const caption = page.locator('.replay-caption');
    await caption.filter({ hasText: labelText }).waitFor();
    const said = await caption.innerText();
    assert.ok(said.includes(blunder.best) && said.includes('f7-h7@d9'), said);
    const pct = (/** @type {number} */ x) => `${Math.round(x * 100)}%`;
    assert.ok(said.includes(`kept ${pct(blunder.kept)} with the engine's turn, played ${pct(blunder.after)}`), said);
    assert.match(await page.locator('.replay-count').innerText(), /^12 \//, 'the position before turn 13');
    const [from, to] = blunder.best.split(/[-x>@]/);
    for (const sq of [from, to]) assert.equal(await page.locator(`.hint-frame[data-at="${sq}"]`).count(), 1, sq);
    assert.equal(await page.locator('.hint-arrow').count(), 1);
    assert.equal(await page.locator('.turn-badge[data-n="13"][data-player="r"]').count(), 1);
    assert.equal(await page.locator('.history-btn[aria-current]', { hasText: 'f7-h7@d9' }).count(), 1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: shotPath(`analysis-review-${size}.png`), fullPage: true });
    assert.deepEqual(await seriousViolations(page), []);
    await noSidewaysScroll(page);

    // "Next turn" shows the position after it, as played: the marks go.
    await page.locator('.replay-next').click();
    await page.locator('.replay-count', { hasText: /^13 \// }).waitFor();
    assert.equal(await page.locator('.hint-frame').count(), 0);

    // Stored: the next visit shows it at once, without asking the engine again.
    await page.reload();
    await page.locator('.chance-chart').waitFor();
    assert.equal(await page.locator('.analysis-panel .analyse').count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

for (const [size, options] of SIZES) {
  test(`${size}: against bots, "Show a good turn" frames the engine's turn on the board`, { timeout: 90_000 }, async () => {
    const created = await api(env.server.base, '/api/games', { players: 4, bots: { b: 'easy', y: 'easy', g: 'easy' } });
    const { context, page, errors } = await openPage(options);
    await claimInvite(page, created.seats[0].invite_url, 'Ann');
    const ask = page.getByRole('button', { name: 'Show a good turn' });
    await ask.waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await ask.click();
    const note = page.locator('.hint-note');
    await note.waitFor({ timeout: 20_000 });
    const turn = (await note.locator('code').innerText()).trim();
    assert.match(turn, /^[a-i][1-9]-[a-i][1-9]/);
    const [from, to] = turn.split(/[-x>@]/);
    for (const sq of [from, to]) assert.equal(await page.locator(`.hint-frame[data-at="${sq}"]`).count(), 1, `${turn}: ${sq}`);
    // The suggestion is one of our legal turns: its piece is one we may move.
    assert.equal(await page.locator(`.hit.clickable[data-square="${from}"]`).count(), 1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: shotPath(`hint-bots-${size}.png`), fullPage: size === 'phone' });
    assert.deepEqual(await seriousViolations(page), []);
    await noSidewaysScroll(page);
    // Choosing a piece clears the frame (the turn entered takes the board), back again clears it.
    await page.click(`.hit[data-square="${from}"]`);
    assert.equal(await page.locator('.hint-frame').count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('between people: no hint unless the creator allowed them, and then everyone is told', { timeout: 90_000 }, async () => {
  const { context, page, errors } = await openPage(SIZES[0][1]);
  for (const hints of [false, true]) {
    const created = await api(env.server.base, '/api/games', { players: 4, bots: { b: 'easy', y: 'easy' }, hints });
    const green = created.seats.find((/** @type {any} */ s) => s.player === 'g');
    await api(env.server.base, `/api/games/${created.id}/seats`, { name: 'Gil', token: green.token });
    await claimInvite(page, created.seats[0].invite_url, 'Ann');
    await page.locator('.turn-banner.mine').waitFor();
    const rules = page.locator('.rules-line');
    if (hints) {
      await page.getByRole('button', { name: 'Show a good turn' }).waitFor();
      assert.match(await rules.innerText(), /Hints allowed/);
      // A spectator sees it too.
      const watcher = await context.newPage();
      await watcher.goto(`${env.server.base}/game/${created.id}`);
      await watcher.locator('.rules-line', { hasText: 'Hints allowed' }).waitFor();
      await watcher.close();
    } else {
      await page.locator('.hit.clickable').first().waitFor();
      assert.equal(await page.locator('.show-hint').count(), 0);
      assert.doesNotMatch(await rules.innerText(), /Hints allowed/);
    }
  }
  // The lobby's form has the option.
  await page.goto(env.server.base);
  await page.getByRole('checkbox', { name: /Allow hints/ }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});
