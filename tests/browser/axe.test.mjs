// Accessibility: axe-core (Deque's rules engine, from npm) runs inside each page of the client —
// the lobby, the rules, the lessons and puzzles, the transfer page, the game page (taking a seat,
// playing with clocks and bots, a finished game, as a spectator, a missing game), the replay and
// the settings dialog — on a desktop and a phone screen, each in the light and the dark theme (the
// system's scheme, followed by default: issue 46). No serious or critical violation may be left.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, api, seriousViolations } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

const SCREENS = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
};

/**
 * Checks a page on both screens; `open` brings each page to the state to check.
 * @param {string} name
 * @param {(page: import('playwright-core').Page, screen: string) => Promise<void>} open
 */
async function check(name, open) {
  /** @type {string[]} */
  const found = [];
  for (const [screen, options] of Object.entries(SCREENS)) {
    // Both themes on both screens: the phone's layout shows other parts (the sticky prompt,
    // the folded panels), each with its own colours.
    for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
      const ctx = await browser.newContext({ ...options, colorScheme });
      const page = await ctx.newPage();
      await open(page, screen);
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), colorScheme, `${name}: the ${colorScheme} theme`);
      for (const v of await seriousViolations(page)) found.push(`${name} (${screen}, ${colorScheme}): ${v}`);
      await ctx.close();
    }
  }
  assert.deepEqual(found, []);
}

/** Polls the server until a game is over. @param {string} id */
async function finished(id) {
  for (let i = 0; i < 600; i++) {
    const g = await api(server.base, `/api/games/${id}`);
    if (g.status === 'finished') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the bots did not finish');
}

test('axe: the lobby', { timeout: 60_000 }, async () => {
  await check('lobby', async (page) => {
    await page.goto(server.base + '/');
    await page.locator('form button[type=submit]').waitFor();
  });
});

test('axe: the rules', { timeout: 60_000 }, async () => {
  await check('rules', async (page) => {
    await page.goto(server.base + '/rules');
    await page.locator('.rules-figure svg.board').first().waitFor();
  });
});

test('axe: the game page, from taking a seat to playing against bots on a clock', { timeout: 90_000 }, async () => {
  await check('claim', async (page) => {
    const g = await api(server.base, '/api/games', { players: 4 });
    await page.goto(g.seats[0].invite_url);
    await page.locator('#claim-name').waitFor();
  });
  await check('game', async (page) => {
    const g = await api(server.base, '/api/games', {
      players: 4, bots: { b: 'easy', y: 'medium', g: 'hard' }, bot_movetime_ms: 200, clock: { initial_s: 600, increment_s: 5 }, names: { r: 'Ann' },
    });
    await page.goto(g.seats[0].invite_url);
    await page.click('.claim button[type=submit]');
    await page.locator('.turn-banner.mine').waitFor();
    await page.locator('.hit.clickable').first().waitFor();
    await page.locator('.player .clock').first().waitFor();
    // A piece chosen: the destinations are offered on the board and in the prompt.
    await page.locator('.hit.clickable').first().click();
  });
  // Our own phone logo link has a name (its words are hidden on phones, not removed).
  const ctx = await browser.newContext(SCREENS.phone);
  const page = await ctx.newPage();
  await page.goto(server.base + '/rules');
  await page.getByRole('link', { name: 'Djambi Online' }).waitFor();
  await ctx.close();
});

test('axe: a finished game, as a spectator, and its replay', { timeout: 120_000 }, async () => {
  const g = await api(server.base, '/api/games', {
    players: 4, bots: { r: 'random', b: 'random', y: 'random', g: 'random' }, bot_movetime_ms: 200, rules: { turn_limit: 4 },
  });
  await finished(g.id);
  await check('game over', async (page) => {
    await page.goto(`${server.base}/game/${g.id}`);
    await page.locator('.game-over h2').waitFor();
    await page.locator('.history-row.turn').first().waitFor();
  });
  await check('replay', async (page) => {
    await page.goto(`${server.base}/game/${g.id}/replay`);
    await page.locator('.replay-controls').waitFor();
    await page.click('.replay-next');
  });
});

test('axe: the lessons and the puzzles', { timeout: 120_000 }, async () => {
  await check('learn', async (page) => {
    await page.goto(server.base + '/learn');
    await page.locator('.lesson-item').first().waitFor();
  });
  await check('lesson', async (page) => {
    await page.goto(server.base + '/learn/reporter');
    await page.locator('.board-frame.my-turn').waitFor();
    // A wrong answer's feedback and a refused one's: the feedback boxes in both themes.
    await page.click('.board .hit[data-square="d7"]');
    await page.click('.board .hit[data-square="d6"]');
    await page.locator('.learn-feedback .feedback-wrong').waitFor();
  });
  await check('puzzles', async (page) => {
    await page.goto(server.base + '/puzzles');
    await page.locator('.puzzle-item').first().waitFor();
  });
  await check('puzzle', async (page) => {
    await page.goto(server.base + '/puzzles/p001');
    await page.locator('.board-frame.my-turn').waitFor();
    await page.click('.show-solution');
    await page.locator('.learn-feedback .line-step, .learn-feedback .feedback-hint').first().waitFor();
  });
});

test('axe: the transfer page, a missing game, the settings dialog and the text view', { timeout: 90_000 }, async () => {
  await check('transfer', async (page) => {
    await page.goto(server.base + '/transfer');
    await page.locator('main h1').first().waitFor();
  });
  await check('missing game', async (page) => {
    await page.goto(server.base + '/game/6f1c2a3e-0d4b-4c5e-9f60-7a8b9c0d1e2f');
    await page.getByText('There is no such game.').waitFor();
  });
  await check('settings', async (page) => {
    await page.goto(server.base + '/');
    await page.click('#settings-open');
    await page.getByRole('dialog', { name: 'Settings' }).waitFor();
  });
  await check('text view', async (page) => {
    const g = await api(server.base, '/api/games', { players: 4, bots: { b: 'easy', y: 'easy', g: 'easy' }, bot_movetime_ms: 200, names: { r: 'Ann' } });
    await page.goto(server.base + '/');
    await page.evaluate(() => localStorage.setItem('djambi.textView', '1'));
    await page.goto(g.seats[0].invite_url);
    await page.click('.claim button[type=submit]');
    await page.locator('.turn-banner.mine').waitFor();
    await page.fill('#text-command', 'p c7');
    await page.press('#text-command', 'Enter');
    await page.locator('.text-answer').waitFor();
  });
});
