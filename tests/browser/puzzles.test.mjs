// The puzzles (issue 22), in Chromium against the real server: the list, a puzzle answered
// wrong (a legal turn, not the best: the board shows what it did) and then right (the engine's
// continuation given), the engine's good turn marked on the board, the next puzzle with its
// solution shown, and solved puzzles remembered after a reload. At desktop and phone sizes,
// with no serious accessibility violation and no sideways scroll.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { sharedServerAndBrowser, ROOT } from './harness.mjs';
import { SIZES, checkPage, clickSquares, feedback } from './learnkit.mjs';

const env = sharedServerAndBrowser();

/** The puzzle file the server embeds. */
const FILE = JSON.parse(readFileSync(`${ROOT}/data/puzzles.json`, 'utf8'));
const [FIRST, SECOND] = FILE.puzzles;

/** The armies' names, by letter. @type {Record<string, string>} */
const ARMY = { r: 'Red', b: 'Blue', y: 'Yellow', g: 'Green' };

/** The squares a turn's text names, in the order they are chosen. @param {string} turn */
const squaresOf = (turn) => turn.match(/[a-i][1-9]/g) || [];

for (const [size, options] of SIZES) {
  test(`${size}: a puzzle wrong then right, a hint, the next one's solution; solved ones remembered`, { timeout: 120_000 }, async () => {
    const ctx = await env.browser.newContext(options);
    const page = await ctx.newPage();
    /** @type {string[]} */
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));

    assert.ok(FILE.puzzles.length >= 2, 'two puzzles at least');
    await page.goto(`${env.server.base}/puzzles`);
    await page.getByRole('heading', { name: 'Puzzles', exact: true }).waitFor();
    assert.equal(await page.locator('.puzzle-item').count(), FILE.puzzles.length);
    await page.locator('.learn-count', { hasText: `0 of ${FILE.puzzles.length} solved` }).waitFor();
    await checkPage(page, `puzzles-${size}-list`);
    await page.getByRole('link', { name: 'Start with the first puzzle' }).click();
    await page.getByRole('heading', { name: 'Puzzle 1' }).waitFor();
    await page.locator('.lesson-task', { hasText: `${ARMY[FIRST.player]} to move.` }).waitFor();
    await page.locator('.board-frame.my-turn').waitFor();

    // Wrong: the solution's piece to another square it may go to.
    const [from] = squaresOf(FIRST.solution);
    await clickSquares(page, [from]);
    const offered = await page.$$eval('.board .hit.clickable', (els) => els.map((e) => e.getAttribute('data-square')));
    const elsewhere = offered.find((sq) => sq && sq !== from && !FIRST.solution.includes(sq));
    assert.ok(elsewhere, `another square for ${from}: ${offered}`);
    await clickSquares(page, [/** @type {string} */ (elsewhere)]);
    // A placement, if the turn asks for one: the first square offered.
    if (await page.locator('.prompt-row.stage-place').count()) {
      await page.click('.board .hit.clickable >> nth=0');
    }
    assert.match(await feedback(page, 'wrong'), /That turn is legal, but not the best one\./);
    await checkPage(page, `puzzles-${size}-wrong`);
    await page.click('.try-again');

    // A good turn from the engine, marked on the board; played as shown, it is "Shown", not
    // solved (issue 46: it said "Solved!" and counted it).
    await page.click('.show-hint');
    const hinted = await feedback(page, 'hint');
    assert.match(hinted, /A good turn/);
    assert.ok(await page.locator('.board .hint-frame').count() >= 2);
    const hintTurn = await page.locator('.learn-feedback .happened code.notation').innerText();
    await clickSquares(page, squaresOf(hintTurn));
    if (hintTurn === FIRST.solution) {
      await page.locator('.learn-feedback .feedback-hint', { hasText: 'Shown' }).waitFor();
      const shown = await feedback(page, 'hint');
      assert.match(shown, /Shown: that is the best turn\.[\s\S]*does not count as solved yet/);
      assert.equal(await page.locator('.tag-solved').count(), 0, 'not solved');
      await checkPage(page, `puzzles-${size}-shown`);
    } else {
      // The engine, rushed, suggested another good turn: whatever it is, it is not the solution.
      await page.locator('.learn-feedback .feedback-wrong, .learn-feedback .feedback-refused').waitFor();
    }

    // Found without help on a later visit: solved, and the engine's continuation is told turn by
    // turn, each played on the board when chosen (it was raw notation).
    await page.reload();
    await page.locator('.board-frame.my-turn').waitFor();
    await clickSquares(page, squaresOf(FIRST.solution));
    const right = await feedback(page, 'right');
    assert.match(right, /Solved! That is the best turn\./);
    assert.ok(right.includes(FIRST.solution), right);
    await page.locator('.tag-solved').waitFor();
    if (FIRST.line.length) {
      assert.match(right, /The engine goes on with:/);
      const steps = page.locator('.learn-feedback .line-step');
      assert.equal(await steps.count(), FIRST.line.length);
      const told = await steps.allInnerTexts();
      told.forEach((line, i) => assert.match(line, new RegExp(`^${FIRST.line[i]}\\s+\\S.* (moves|kills|takes|removes|enters|has no)`), line));
      const before = await page.locator('.board [data-piece]').evaluateAll((els) => els.map((e) => e.getAttribute('data-piece')).sort().join());
      await steps.nth(0).click();
      await page.locator('.line-step[aria-current="step"]').waitFor();
      const after = await page.locator('.board [data-piece]').evaluateAll((els) => els.map((e) => e.getAttribute('data-piece')).sort().join());
      assert.notEqual(after, before, 'the continuation\'s first turn is played on the board');
      await page.locator('.line-back').waitFor();
    }
    await checkPage(page, `puzzles-${size}-right`);

    // The next puzzle, given up: its solution is played on the board; played again as shown, it
    // is "Shown" and still not solved.
    await page.click('.next-puzzle');
    await page.getByRole('heading', { name: 'Puzzle 2' }).waitFor();
    await page.locator('.board-frame.my-turn').waitFor();
    await page.click('.show-solution');
    const solution = await feedback(page, 'hint');
    assert.match(solution, /The solution:/);
    assert.ok(solution.includes(SECOND.solution), solution);
    await checkPage(page, `puzzles-${size}-solution`);
    await page.click('.try-again');
    await page.locator('.board-frame.my-turn').waitFor();
    await clickSquares(page, squaresOf(SECOND.solution));
    await page.locator('.learn-feedback .feedback-hint', { hasText: 'Shown' }).waitFor();
    assert.match(await feedback(page, 'hint'), /Shown: that is the best turn\./);
    assert.equal(await page.locator('.tag-solved').count(), 0, 'not solved');

    // The list remembers the solved puzzle, after a reload too; the one given up is not solved.
    await page.goto(`${env.server.base}/puzzles`);
    await page.reload();
    await page.locator('.learn-count', { hasText: `1 of ${FILE.puzzles.length} solved` }).waitFor();
    assert.equal(await page.locator('.puzzle-item.solved').getAttribute('data-puzzle'), FIRST.id);
    await page.getByRole('link', { name: 'Next unsolved puzzle' }).waitFor();
    // The theme filter keeps only the puzzles of a theme.
    await page.selectOption('#puzzle-theme', FIRST.theme);
    const shown = await page.locator('.puzzle-item').count();
    assert.equal(shown, FILE.puzzles.filter((/** @type {any} */ p) => p.theme === FIRST.theme).length);
    assert.deepEqual(errors, []);
    await ctx.close();
  });
}

test('an unknown puzzle says so, with the way back', async () => {
  const page = await env.browser.newPage();
  await page.goto(`${env.server.base}/puzzles/p999`);
  await page.getByRole('heading', { name: 'There is no such puzzle.' }).waitFor();
  await page.getByRole('link', { name: 'All puzzles' }).waitFor();
  await page.close();
});
