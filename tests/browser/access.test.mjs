// Issue 46, "a board everyone can read and hear", in Chromium against the real server at 360 and
// 1280 px, with screenshots under artifacts/screenshots/access-*.png: each army's shape (pieces,
// player list, turn list, chart) seen through simulated deuteranopia and protanopia; sounds off
// by default, turned on in the settings, each kind heard, and one tab of two playing them; the
// animation speed; the dark theme (a switch, the system's scheme followed, axe in both themes on
// the settings dialog); and the text view of the board, read through the accessibility tree.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, seriousViolations, sharedServerAndBrowser, shotPath } from './harness.mjs';

const env = sharedServerAndBrowser();

const WIDTHS = /** @type {const} */ ([360, 1280]);

/** @param {number} width @param {object} [more] */
const screen = (width, more = {}) => ({
  ...(width < 600
    ? { viewport: { width, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }
    : { viewport: { width, height: 800 } }),
  ...more,
});

/** A page that records every console error and page error. @param {number} width @param {object} [more] */
async function strictPage(width, more = {}) {
  const context = await env.browser.newContext(screen(width, more));
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  return { context, page, errors };
}

/** A game against three bots that wait for Red's first turn: every army at its start. */
async function botGame(/** @type {object} */ more = {}) {
  return api(env.server.base, '/api/games', {
    players: 4, bots: { b: 'easy', y: 'easy', g: 'easy' }, bot_movetime_ms: 200, names: { r: 'Ann' }, ...more,
  });
}

/** @param {import('playwright-core').Page} page @param {string} url */
async function takeSeat(page, url) {
  await page.goto(url);
  await page.click('.claim button[type=submit]');
  await page.locator('.turn-banner.mine').waitFor();
}

// ---- Colour is never the only cue.

/** Machado et al. (2009), severity 1: the colour matrices of the two red-green blindnesses. */
const CVD = {
  deuteranopia: [0.367322, 0.860646, -0.227968, 0, 0, 0.280085, 0.672501, 0.047413, 0, 0, -0.01182, 0.04294, 0.968881, 0, 0, 0, 0, 0, 1, 0],
  protanopia: [0.152286, 1.052583, -0.204868, 0, 0, 0.114503, 0.786281, 0.099216, 0, 0, -0.003882, -0.048116, 1.051998, 0, 0, 0, 0, 0, 1, 0],
};

/**
 * Renders the page through a simulated colour blindness: an SVG feColorMatrix filter on its root
 * (the context bypasses the page's CSP for the style tag).
 * @param {import('playwright-core').Page} page @param {keyof typeof CVD} kind
 */
async function simulate(page, kind) {
  await page.evaluate(([name, values]) => {
    const ns = 'http://www.w3.org/2000/svg';
    const defs = document.createElementNS(ns, 'svg');
    defs.setAttribute('width', '0');
    defs.setAttribute('height', '0');
    defs.setAttribute('aria-hidden', 'true');
    const filter = document.createElementNS(ns, 'filter');
    filter.id = `cvd-${name}`;
    const matrix = document.createElementNS(ns, 'feColorMatrix');
    matrix.setAttribute('type', 'matrix');
    matrix.setAttribute('values', values);
    filter.append(matrix);
    defs.append(filter);
    document.body.append(defs);
  }, [kind, CVD[kind].join(' ')]);
  await page.addStyleTag({ content: `html { filter: url(#cvd-${kind}); }` });
}

for (const width of WIDTHS) {
  test(`${width} px: each army has its own shape on its pieces, in the player list and the turn list, through deuteranopia and protanopia`, { timeout: 90_000 }, async () => {
    const { context, page, errors } = await strictPage(width, { bypassCSP: true });
    const g = await botGame();
    await takeSeat(page, g.seats[0].invite_url);
    // The pieces: four shapes, one per army, all 36 pieces drawn in their army's.
    const shapes = await page.locator('.board .piece[data-shape]').evaluateAll((els) => {
      /** @type {Record<string, string[]>} */
      const by = {};
      for (const e of els) {
        const army = [...e.classList].find((c) => c.startsWith('army-'))?.slice(5) || '?';
        (by[army] ||= []).push(/** @type {string} */ (e.getAttribute('data-shape')));
      }
      return by;
    });
    assert.deepEqual(Object.keys(shapes).sort(), ['b', 'g', 'r', 'y']);
    for (const list of Object.values(shapes)) assert.equal(new Set(list).size, 1, 'one shape per army');
    assert.equal(new Set(Object.values(shapes).map((l) => l[0])).size, 4, `four shapes: ${JSON.stringify(shapes)}`);
    // The player list's marks: the same four outlines (an SVG element of another kind or form each).
    const marks = await page.locator('.player-list .player .swatch').evaluateAll((els) =>
      els.map((e) => { const s = /** @type {Element} */ (e.firstElementChild); return `${s.tagName}:${s.getAttribute('points') ? s.getAttribute('points')?.split(' ').length : ''}`; }));
    assert.equal(new Set(marks).size, 4, `player list marks: ${marks.join(' ')}`);
    await page.screenshot({ path: shotPath(`access-shapes-${width}.png`) });
    for (const kind of /** @type {const} */ (['deuteranopia', 'protanopia'])) {
      const cvd = await env.browser.newContext(screen(width, { bypassCSP: true }));
      const p = await cvd.newPage();
      await p.goto(`${env.server.base}/game/${g.id}`);
      await p.locator('.board .piece').first().waitFor();
      await simulate(p, kind);
      await p.waitForTimeout(300);
      await p.screenshot({ path: shotPath(`access-${kind}-${width}.png`) });
      await cvd.close();
    }
    // A turn played: its line in the turn list has the mover's shape.
    await page.click('.board .hit[data-square="c7"]');
    await page.click('.board .hit[data-square="c6"]');
    if (await page.locator('.send-turn').count()) await page.click('.send-turn');
    await page.locator('.history-row.turn .swatch-r').first().waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// ---- The chart's lines: a dash pattern and the army's shape each.

/** A short finished game (analysis.test.mjs's): fourteen turns of random bots, then three
 * resignations. Analysed in seconds. */
const START = 'CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1';
const MOVES = ['c9-d9', 'g8-f7', 'h3-h4', 'c3-f3', 'd9-f7@f9', 'h8-c8@g5', 'g1-f1', 'b2-g7@b2', 'g5-g3@h8',
  'c8-b8@e6', 'g2-g3@a4', 'g7-g9@c5', 'f7-h7@d9', 'b8-b7@c6'];
const FINISHED = {
  format: 'djambi-game/1', rules: {}, start: START,
  events: [...MOVES.map((move, i) => ({ turn: i + 1, player: 'rbyg'[i % 4], move })), { resign: 'y' }, { resign: 'b' }, { resign: 'g' }],
};

test('the analysis chart marks each line with its army\'s shape, through deuteranopia (360 and 1280 px)', { timeout: 180_000 }, async () => {
  const g = await api(env.server.base, '/api/games/import', FINISHED);
  for (const width of WIDTHS) {
    const { context, page, errors } = await strictPage(width, { bypassCSP: true });
    await page.goto(`${env.server.base}/game/${g.id}/replay`);
    await page.locator('.analysis-panel .analyse, .chance-figure').first().waitFor({ timeout: 60_000 });
    if (await page.locator('.analysis-panel .analyse').count()) await page.click('.analysis-panel .analyse');
    await page.locator('.chance-figure').waitFor({ timeout: 120_000 });
    const ends = await page.locator('.chance-chart .chart-end').evaluateAll((els) => els.map((e) => `${e.tagName}${e.getAttribute('points') ? e.getAttribute('points')?.split(' ').length : ''}`));
    assert.ok(ends.length >= 2 && new Set(ends).size === ends.length, `line ends: ${ends.join(' ')}`);
    const legend = await page.locator('.chart-legend .swatch').count();
    assert.equal(legend, ends.length, 'the legend shows the same shapes');
    await page.locator('.chance-figure').scrollIntoViewIfNeeded();
    await simulate(page, 'deuteranopia');
    await page.waitForTimeout(300);
    await page.locator('.chance-figure').screenshot({ path: shotPath(`access-chart-deuteranopia-${width}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

// ---- Sounds.

/** Records the sounds the page plays (their kinds) and the oscillators it makes. */
function listenForSounds() {
  const w = /** @type {any} */ (window);
  w.__sounds = [];
  w.__oscillators = 0;
  document.addEventListener('djambi:sound', (e) => w.__sounds.push(/** @type {CustomEvent} */ (e).detail));
  const Ctx = window.AudioContext;
  if (Ctx) {
    const create = Ctx.prototype.createOscillator;
    Ctx.prototype.createOscillator = function () {
      w.__oscillators++;
      return create.call(this);
    };
  }
}

/** @param {import('playwright-core').Page} page @returns {Promise<string[]>} */
const sounds = (page) => page.evaluate(() => /** @type {any} */ (window).__sounds);

for (const width of WIDTHS) {
  test(`${width} px: sounds are off until turned on, remembered, each kind heard, and one tab of two plays them`, { timeout: 120_000 }, async () => {
    const context = await env.browser.newContext(screen(width));
    await context.addInitScript(listenForSounds);
    // The page's clock is ours to move on (to bring its own clock low without waiting).
    await context.clock.install();
    const page = await context.newPage();
    /** @type {string[]} */
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    const g = await botGame({ clock: { initial_s: 60, increment_s: 0 } });
    await takeSeat(page, g.seats[0].invite_url);
    // Off by default: a turn played makes no sound.
    await page.click('.board .hit[data-square="c7"]');
    await page.click('.board .hit[data-square="c6"]');
    if (await page.locator('.send-turn').count()) await page.click('.send-turn');
    await page.locator('.turn-banner.mine').waitFor({ timeout: 30_000 });
    assert.deepEqual(await sounds(page), [], 'nothing heard while sounds are off');
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).__oscillators), 0);

    // Turned on in the settings dialog: remembered for this browser.
    await page.click('#settings-open');
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.waitFor();
    assert.equal(await dialog.getByLabel('Play sounds').isChecked(), false);
    await dialog.getByLabel('Play sounds').check();
    await page.screenshot({ path: shotPath(`access-settings-${width}.png`) });
    assert.deepEqual(await seriousViolations(page), [], 'the settings dialog');
    await dialog.getByRole('button', { name: 'Close' }).click();
    assert.equal(await page.evaluate(() => localStorage.getItem('djambi.sound')), '1');

    // A second tab of the site: the first one plays the sounds, this one does not.
    const second = await context.newPage();
    await second.goto(`${env.server.base}/game/${g.id}`);
    await second.locator('.board .piece').first().waitFor();

    // A move and your turn: each heard (our own turn sounds at once, the bots' as they are shown).
    await page.click('.board .hit[data-square="c6"]');
    await page.click('.board .hit[data-square="c5"]');
    if (await page.locator('.send-turn').count()) await page.click('.send-turn');
    await page.waitForFunction(() => /** @type {any} */ (window).__sounds.includes('turn'), null, { timeout: 30_000 });
    const heard = await sounds(page);
    assert.ok(heard.includes('move'), `heard: ${heard}`);
    // A chat message from someone else.
    await second.evaluate(() => { /** @type {any} */ (window).__sounds = []; });
    const spectator = await env.browser.newContext();
    const other = await spectator.newPage();
    await other.goto(`${env.server.base}/game/${g.id}`);
    await other.locator('.chat-form input').waitFor();
    await page.evaluate(() => { /** @type {any} */ (window).__sounds = []; });
    // Spectators talk in their own room: the player opens it to hear them (on a phone, in the
    // chat's tab).
    const chatTab = page.locator('.side-tab', { hasText: 'Chat' });
    if (await chatTab.isVisible()) await chatTab.click();
    await page.click('.room-toggle');
    await page.locator('.room-toggle[aria-pressed="true"]').waitFor();
    await other.fill('.chat-form input', 'hello from the stands');
    await other.press('.chat-form input', 'Enter');
    await page.locator('.chat-msg', { hasText: 'hello from the stands' }).waitFor({ timeout: 15_000 });
    await page.waitForFunction(() => /** @type {any} */ (window).__sounds.includes('chat'), null, { timeout: 5000 });
    await spectator.close();
    // A kill: the same sound any tab would play for a killing turn (the turn list says so).
    const kill = await page.evaluate(async () => {
      const { turnSoundOf } = await import('/js/shared/alerts.js');
      return [turnSoundOf({ kind: 'turn', turn: 'a1-a2@b3', effects: [{ type: 'killed' }] }), turnSoundOf({ kind: 'turn', turn: 'pass', effects: [] })];
    });
    assert.deepEqual(kill, ['kill', null]);
    // Our clock running low (under 20 s of its minute): one warning, heard once.
    await page.evaluate(() => { /** @type {any} */ (window).__sounds = []; });
    await page.locator('.turn-banner.mine').waitFor({ timeout: 30_000 });
    await page.clock.fastForward(45_000);
    await page.waitForFunction(() => /** @type {any} */ (window).__sounds.includes('clock'), null, { timeout: 60_000 });
    // The second tab heard none of it: one tab plays the site's sounds.
    assert.deepEqual(await sounds(second), [], 'the second tab stays quiet');
    assert.equal(await second.evaluate(() => /** @type {any} */ (window).__oscillators), 0);
    // Remembered: a reload still has sounds on.
    await second.close();
    await page.goto(`${env.server.base}/`);
    await page.click('#settings-open');
    assert.equal(await page.getByRole('dialog', { name: 'Settings' }).getByLabel('Play sounds').isChecked(), true);
    assert.deepEqual(errors.filter((e) => !/WebSocket/.test(e)), []);
    await context.close();
  });
}

// ---- The animation speed.

/** Records how long each animation the page starts lasts. */
function listenForAnimations() {
  const w = /** @type {any} */ (window);
  w.__anims = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (keyframes, options) {
    w.__anims.push(typeof options === 'number' ? options : options && options.duration);
    return animate.call(this, keyframes, options);
  };
}

for (const width of WIDTHS) {
  test(`${width} px: the animation speed (slow, normal, fast, off), and the system's reduced motion honoured`, { timeout: 60_000 }, async () => {
    const g = await api(env.server.base, '/api/games/import', FINISHED);
    /** The durations of the slides when the replay steps to its first turn, at a speed. @param {import('playwright-core').Page} page */
    const slides = async (page) => {
      await page.evaluate(() => { /** @type {any} */ (window).__anims = []; });
      await page.locator('.replay-slider').fill('0');
      await page.locator('.replay-count', { hasText: /^0 \// }).waitFor();
      await page.click('.replay-next');
      await page.locator('.replay-caption', { hasText: "Red's Militant moves from c9 to d9" }).waitFor();
      await page.waitForTimeout(100);
      return page.evaluate(() => /** @type {any} */ (window).__anims);
    };
    /** @param {import('playwright-core').Page} page @param {string} label */
    const choose = async (page, label) => {
      await page.click('#settings-open');
      const dialog = page.getByRole('dialog', { name: 'Settings' });
      await dialog.getByRole('radio', { name: label, exact: true }).check();
      await dialog.getByRole('button', { name: 'Close' }).click();
    };
    const { context, page, errors } = await strictPage(width);
    await context.addInitScript(listenForAnimations);
    await page.goto(`${env.server.base}/game/${g.id}/replay`);
    await page.locator('.replay-controls').waitFor();
    assert.deepEqual(await slides(page), [380], 'normal');
    await choose(page, 'Slow');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.motion), 'slow');
    assert.deepEqual(await slides(page), [684], 'slow');
    await choose(page, 'Fast');
    assert.deepEqual(await slides(page), [171], 'fast');
    await choose(page, 'Off');
    assert.deepEqual(await slides(page), [], 'off');
    // Remembered, and set before the first paint after a reload.
    await page.reload();
    await page.locator('.replay-controls').waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('djambi.motion')), 'off');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.motion), 'off');
    await choose(page, 'Normal');
    await page.click('#settings-open');
    await page.screenshot({ path: shotPath(`access-motion-${width}.png`) });
    assert.deepEqual(errors, []);
    await context.close();

    // A system that asks for reduced motion gets no slide, even at "slow"; the dialog says so.
    const reduced = await strictPage(width, { reducedMotion: 'reduce' });
    await reduced.context.addInitScript(listenForAnimations);
    await reduced.page.goto(`${env.server.base}/game/${g.id}/replay`);
    await reduced.page.locator('.replay-controls').waitFor();
    await choose(reduced.page, 'Slow');
    assert.deepEqual(await slides(reduced.page), [], 'reduced motion');
    await reduced.page.click('#settings-open');
    await reduced.page.locator('.settings-reduced', { hasText: 'Your system asks for reduced motion' }).waitFor();
    assert.deepEqual(reduced.errors, []);
    await reduced.context.close();
  });
}

// ---- The dark theme: a switch (light, dark, as the system), remembered, the system followed.

for (const width of WIDTHS) {
  test(`${width} px: the dark theme follows the system, and the settings switch it (light, dark, as the system)`, { timeout: 60_000 }, async () => {
    const { context, page, errors } = await strictPage(width, { colorScheme: 'dark' });
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    const paper = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.goto(`${env.server.base}/learn/militant`);
    await page.locator('.board-frame.my-turn').waitFor();
    assert.equal(await theme(), 'dark', 'as the system, dark');
    assert.equal(await paper(), 'rgb(23, 19, 29)');
    await page.screenshot({ path: shotPath(`access-dark-lesson-${width}.png`) });
    // The system turns light: the page follows at once.
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    assert.equal(await paper(), 'rgb(245, 240, 230)');
    // Dark chosen in the settings, whatever the system: remembered for this browser.
    await page.click('#settings-open');
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    assert.equal(await dialog.getByRole('radio', { name: 'As the system' }).isChecked(), true);
    await dialog.getByRole('radio', { name: 'Dark' }).check();
    assert.equal(await theme(), 'dark');
    assert.deepEqual(await seriousViolations(page), [], 'the dialog in the dark theme');
    await page.screenshot({ path: shotPath(`access-dark-settings-${width}.png`) });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.goto(`${env.server.base}/`);
    await page.locator('.hero').waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('djambi.theme')), 'dark');
    assert.equal(await theme(), 'dark', 'remembered, with the system light');
    await page.screenshot({ path: shotPath(`access-dark-lobby-${width}.png`) });
    // Light chosen: light with a dark system.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.click('#settings-open');
    await page.getByRole('dialog', { name: 'Settings' }).getByRole('radio', { name: 'Light' }).check();
    assert.equal(await theme(), 'light');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// ---- The text view of the board, for screen readers.

for (const width of WIDTHS) {
  test(`${width} px: the text view answers the last turns, the clocks, a square and a piece's moves in the accessibility tree`, { timeout: 90_000 }, async () => {
    const { context, page, errors } = await strictPage(width);
    const g = await botGame({ clock: { initial_s: 600, increment_s: 5 } });
    await takeSeat(page, g.seats[0].invite_url);
    const view = page.getByRole('region', { name: 'Text view of the board' });
    // There for screen readers, not drawn on the page until the settings show it.
    assert.equal(await view.evaluate((el) => el.classList.contains('visually-hidden')), true);
    const box = page.getByRole('textbox', { name: 'Command' });
    const log = view.getByRole('log');
    /** Asks a command; its answer (the log's last line). @param {string} cmd */
    const ask = async (cmd) => {
      const before = await log.locator('p').count();
      await box.fill(cmd);
      await box.press('Enter');
      // The view is visually hidden (there for screen readers): its lines are attached, not "visible".
      await log.locator('p').nth(before).waitFor({ state: 'attached' });
      return /** @type {string} */ (await log.locator('p').nth(before).textContent());
    };
    assert.match(await ask('c'), /^c: Red \(Ann\) 10:00, running; Blue \(bot\) 10:00; Yellow \(bot\) 10:00; Green \(bot\) 10:00\.$/);
    assert.match(await ask('s c7'), /^s c7: c7: Red's Necromobile/);
    assert.match(await ask('p c7'), /^p c7: Red's Necromobile on c7 may go to 12 squares: a5, b6, c4, c5, c6, d6, d7, d8, e7, e9, f4 and f7\.$/);
    assert.match(await ask('p i9'), /Blue's Chief on i9 is not in an army you control/);
    assert.match(await ask('l'), /No turn has been played yet/);
    // A turn typed in plays it; the last turns are then told.
    assert.match(await ask('c7-c6'), /Sent: c7-c6/);
    await page.locator('.turn-banner.mine').waitFor({ timeout: 30_000 });
    assert.match(await ask('l 4'), /^l 4: Turn 1, Red: c7-c6\. Red's Necromobile moves from c7 to c6\. Turn 2, Blue: .+ Turn 4, Green: /);
    // What a screen reader is given: a region with its heading, the command box, the log.
    const tree = await view.ariaSnapshot();
    assert.match(tree, /heading "Text view of the board" \[level=2\]/);
    assert.match(tree, /textbox "Command"/);
    assert.match(tree, /log:\n(\s+- paragraph: .+\n?)+/);
    assert.match(tree, /Turn 1, Red: c7-c6/);
    assert.equal(await log.getAttribute('aria-live'), 'polite');
    // Shown on the page from the settings.
    await page.click('#settings-open');
    await page.getByRole('dialog', { name: 'Settings' }).getByLabel('Show the text view of the board').check();
    await page.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: 'Close' }).click();
    assert.equal(await view.evaluate((el) => el.classList.contains('visually-hidden')), false);
    await view.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shotPath(`access-text-view-${width}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}
