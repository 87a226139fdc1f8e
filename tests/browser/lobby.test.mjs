// The lobby in headless Chromium against the real server: the create form's bots, clock and
// timeout rule reach the server; "Play against 3 bots" opens a game the bots play in; the creator
// re-invites a seat, gives one to a bot and cancels the game; "Your games" puts the games waiting
// for you first and refreshes when the window gets the focus back; invite links have QR codes,
// and the lobby says when friends cannot open them. Screenshots go to artifacts/screenshots/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, launchBrowserWith, shotPath, api, seriousViolations, pageWithErrors } from './harness.mjs';
import { qrModules } from '../../web/js/shared/qr.js';

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

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/**
 * A page that fails the test on script errors.
 * @param {import('playwright-core').Browser} b
 * @param {object} [options]  browser context options
 */
function openPage(b, options = { viewport: DESKTOP }) {
  return pageWithErrors(b, options);
}

/** The game id of the creator's card. @param {import('playwright-core').Page} page */
async function managedGame(page) {
  await page.locator('.manage').waitFor();
  return /** @type {string} */ (await page.locator('.manage').getAttribute('data-game'));
}

/** The invite link shown for a seat. @param {import('playwright-core').Page} page @param {string} p */
const inviteOf = (page, p) => page.locator(`.invite[data-player="${p}"] input`).inputValue();

/** The token in an invite link. @param {string} url */
const tokenOf = (url) => /** @type {string} */ (new URLSearchParams(new URL(url).hash.slice(1)).get('token'));

/** @param {string} id */
const snapshot = (id) => api(server.base, `/api/games/${id}`);

/** The squares pieces stand on, as the board draws them. @param {import('playwright-core').Page} page */
const pieceSquares = (page) => page.$$eval('[data-piece]', (gs) => gs.map((g) => g.getAttribute('data-piece')).sort().join(' '));

