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

/**
 * Opens a lesson at a step (0-based), as a learner who got there, and waits for the board.
 * @param {import('playwright-core').Page} page @param {string} lesson @param {number} step
 */
async function openStep(page, lesson, step) {
  await page.goto(`${env.server.base}/learn`);
  await page.evaluate(([id, n]) => localStorage.setItem('djambi.lessons', JSON.stringify({ [id]: { step: n, done: false } })), [lesson, step]);
  await page.goto(`${env.server.base}/learn/${lesson}`);
  await page.locator('.step-count', { hasText: `Step ${step + 1} of` }).waitFor();
  await page.locator('.board-frame.my-turn').waitFor();
}

/** @param {import('playwright-core').Page} page @param {string[]} squares */
async function clickSquares(page, squares) {
  for (const sq of squares) await page.click(`.board .hit[data-square="${sq}"]`);
}

/** Whether an element is wholly inside the window. @param {import('playwright-core').Locator} loc */
async function inView(loc) {
  return loc.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth && r.height > 0;
  });
}

// ---- 2. The Reporter lesson: a second click on the landing square chooses nothing, and the
// feedback says what differs from the goal. (10.) A refusal the lesson asks for is no error.

for (const width of WIDTHS) {
  test(`${width} px: the Reporter lesson names what was done; its refusal step logs nothing (items 2, 10)`, { timeout: 60_000 }, async () => {
    const { context, page, errors } = await strictPage(width);
    // Step 2 asks to see a rule refuse a turn: answered, and no console error (it was a 422).
    await openStep(page, 'reporter', 1);
    await clickSquares(page, ['d7', 'd4']);
    await page.locator('.learn-feedback .feedback-right').waitFor();
    assert.match(await page.locator('.learn-feedback').innerText(), /d4: .*\(R4\.4\)/);
    await shot(page, `lesson-refused-${width}`);

    // Step 3: to h3, beside the Chief on g3; h3 again chooses nothing and says how to go on.
    await page.click('.next-step');
    await page.locator('.step-count', { hasText: 'Step 3 of' }).waitFor();
    await page.locator('.board-frame.my-turn').waitFor();
    await clickSquares(page, ['c8', 'h3']);
    await page.locator('.prompt-row.stage-victim').waitFor();
    await clickSquares(page, ['h3']);
    await page.locator('.prompt .square-info', { hasText: 'Choose its victim among the marked pieces, or press “Kill nobody”' }).waitFor();
    assert.equal(await page.locator('.prompt-row.stage-victim').count(), 1, 'still choosing the victim');
    assert.equal(await page.locator('.learn-feedback .feedback').count(), 0, 'nothing was sent');
    // The Reporter is drawn on h3 while its victim is chosen.
    assert.equal(await page.locator('.board [data-piece="h3"] .role-R.army-r').count(), 1);
    assert.equal(await page.locator('.board [data-piece="c8"]').count(), 0);
    await shot(page, `reporter-second-click-${width}`);
    // Killing nobody is asked for with its button; the feedback names that, not "stop beside g3".
    await page.click('.kill-nobody');
    const said = await page.locator('.learn-feedback .feedback-wrong').innerText();
    assert.match(said, /Your Reporter stopped beside Blue's Chief, on a square that shares a side with g3, but you chose to kill nobody/);
    assert.doesNotMatch(said, /must stop on a square/);
    await shot(page, `reporter-feedback-${width}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// ---- 6. The Chief lesson's step 3 names no army that is not on the board.

for (const width of WIDTHS) {
  test(`${width} px: the Chief lesson's maze step names only armies on the board (item 6)`, { timeout: 60_000 }, async () => {
    const { context, page, errors } = await strictPage(width);
    await openStep(page, 'chief', 2);
    await clickSquares(page, ['c7', 'e5']);
    const said = await page.locator('.learn-feedback .feedback-right').innerText();
    assert.match(said, /Red's Chief enters the maze — Red takes power/);
    assert.doesNotMatch(said, /Yellow|Green/);
    await shot(page, `chief-maze-${width}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// ---- 4. A two-step turn: the prompt in view beside or over the board, the piece where it went.

for (const width of WIDTHS) {
  test(`${width} px: choosing where the corpse goes, the prompt is in view and the piece drawn where it went (item 4)`, { timeout: 90_000 }, async () => {
    const { context, page, errors } = await strictPage(width);
    await openStep(page, 'militant', 2);
    await clickSquares(page, ['c6', 'e8']);
    const prompt = page.locator('.prompt-row.stage-place');
    await prompt.waitFor();
    assert.match(await prompt.innerText(), /Choose where to lay the corpse/);
    assert.ok(await inView(prompt), 'the prompt is in the window');
    assert.ok(await inView(prompt.locator('.take-back')), 'and its Take back button');
    assert.equal(await page.locator('.board [data-piece="e8"] .role-M.army-r').count(), 1, 'the Militant is drawn on e8');
    assert.equal(await page.locator('.board [data-piece="c6"]').count(), 0, 'not on c6');
    await shot(page, `lesson-place-${width}`);

    // The game page too: a piece chosen against bots, its destinations and the prompt in view.
    const g = await api(env.server.base, '/api/games', { players: 4, bots: { b: 'easy', y: 'easy', g: 'easy' }, bot_movetime_ms: 200, names: { r: 'Ann' } });
    await page.goto(g.seats[0].invite_url);
    await page.click('.claim button[type=submit]');
    await page.locator('.turn-banner.mine').waitFor();
    await page.locator('.board .hit[data-square="c7"]').click();
    const gamePrompt = page.locator('.prompt-row.stage-to');
    await gamePrompt.waitFor();
    await page.locator('.board .hit[data-square="c7"]').scrollIntoViewIfNeeded();
    assert.ok(await inView(gamePrompt), 'the game page\'s prompt is in the window');
    await shot(page, `game-prompt-${width}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// ---- 5. Narration: a piece of a taken army is moved by its controller.

/** Yellow controls Blue's army (Blue's Chief is dead) and plays Blue's Reporter. */
const TAKEN = 'Cr2Mr3Rb1/9/9/9/9/9/9/Mg8/Cg7Cy y ryyg r 0 - 0 20';

for (const width of WIDTHS) {
  test(`${width} px: "Yellow moves Blue's Reporter…" in the turn list and the replay (item 5)`, { timeout: 60_000 }, async () => {
    const created = await api(env.server.base, '/api/games/import', {
      format: 'djambi-game/1', rules: {}, start: TAKEN, events: [{ turn: 20, player: 'y', move: 'h9-e9xd9' }],
    });
    const { context, page, errors } = await strictPage(width);
    await page.goto(`${env.server.base}/game/${created.id}/replay`);
    await page.locator('.replay-controls').waitFor();
    await page.click('.replay-next');
    await page.locator('.replay-caption', { hasText: "Yellow moves Blue's Reporter from h9 to e9 and kills Red's Militant on d9" }).waitFor();
    await page.locator('.history-row.turn', { hasText: "Yellow moves Blue's Reporter" }).first().waitFor();
    await shot(page, `narration-${width}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// ---- 3. The replay ends where its content ends, the closed table of numbers included.

/** A finished game of fourteen turns (analysis.test.mjs's), analysed in seconds: its table of
 * numbers is taller than its scroller, which is what stretched the page. */
const FINISHED = {
  format: 'djambi-game/1', rules: {},
  start: 'CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1',
  events: [
    ...['c9-d9', 'g8-f7', 'h3-h4', 'c3-f3', 'd9-f7@f9', 'h8-c8@g5', 'g1-f1', 'b2-g7@b2', 'g5-g3@h8', 'c8-b8@e6', 'g2-g3@a4',
      'g7-g9@c5', 'f7-h7@d9', 'b8-b7@c6'].map((move, i) => ({ turn: i + 1, player: 'rbyg'[i % 4], move })),
    { resign: 'y' }, { resign: 'b' }, { resign: 'g' },
  ],
};

test('360 and 1280 px: the replay has no blank space after the analysis (item 3)', { timeout: 120_000 }, async () => {
  // (With the fix undone, this game's page is 2,658 px tall at 360 px for 2,011 px of content.)
  const g = await api(env.server.base, '/api/games/import', FINISHED);
  for (const width of WIDTHS) {
    const { context, page, errors } = await strictPage(width);
    await page.goto(`${env.server.base}/game/${g.id}/replay`);
    await page.locator('.analysis-panel .analyse, .chance-figure').first().waitFor({ timeout: 60_000 });
    if (await page.locator('.analysis-panel .analyse').count()) await page.click('.analysis-panel .analyse');
    await page.locator('.chance-figure').waitFor({ timeout: 120_000 });
    assert.equal(await page.locator('.chance-numbers').getAttribute('open'), null, 'the numbers are folded');
    assert.ok(await page.locator('.chance-numbers tbody tr').count() > 10, 'a table of numbers taller than its scroller');
    const { height, end } = await page.evaluate(() => ({
      height: document.documentElement.scrollHeight,
      end: Math.ceil(/** @type {HTMLElement} */ (document.querySelector('main')).getBoundingClientRect().bottom + window.scrollY),
    }));
    assert.ok(height <= end + 1, `${width} px: the page is ${height} px tall; its content ends at ${end} px`);
    await page.screenshot({ path: shotPath(`newcomer-replay-end-${width}.png`), fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

// ---- 8. The lobby's way to learn goes to the lessons; 10. a missing game, its replay and an
// invite to it say "no such game" without a console error; breadcrumbs and contents are 24 px
// targets.

for (const width of WIDTHS) {
  test(`${width} px: the lobby leads to the lessons; a missing game is said without errors; 24 px targets (items 8, 10)`, { timeout: 60_000 }, async () => {
    const { context, page, errors } = await strictPage(width);
    await page.goto(`${env.server.base}/`);
    const learn = page.locator('.hero .learn-link');
    assert.equal(await learn.getAttribute('href'), '/learn');
    assert.equal(await page.locator('.hero .rules-link').getAttribute('href'), '/rules');
    await shot(page, `lobby-learn-${width}`);
    await learn.click();
    await page.getByRole('heading', { name: 'Learn Djambi' }).waitFor();

    const missing = '6f1c2a3e-0d4b-4c5e-9f60-7a8b9c0d1e2f';
    for (const path of [`/game/${missing}`, '/game/not-a-game', `/game/${missing}/replay`, `/game/${missing}#seat=r&token=qIWN4zsdul0XkxcWTNe-BK9qMw4Zg1Co`]) {
      await page.goto(env.server.base + path);
      await page.getByText('There is no such game.').first().waitFor();
      if (path === `/game/${missing}`) await shot(page, `missing-game-${width}`);
    }

    // Targets: the lesson's breadcrumb and the rules' contents.
    await page.goto(`${env.server.base}/learn/militant`);
    // The lesson draws its page again once its words have come: measure the one that stays.
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    const crumb = await page.waitForFunction(() => {
      const a = document.querySelector('.crumbs a');
      const h = a ? a.getBoundingClientRect().height : 0;
      return h > 0 && h;
    });
    const height = /** @type {number} */ (await crumb.jsonValue());
    assert.ok(height >= 24, `breadcrumb ${height} px tall`);
    await page.goto(`${env.server.base}/rules`);
    await page.locator('.rules-toc a').first().waitFor();
    const heights = await page.locator('.rules-toc a').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    assert.ok(heights.length > 5 && heights.every((h) => h >= 24), `contents links: ${heights.join(', ')} px`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// ---- 7. Coordinates: one convention (the board turns so that its viewer's army is at the
// bottom, the labels turn with it), explained once on the rules page; labels of 11 px at least.

/**
 * For each square, the name the board's edge labels give it (the nearest label level with its
 * row and under its column), and every label's font size and drawn height.
 * @param {import('playwright-core').Page} page @param {string} wrapSelector @param {string[]} squares
 */
async function readLabels(page, wrapSelector, squares) {
  return page.evaluate(([sel, sqs]) => {
    const wrap = /** @type {HTMLElement} */ (document.querySelector(sel));
    const read = (/** @type {string} */ q) => [...wrap.querySelectorAll(q)].map((s) => {
      const range = document.createRange();
      range.selectNodeContents(s);
      const text = range.getBoundingClientRect();
      const r = s.getBoundingClientRect();
      return { t: s.textContent || '', x: r.left + r.width / 2, y: r.top + r.height / 2, size: parseFloat(getComputedStyle(s).fontSize), height: text.height };
    });
    const left = read('.board-ranks span');
    const below = read('.board-files span');
    const names = sqs.map((sq) => {
      const hit = /** @type {Element} */ (wrap.querySelector(`.hit[data-square="${sq}"]`)).getBoundingClientRect();
      const cx = hit.left + hit.width / 2;
      const cy = hit.top + hit.height / 2;
      const row = left.reduce((a, b) => (Math.abs(b.y - cy) < Math.abs(a.y - cy) ? b : a));
      const col = below.reduce((a, b) => (Math.abs(b.x - cx) < Math.abs(a.x - cx) ? b : a));
      return /[a-i]/.test(row.t) ? row.t + col.t : col.t + row.t;
    });
    return { names, labels: [...left, ...below] };
  }, [wrapSelector, squares]);
}

const SOME_SQUARES = ['a9', 'i9', 'i1', 'a1', 'c7', 'e5', 'g3', 'b2', 'h8'];

for (const width of WIDTHS) {
  test(`${width} px: one coordinate convention, readable labels that turn with the board (item 7)`, { timeout: 90_000 }, async () => {
    const { context, page, errors } = await strictPage(width);
    /** @param {string} where */
    const check = async (where) => {
      const { names, labels } = await readLabels(page, '.board-frame .board-wrap', SOME_SQUARES);
      assert.deepEqual(names, SOME_SQUARES, `${where}: each square is named by the labels beside it`);
      for (const l of labels) {
        assert.ok(l.size >= 11 && l.height >= 11, `${where}: label ${l.t} is ${l.size} px (${l.height.toFixed(1)} px drawn)`);
      }
      return labels;
    };
    // A lesson: Red's seat, Red bottom left.
    await openStep(page, 'militant', 0);
    const red = await check('lesson (Red)');
    assert.deepEqual(red.slice(0, 9).map((l) => l.t), ['i', 'h', 'g', 'f', 'e', 'd', 'c', 'b', 'a'], 'Red sees a to i up the left side');
    await shot(page, `coords-lesson-${width}`);
    // A puzzle for Yellow: Yellow's seat, and the page says so.
    await page.goto(`${env.server.base}/puzzles/p001`);
    await page.locator('.board-frame.my-turn').waitFor();
    await page.locator('.seat-note', { hasText: "You play Yellow: the board is turned so that Yellow's corner is at the bottom left" }).waitFor();
    await check('puzzle (Yellow)');
    await shot(page, `coords-puzzle-${width}`);
    // A game played as Green: Green's seat, a to i along the bottom.
    const g = await api(env.server.base, '/api/games', { players: 4, bots: { r: 'easy', b: 'easy', y: 'easy' }, bot_movetime_ms: 200, names: { g: 'Gil' } });
    await page.goto(g.seats[0].invite_url);
    await page.click('.claim button[type=submit]');
    await page.locator('.seat-badge', { hasText: 'You play Green' }).waitFor();
    const green = await check('game (Green)');
    assert.deepEqual(green.slice(9).map((l) => l.t), ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'], 'Green sees a to i along the bottom');
    await shot(page, `coords-game-green-${width}`);
    // The rules say it once, and no longer "Red top left".
    await page.goto(`${env.server.base}/rules`);
    const board = await page.locator('#board').innerText();
    assert.match(board, /every board turns so that your own army starts in the bottom-left corner, and the letters and numbers along its edges turn with it/);
    assert.match(board, /seen from Red's seat: Red bottom left/);
    assert.doesNotMatch(board, /Red top left/);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
