// The lessons (issue 22), in Chromium against the real server: the list, then a whole lesson
// played on the board — right turns, a legal turn that misses the point (the lesson's own
// words), a turn the rules refuse (the core's reason, citing the rule), the step whose goal is
// to see a rule refuse a turn, the engine's good turn marked on the board — and the progress
// kept after a reload. At desktop and phone sizes, with no serious accessibility violation and
// no sideways scroll.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedServerAndBrowser } from './harness.mjs';
import { SIZES, checkPage, clickSquares, feedback } from './learnkit.mjs';

const env = sharedServerAndBrowser();

/** The step the page is on: "Step 2 of 5". @param {import('playwright-core').Page} page @param {number} n */
async function onStep(page, n) {
  await page.locator('.step-count', { hasText: `Step ${n} of` }).waitFor();
  // The position is loaded: a piece of the learner's may be chosen.
  await page.locator('.board-frame.my-turn').waitFor();
}

/** @param {import('playwright-core').Page} page */
async function nextStep(page) {
  await page.click('.next-step');
}

for (const [size, options] of SIZES) {
  test(`${size}: a whole lesson, right and wrong, with the rules' reasons and a hint; progress kept`, { timeout: 120_000 }, async () => {
    const ctx = await env.browser.newContext(options);
    const page = await ctx.newPage();
    /** @type {string[]} */
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));

    await page.goto(`${env.server.base}/learn`);
    await page.getByRole('heading', { name: 'Learn Djambi' }).waitFor();
    assert.equal(await page.locator('.lesson-item').count(), 12);
    await page.locator('.learn-count', { hasText: '0 of 12 lessons done' }).waitFor();
    await checkPage(page, `learn-${size}-list`);
    await page.getByRole('link', { name: 'Start: The Militant' }).click();
    await page.getByRole('heading', { name: 'The Militant' }).waitFor();

    // Step 1: the engine's good turn, marked on the board; then a move of the learner's own.
    await onStep(page, 1);
    await page.click('.show-hint');
    const hint = await feedback(page, 'hint');
    assert.match(hint, /A good turn/);
    assert.ok(await page.locator('.board .hint-frame').count() >= 2, 'the hint marks its squares');
    assert.equal(await page.locator('.board .hint-arrow').count(), 1, 'and an arrow');
    await clickSquares(page, ['c6', 'd7']);
    assert.match(await feedback(page, 'right'), /Well done![\s\S]*Militant moves from c6 to d7/);
    assert.equal(await page.locator('.board .hint-frame').count(), 0, 'the hint is gone once a turn is played');
    await checkPage(page, `learn-${size}-right`);
    await nextStep(page);

    // Step 2 asks to see a rule refuse a move: a legal move is not the point (the lesson says
    // why), the forbidden one is refused with the core's reason.
    await onStep(page, 2);
    await page.locator('.free-note').waitFor();
    await clickSquares(page, ['c6', 'c8']);
    assert.match(await feedback(page, 'wrong'), /Not quite\.[\s\S]*That move was allowed/);
    await checkPage(page, `learn-${size}-wrong`);
    await page.click('.try-again');
    await clickSquares(page, ['c6', 'f6']);
    const reason = await feedback(page, 'right');
    assert.match(reason, /f6: a Militant moves 1 or 2 squares \(R3\.2\)/);
    await nextStep(page);

    // Step 3: a kill, with the corpse laid where the learner chooses.
    await onStep(page, 3);
    await clickSquares(page, ['c6', 'e8']);
    await page.locator('.prompt-row.stage-place').waitFor();
    await clickSquares(page, ['a1']);
    assert.match(await feedback(page, 'right'), /kills Blue's Militant on e8/);
    await nextStep(page);

    // Step 4: a refused turn that is not the rule asked for — the core's reason, and nothing
    // moved — then the one that is.
    await onStep(page, 4);
    await clickSquares(page, ['d4', 'd7']);
    const refused = await feedback(page, 'refused');
    assert.match(refused, /The rules refuse this turn:[\s\S]*d7: a Militant moves 1 or 2 squares \(R3\.2\)[\s\S]*Nothing has moved/);
    await checkPage(page, `learn-${size}-refused`);
    await clickSquares(page, ['d4', 'e5']);
    assert.match(await feedback(page, 'right'), /only a chief may end a move on the maze \(R3\.5\)/);
    await nextStep(page);

    // Step 5, the last: across the maze.
    await onStep(page, 5);
    await clickSquares(page, ['d4', 'f6', 'a1']);
    await feedback(page, 'right');
    await page.locator('.lesson-done', { hasText: 'Lesson complete!' }).waitFor();
    const next = page.getByRole('link', { name: 'Next lesson: The Assassin' });
    await next.waitFor();
    await checkPage(page, `learn-${size}-done`);

    // Into the next lesson, one step done; a reload keeps the place in it and the list keeps
    // the finished lesson.
    await next.click();
    await onStep(page, 1);
    await clickSquares(page, ['c7', 'c3']);
    await feedback(page, 'right');
    await page.reload();
    await page.getByRole('heading', { name: 'The Assassin' }).waitFor();
    await onStep(page, 2);
    await page.goto(`${env.server.base}/learn`);
    await page.locator('.learn-count', { hasText: '1 of 12 lessons done' }).waitFor();
    assert.equal(await page.locator('.lesson-item.lesson-done').getAttribute('data-lesson'), 'militant');
    assert.match(await page.locator('.lesson-item[data-lesson="assassin"]').innerText(), /Step 2 of 3/);
    await page.getByRole('link', { name: 'Continue: The Assassin' }).waitFor();

    // The same page in French: the lesson's words and the page's follow the language.
    await page.selectOption('#lang', 'fr');
    await page.getByRole('heading', { name: 'Apprendre le Djambi' }).waitFor();
    await page.locator('.lesson-title', { hasText: 'Le Provocateur' }).waitFor();
    await page.selectOption('#lang', 'en');
    assert.deepEqual(errors, []);
    await ctx.close();
  });
}

test('an unknown lesson says so, with the way back', async () => {
  const page = await env.browser.newPage();
  await page.goto(`${env.server.base}/learn/no-such-lesson`);
  await page.getByRole('heading', { name: 'There is no such lesson.' }).waitFor();
  await page.getByRole('link', { name: 'All lessons' }).waitFor();
  await page.close();
});