test('the create form sends bot seats, a live clock and the timeout rule; the creator sees them', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openPage(browser);
  await page.goto(server.base + '/');
  await page.getByRole('heading', { name: 'New game' }).waitFor();
  await page.fill('input[name="name-r"]', 'Ann');
  await page.selectOption('select[name="seat-b"]', 'hard');
  await page.selectOption('select[name="seat-y"]', 'easy');
  assert.equal(await page.locator('input[name="name-b"]').count(), 0, 'a bot seat has no name field');
  // The bots' think time, 0.2 s to 10 s, 1 s by default; the beginner level among the seats'.
  assert.deepEqual(await page.$$eval('select[name="bot_movetime"] option', (os) => os.map((o) => [o.getAttribute('value'), o.textContent])),
    [['200', '0.2 s'], ['500', '0.5 s'], ['1000', '1 s (default)'], ['2000', '2 s'], ['5000', '5 s'], ['10000', '10 s']]);
  assert.equal(await page.locator('select[name="bot_movetime"]').inputValue(), '1000');
  assert.deepEqual(await page.$$eval('select[name="seat-g"] option', (os) => os.map((o) => o.getAttribute('value'))),
    ['person', 'random', 'beginner', 'easy', 'medium', 'hard']);
  // With bots at the table, the turn limit is in view, with what happens without one.
  await page.locator('.bot-fields .turn-limit input[name="turn_limit"]').waitFor();
  await page.locator('.bot-fields .bots-limit', { hasText: 'the game is drawn after 100 turns without a kill or an elimination' }).waitFor();
  await page.locator('.bot-fields .bots-limit', { hasText: '400' }).waitFor();
  await page.locator('.name-row[data-player="b"] .level-desc', { hasText: 'searches deeply: a real fight' }).waitFor();
  await page.selectOption('select[name="bot_movetime"]', '500');
  await page.check('input[name="time"][value="live"]');
  await page.selectOption('select[name="live"]', '300+3');
  // The server's default is shown, and the form sends nothing unless another rule is chosen.
  await page.locator('select[name="on_timeout"] option[value=""]', { hasText: 'Server default: the player resigns' }).waitFor({ state: 'attached' });
  await page.selectOption('select[name="on_timeout"]', 'bot');
  await page.screenshot({ path: shotPath('lobby-create-form.png'), fullPage: true });
  assert.deepEqual(await seriousViolations(page), [], 'the form with bot seats is accessible');

  const request = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/games');
  await page.click('form button[type=submit]');
  const body = (await request).postDataJSON();
  assert.deepEqual(body.bots, { b: 'hard', y: 'easy' });
  assert.deepEqual(body.clock, { initial_s: 300, increment_s: 3 });
  assert.equal(body.on_timeout, 'bot');
  assert.equal(body.bot_movetime_ms, 500);
  assert.deepEqual(body.names, { r: 'Ann' });
  assert.equal(body.players, 4);

  // The creator's card: invite links for the people's seats only, the bots named with their level.
  const id = await managedGame(page);
  assert.deepEqual(await page.$$eval('.invites .invite', (lis) => lis.map((li) => li.getAttribute('data-player'))), ['r', 'g']);
  await page.locator('.seat-row[data-player="b"]', { hasText: 'Played by a bot (hard)' }).waitFor();
  await page.locator('.seat-row[data-player="y"]', { hasText: 'Played by a bot (easy)' }).waitFor();
  assert.match(await inviteOf(page, 'r'), new RegExp(`/game/${id}#seat=r&token=`));
  const admin = await page.evaluate((gid) => localStorage.getItem(`djambi.admin.${gid}`), id);
  assert.match(String(admin), /^[A-Za-z0-9_-]{20,}$/, 'the admin token is kept with the game');

  const game = await snapshot(id);
  assert.equal(game.status, 'open');
  assert.deepEqual(game.seats.map((/** @type {any} */ s) => [s.player, s.bot ?? null]), [['r', null], ['b', 'hard'], ['y', 'easy'], ['g', null]]);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: shotPath('lobby-creator-card.png'), fullPage: true });

  // The same on a phone: the card is one column, the links wrap.
  const phone = await openPage(browser, { viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  await phone.page.goto(server.base + '/');
  await phone.page.getByRole('heading', { name: 'New game' }).waitFor();
  await phone.page.selectOption('select[name="seat-g"]', 'medium');
  await phone.page.click('form button[type=submit]');
  await managedGame(phone.page);
  await phone.page.screenshot({ path: shotPath('lobby-phone.png'), fullPage: true });
  await phone.context.close();
  assert.deepEqual([...errors, ...phone.errors], []);
  await context.close();
});

test('"Play against 3 bots" opens a live game in which the bots move', { timeout: 90_000 }, async () => {
  const { context, page, errors } = await openPage(browser);
  await page.goto(server.base + '/');
  await page.locator('.play-bots').click();
  await page.waitForURL(/\/game\/[0-9a-f-]+$/);
  const id = page.url().split('/game/')[1];
  await page.locator('.seat-badge', { hasText: 'You play Red' }).waitFor();
  await page.locator('.turn-banner.mine').waitFor({ timeout: 15_000 });
  const game = await snapshot(id);
  assert.equal(game.status, 'live');
  // A browser that never saw a game of its own end is offered easy bots.
  assert.deepEqual(game.seats.map((/** @type {any} */ s) => s.bot ?? null), [null, 'easy', 'easy', 'easy']);
  assert.equal(game.seats[0].name, 'Guest');

  // Red moves; then the three bots do, and the board shows their moves. (The bots may answer
  // before the page shows Red's move: compare with the start, and count the turns.)
  const start = await pieceSquares(page);
  for (const sq of ['c7', 'c4']) await page.click(`[data-square="${sq}"]`);
  await page.click('.send-turn');
  await page.locator('.history-row.turn code.notation', { hasText: 'c7-c4' }).waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => document.querySelectorAll('.history-row.turn').length >= 4, null, { timeout: 45_000 });
  await page.locator('.turn-banner.mine').waitFor({ timeout: 45_000 });
  const now = await pieceSquares(page);
  assert.notEqual(now, start, 'the moves are on the board');
  await page.waitForTimeout(500);
  await page.screenshot({ path: shotPath('lobby-bots-game.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('"Play against 3 bots" offers each level with a line on how it plays: easy for a newcomer, then the last one chosen', { timeout: 90_000 }, async () => {
  const lines = {
    random: 'plays any legal turn, at random',
    beginner: 'sees what it can take, not what it risks',
    easy: 'weighs its own turn only, and slips now and then',
    medium: 'looks a few turns ahead',
    hard: 'searches deeply: a real fight',
  };
  for (const [screen, options] of /** @type {[string, object][]} */ ([
    ['desktop', { viewport: { width: 1280, height: 800 } }],
    ['phone', { viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ])) {
    const { context, page, errors } = await openPage(browser, options);
    await page.goto(server.base + '/');
    const options_ = page.locator('.bot-levels .level-option');
    await options_.first().waitFor();
    assert.deepEqual(await options_.evaluateAll((ls) => ls.map((l) => /** @type {HTMLElement} */ (l).dataset.level)), Object.keys(lines));
    for (const [level, line] of Object.entries(lines)) {
      const desc = page.locator(`.level-option[data-level="${level}"] .level-desc`);
      assert.ok(await desc.isVisible(), `${screen}: ${level}'s line is shown`);
      assert.equal(await desc.innerText(), line);
    }
    assert.equal(await page.locator('input[name="quick-level"]:checked').getAttribute('value'), 'easy', 'a fresh browser: easy');
    await page.locator('.hero .bots-limit', { hasText: 'drawn after 100 turns without a kill or an elimination' }).waitFor();
    assert.deepEqual(await seriousViolations(page), [], `${screen}: the level choice is accessible`);
    await page.screenshot({ path: shotPath(`lobby-levels-${screen}.png`) });

    await page.click('.level-option[data-level="beginner"]');
    assert.equal(await page.locator('input[name="quick-level"]:checked').getAttribute('value'), 'beginner');
    const request = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/games');
    await page.click('.play-bots');
    const body = (await request).postDataJSON();
    assert.deepEqual(body.bots, { b: 'beginner', y: 'beginner', g: 'beginner' });
    await page.waitForURL(/\/game\/[0-9a-f-]+$/);
    await page.locator('.seat-badge', { hasText: 'You play Red' }).waitFor();

    // Back in the lobby before any game of ours ended: easy still; after one: the last chosen.
    await page.goto(server.base + '/');
    await page.locator('input[name="quick-level"][value="easy"]:checked').waitFor();
    await page.evaluate(() => localStorage.setItem('djambi.finished', '1'));
    await page.reload();
    await page.locator('input[name="quick-level"][value="beginner"]:checked').waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the creator re-invites a seat, gives one to a bot and cancels the game from the lobby', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openPage(browser);
  await page.goto(server.base + '/');
  await page.getByRole('heading', { name: 'New game' }).waitFor();
  await page.click('form button[type=submit]');
  const id = await managedGame(page);
  assert.equal(await page.locator('.invites .invite').count(), 4);

  // A new link for Red replaces the old one, whose token stops working.
  const old = await inviteOf(page, 'r');
  await page.click('.seat-row[data-player="r"] .reinvite');
  await page.locator('.toast', { hasText: 'New link for Red' }).waitFor();
  // The toast may come before the link field is redrawn.
  await page.waitForFunction((o) => {
    const input = /** @type {HTMLInputElement | null} */ (document.querySelector('.invite[data-player="r"] input'));
    return input !== null && input.value !== o;
  }, old);
  const fresh = await inviteOf(page, 'r');
  assert.notEqual(fresh, old);
  await assert.rejects(api(server.base, `/api/games/${id}/seats`, { name: 'Eve', token: tokenOf(old) }), /403/);
  await api(server.base, `/api/games/${id}/seats`, { name: 'Bea', token: tokenOf(fresh) });

  // Green goes to an easy bot.
  await page.selectOption('select[name="bot-level-g"]', 'easy');
  await page.click('.seat-row[data-player="g"] .to-bot');
  await page.locator('.seat-row[data-player="g"]', { hasText: 'Played by a bot (easy)' }).waitFor();
  await page.locator('.seat-row[data-player="r"]', { hasText: 'Taken by Bea' }).waitFor();
  assert.equal((await snapshot(id)).seats[3].bot, 'easy');
  // Another seat for a bot: the table's bots' level is offered (it was medium before).
  assert.equal(await page.locator('select[name="bot-level-y"]').inputValue(), 'easy');

  // A wrong admin token: the server's `bad_token` in the creator's words.
  const admin = await page.evaluate((gid) => localStorage.getItem(`djambi.admin.${gid}`), id);
  await page.evaluate((gid) => localStorage.setItem(`djambi.admin.${gid}`, 'not-the-token'), id);
  await page.click('.seat-row[data-player="y"] .to-bot');
  await page.locator('.toast-error', { hasText: 'does not hold the creator\'s key' }).waitFor();
  await page.evaluate(([gid, token]) => localStorage.setItem(`djambi.admin.${gid}`, String(token)), [id, admin]);
  await page.screenshot({ path: shotPath('lobby-creator-actions.png'), fullPage: true });

  // Cancel, after a confirmation.
  await page.click('.cancel-game');
  await page.locator('dialog button[value="ok"]').click();
  await page.locator('.manage h2', { hasText: 'The game was cancelled' }).waitFor();
  const game = await snapshot(id);
  assert.equal(game.status, 'cancelled');
  assert.equal(game.cancelled, 'creator');
  assert.equal(await page.locator('.manage .reinvite').count(), 0, 'no creator actions once it is over');

  // Once a game has started, the server refuses them (`started`), and the card says so.
  await page.click('.manage .btn-ghost', { hasText: 'Create another game' });
  for (const p of ['b', 'y', 'g']) await page.selectOption(`select[name="seat-${p}"]`, 'easy');
  await page.click('form button[type=submit]');
  const started = await managedGame(page);
  await page.locator('.invite[data-player="r"]').waitFor();
  // The card would learn of the start at its next refresh: keep it from refreshing meanwhile.
  await page.route('**/api/games?ids=*', (route) => route.abort());
  await api(server.base, `/api/games/${started}/seats`, { name: 'Cid', token: tokenOf(await inviteOf(page, 'r')) });
  await page.click('.seat-row[data-player="r"] .reinvite');
  await page.locator('.toast-error', { hasText: 'The game has started' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('"Your games" puts the games waiting for you first and refreshes on focus', { timeout: 60_000 }, async () => {
  const base = server.base;
  // Mine to play: Red against three bots, with a live clock (Red's first turn runs).
  const a = await api(base, '/api/games', { players: 4, bots: { b: 'medium', y: 'medium', g: 'medium' }, clock: { initial_s: 600, increment_s: 5 } });
  const aSeat = await api(base, `/api/games/${a.id}/seats`, { name: 'Ann', token: a.seats[0].token });
  // Live, Red (someone else) to move; I play Blue.
  const b = await api(base, '/api/games', { players: 4, bots: { y: 'easy', g: 'easy' } });
  await api(base, `/api/games/${b.id}/seats`, { name: 'Bob', token: b.seats[0].token });
  const bSeat = await api(base, `/api/games/${b.id}/seats`, { name: 'Ann', token: b.seats[1].token });
  // I created it; nobody has joined yet.
  const c = await api(base, '/api/games', { players: 4 });

  const { context, page, errors } = await openPage(browser);
  await page.goto(base + '/');
  await page.evaluate(([a, aSeat, b, bSeat, c]) => {
    localStorage.setItem(`djambi.seat.${a.id}`, JSON.stringify({ player: aSeat.player, token: aSeat.token }));
    localStorage.setItem(`djambi.seat.${b.id}`, JSON.stringify({ player: bSeat.player, token: bSeat.token }));
    localStorage.setItem(`djambi.admin.${c.id}`, c.admin_token);
  }, [a, aSeat, b, bSeat, c]);
  await page.reload();
  const rows = page.locator('.your-game');
  await rows.nth(2).waitFor();
  assert.deepEqual(await rows.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-game'))), [a.id, b.id, c.id]);
  const first = rows.nth(0);
  await first.locator('.badge.your-turn', { hasText: 'Your turn' }).waitFor();
  // Red's first turn: its own allowance of 30 s (the 10-minute clock starts after it).
  assert.match(await first.locator('.time-left').innerText(), /^0:[0-3]\d left$/);
  assert.equal(await first.locator('a.open-game').getAttribute('href'), `/game/${a.id}`);
  await page.locator('.your-turn-count', { hasText: 'Waiting for you: 1' }).waitFor();
  await rows.nth(1).locator('.status-live', { hasText: 'Red to move' }).waitFor();
  assert.equal(await rows.nth(1).locator('.badge.your-turn').count(), 0);
  await rows.nth(2).locator('.status-open', { hasText: 'free seats: 4' }).waitFor();
  await page.locator('.your-games').screenshot({ path: shotPath('lobby-your-games.png') });

  // The creator's card from the list: no link kept in this browser, so it offers new ones.
  await rows.nth(2).locator('.manage-game').click();
  await page.locator('.manage .seat-row[data-player="r"]', { hasText: 'no link for this seat' }).waitFor();
  await page.click('.manage .seat-row[data-player="r"] .reinvite');
  assert.match(await inviteOf(page, 'r'), new RegExp(`/game/${c.id}#seat=r&token=`));

  // The game starts elsewhere; the list shows it when the window gets the focus back.
  await api(base, `/api/games/${c.id}/seats`, { name: 'Dan', token: tokenOf(await inviteOf(page, 'r')) });
  for (const i of [1, 2, 3]) await api(base, `/api/games/${c.id}/seats`, { name: `Player ${i}`, token: c.seats[i].token });
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await page.locator(`.your-game[data-game="${c.id}"][data-status="live"]`).waitFor();

  // Opening a game from the list.
  await first.locator('a.open-game').click();
  await page.waitForURL(`**/game/${a.id}`);
  await page.locator('.seat-badge', { hasText: 'You play Red' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('invite links have QR codes, and the lobby says when friends cannot open them', { timeout: 60_000 }, async () => {
  // Opened on this computer (127.0.0.1): the links work here only — a hint.
  const { context, page, errors } = await openPage(browser);
  await page.goto(server.base + '/');
  await page.click('form button[type=submit]');
  await managedGame(page);
  await page.locator('.link-notice.hint', { hasText: 'Only this computer can open these links' }).waitFor();
  assert.equal(await page.locator('.link-notice.warning').count(), 0);

  await page.click('.invite[data-player="r"] .qr-toggle');
  const svg = page.locator('.invite[data-player="r"] svg.qr-code');
  await svg.waitFor();
  const url = await inviteOf(page, 'r');
  const want = qrModules(url);
  assert.equal(Number(await svg.getAttribute('data-modules')), want.size);
  const d = /** @type {string} */ (await svg.locator('path').getAttribute('d'));
  assert.equal((d.match(/M/g) || []).length, want.dark.length, 'every dark module is drawn');
  assert.equal(await page.locator('.invite[data-player="r"] .qr-toggle').getAttribute('aria-expanded'), 'true');
  const box = await svg.boundingBox();
  assert.ok(box && box.width >= 150, 'the code is large enough to scan');
  await page.locator('.manage').screenshot({ path: shotPath('lobby-qr.png') });
  await context.close();

  // Opened under another name while the links say 127.0.0.1: friends' browsers would go to
  // their own computers — a warning with the option that fixes it.
  const other = await launchBrowserWith(['--host-resolver-rules=MAP djambi.test 127.0.0.1']);
  try {
    const remote = await openPage(other);
    const origin = `http://djambi.test:${server.port}`;
    await remote.page.goto(origin + '/');
    await remote.page.click('form button[type=submit]');
    await managedGame(remote.page);
    const warning = remote.page.locator('.link-notice.warning');
    await warning.waitFor();
    assert.match(await warning.innerText(), new RegExp(`point at 127\\.0\\.0\\.1:${server.port}`));
    assert.equal(await warning.locator('code').innerText(), `--public-url ${origin}`);
    await remote.page.locator('.manage').screenshot({ path: shotPath('lobby-link-warning.png') });
    assert.deepEqual([...errors, ...remote.errors], []);
  } finally {
    await other.close();
  }
});
