// The browser client against the real server, in headless Chromium, through the UI only:
// a game is created in the lobby, four browser contexts take their seats from the invite links and
// play until a chief has entered the maze and a chief has been killed; a fifth context watches
// every turn; a reloaded page resumes its seat; pages survive a network drop and a server
// restart; chat reaches everyone and a whisper only its recipient; draws are offered and declined;
// two players resign and the game-over view shows the ranking; the replay steps through the game.
// Screenshots go to artifacts/screenshots/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, shotPath, api, BROWSER_NOISE } from './harness.mjs';

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

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const NAMES = { r: 'Ann', b: 'Bea', y: 'Cid', g: 'Dan' };

/**
 * The scripted game: legal from the 4-player start (checked with `djambi play`).
 * Red's chief enters the maze on turn 9; Blue's Assassin kills it there on turn 10.
 */
const SCRIPT = [
  ['r', 'c7-c4'], ['b', 'h7-h5'], ['y', 'i3-i4'], ['g', 'a3-a4'],
  ['r', 'b8-f4'], ['b', 'i8-f5'], ['y', 'i4-h5@i6'], ['g', 'a4-a5'],
  ['r', 'a9-e5'], ['b', 'f5-e5>e6'],
];

/** The squares to click for a turn, in the order the picker asks for them. @param {string} turn */
function clicks(turn) {
  const m = /^([a-i][1-9])-([a-i][1-9])(?:x([a-i][1-9]))?(?:>([a-i][1-9]))?(?:@([a-i][1-9]))?$/.exec(turn);
  assert.ok(m, turn);
  return m.slice(1).filter(Boolean);
}

/** @param {import('playwright-core').Page} page @param {string} turn */
async function seeTurn(page, turn) {
  await page.locator('.history-row.turn code.notation', { hasText: turn }).first().waitFor({ timeout: 15_000 });
}

/**
 * A screenshot of the top of the page, once animations have settled.
 * @param {import('playwright-core').Page} page @param {string} name @param {boolean} [fullPage]
 */
async function shoot(page, name, fullPage = false) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(700);
  await page.screenshot({ path: shotPath(name), fullPage });
}

/** @param {import('playwright-core').Page} page */
function collectErrors(page, errors, who) {
  page.on('pageerror', (e) => errors.push(`${who}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !BROWSER_NOISE.test(m.text())) errors.push(`${who}: ${m.text()}`);
  });
}

test('four players and a spectator play a game through the UI', { timeout: 240_000 }, async () => {
  const base = server.base;
  /** @type {string[]} */
  const errors = [];

  // ---- the lobby: create a 4-player game with names, see one invite link per seat ----
  const creatorCtx = await browser.newContext({ viewport: DESKTOP });
  const creator = await creatorCtx.newPage();
  collectErrors(creator, errors, 'creator');
  await creator.goto(base + '/');
  await creator.getByRole('heading', { name: 'New game' }).waitFor();
  for (const [p, name] of Object.entries(NAMES)) await creator.fill(`input[name="name-${p}"]`, name);
  // By invitation, but listed under "Live games" so that anyone may watch it.
  await creator.locator('input[name="listed"]').check();
  await creator.click('form button[type=submit]');
  await creator.locator('.invites .invite').nth(3).waitFor();
  const invites = Object.fromEntries(await creator.$$eval('.invites .invite', (lis) =>
    lis.map((li) => [li.getAttribute('data-player'), /** @type {HTMLInputElement} */ (li.querySelector('input')).value])));
  assert.deepEqual(Object.keys(invites).sort(), ['b', 'g', 'r', 'y']);
  for (const url of Object.values(invites)) assert.match(url, /\/game\/[0-9a-f-]+#seat=[rbyg]&token=/);
  const gameUrl = invites.r.split('#')[0];
  const gameId = gameUrl.split('/game/')[1];
  await shoot(creator, 'lobby.png');

  // ---- four players take their seats: Red from the lobby's button, the others from their links ----
  /** @type {Record<string, import('playwright-core').Page>} */
  const pages = {};
  /** @type {Record<string, import('playwright-core').BrowserContext>} */
  const contexts = { r: creatorCtx };
  await creator.click('.invite[data-player="r"] .play-seat');
  pages.r = creator;
  for (const p of ['b', 'y', 'g']) {
    const phone = p === 'g';
    contexts[p] = await browser.newContext(phone
      ? { viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true }
      : { viewport: DESKTOP });
    pages[p] = await contexts[p].newPage();
    collectErrors(pages[p], errors, p);
    await pages[p].goto(invites[p]);
  }
  for (const p of ['r', 'b', 'y', 'g']) {
    const page = pages[p];
    await page.locator('#claim-name').waitFor();
    await page.fill('#claim-name', NAMES[p]);
    await page.click('.claim button[type=submit]');
    await page.locator('.seat-badge', { hasText: `You play ${{ r: 'Red', b: 'Blue', y: 'Yellow', g: 'Green' }[p]}` }).waitFor();
    assert.ok(!page.url().includes('token='), 'the seat token leaves the visible URL');
    if (p === 'r') {
      // The game waits for its players; the creator's page still offers the other invite links.
      await page.locator('.turn-banner.waiting', { hasText: 'Waiting for players' }).waitFor();
      await page.locator('.copy-invite').nth(2).waitFor();
    }
  }

  // ---- a spectator ----
  const specCtx = await browser.newContext({ viewport: DESKTOP });
  const spec = await specCtx.newPage();
  collectErrors(spec, errors, 'spectator');
  await spec.goto(gameUrl);
  await spec.locator('.seat-badge', { hasText: 'Watching' }).waitFor();
  await spec.locator('.spectator-count', { hasText: '1 watching' }).waitFor();
  const all = () => [...Object.values(pages), spec];

  // Everyone sees the four seats connected; Red is to move.
  await pages.r.locator('.turn-banner.mine', { hasText: 'Your turn' }).waitFor();
  for (const page of all()) {
    for (const p of ['r', 'b', 'y', 'g']) await page.locator(`.player[data-player="${p}"] .conn.on`).waitFor();
    await page.locator('.player[data-player="b"] .player-name strong', { hasText: 'Bea' }).waitFor();
  }
  await spec.locator('.turn-banner', { hasText: 'Red (Ann) to move' }).waitFor();

  // ---- an illegal turn cannot be entered; a step can be taken back ----
  const red = pages.r;
  await red.click('[data-square="a9"]'); // Red's chief is boxed in at the start
  assert.equal(await red.locator('.prompt-path').count(), 0);
  await red.click('[data-square="c7"]');
  await red.locator('.prompt-text', { hasText: 'Choose where your Necromobile goes' }).waitFor();
  await red.click('[data-square="e5"]'); // not a destination: nothing happens
  await red.locator('.prompt-path', { hasText: 'c7' }).waitFor();
  await red.click('[data-square="c4"]');
  await red.locator('.send-turn', { hasText: 'Send c7-c4' }).waitFor();
  await red.click('.take-back');
  await red.locator('.prompt-text', { hasText: 'Choose where your Necromobile goes' }).waitFor();
  await red.focus('svg.board');
  await red.keyboard.press('Escape'); // the keyboard takes a step back too
  await red.locator('.prompt-text', { hasText: 'choose a piece to move' }).waitFor();

  // ---- the scripted game ----
  for (let i = 0; i < SCRIPT.length; i++) {
    const [p, turn] = SCRIPT[i];
    const page = pages[p];
    await page.locator('.turn-banner.mine').waitFor({ timeout: 15_000 });
    if (p === 'g' && i === 3) {
      // Green plays one turn with the keyboard: arrows from e5 to a3, Enter, up to a4, Enter, Enter.
      await page.focus('svg.board');
      for (const k of ['ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowDown', 'ArrowDown', 'Enter', 'ArrowUp', 'Enter']) {
        await page.keyboard.press(k);
      }
      await page.locator('.send-turn', { hasText: `Send ${turn}` }).waitFor();
      await page.keyboard.press('Enter');
    } else {
      const squares = clicks(turn);
      for (let k = 0; k < squares.length; k++) {
        if (turn === 'f5-e5>e6' && k === 2) {
          // Blue's Assassin is in the maze: the exits light up. Picture it.
          await page.locator('.prompt-text', { hasText: 'leaves the maze' }).waitFor();
          await shoot(page, 'game-desktop-exit.png');
        }
        if (turn === 'i4-h5@i6' && k === 2) {
          await page.locator('.prompt-text', { hasText: 'Choose where to lay the corpse' }).waitFor();
        }
        await page.click(`[data-square="${squares[k]}"]`);
      }
      await page.click('.send-turn');
    }
    for (const other of all()) await seeTurn(other, turn);

    if (i === 2) {
      // ---- reloading a player's page resumes its seat ----
      await pages.y.reload();
      await pages.y.locator('.seat-badge', { hasText: 'You play Yellow' }).waitFor();
      await seeTurn(pages.y, 'i3-i4');
    }
    if (i === 4) {
      // ---- chat: a public message reaches everyone; a whisper only its recipient ----
      // On a phone the chat is a tab beside the turn list.
      for (const page of all()) if (await page.locator('.side-tabs').isVisible()) await page.click('#chat-tab');
      await red.fill('.chat-form input[name=chat]', 'Good luck, everyone');
      await red.press('.chat-form input[name=chat]', 'Enter');
      for (const page of all()) await page.locator('.chat-msg', { hasText: 'Good luck, everyone' }).waitFor();
      await pages.b.selectOption('.chat-form select[name=to]', 'y');
      await pages.b.fill('.chat-form input[name=chat]', 'Let us team up against Red');
      await pages.b.click('.chat-form button[type=submit]');
      await pages.y.locator('.chat-msg.whisper', { hasText: 'Let us team up against Red' }).waitFor();
      await pages.b.locator('.chat-msg.whisper', { hasText: 'Let us team up against Red' }).waitFor();
      // A spectator talks in the spectators' room: Green opens it and reads it, Red does not.
      await pages.g.getByRole('button', { name: "Open the spectators' room" }).click();
      await spec.fill('.chat-form input[name=chat]', 'What a game');
      await spec.press('.chat-form input[name=chat]', 'Enter');
      await pages.g.locator('.chat-msg.from-spectators', { hasText: 'What a game' }).waitFor();
      await spec.locator('.chat-msg', { hasText: 'What a game' }).waitFor();
      assert.equal(await pages.r.locator('.chat-msg', { hasText: 'What a game' }).count(), 0, 'the spectators\' room is closed on Red\'s page');
      for (const page of [pages.r, pages.g, spec]) {
        assert.equal(await page.locator('.chat-msg', { hasText: 'Let us team up' }).count(), 0, 'the whisper stays private');
      }
      for (const page of all()) if (await page.locator('.side-tabs').isVisible()) await page.click('#turns-tab');
    }
    if (i === 5) {
      // ---- a network drop: Yellow's page goes offline, Yellow's turn comes, it catches up ----
      // What Yellow was writing in the chat outlives the drop and the reconnection.
      await pages.y.fill('.chat-form input[name=chat]', 'half a thought');
      await contexts.y.setOffline(true);
      await pages.y.locator('.conn-badge:not(.conn-online)').waitFor();
      await pages.r.locator('.player[data-player="y"] .conn.off').waitFor();
      await contexts.y.setOffline(false);
      await pages.y.locator('.conn-badge.conn-online').waitFor({ timeout: 20_000 });
      await pages.y.locator('.chat-form input[name=chat]:enabled').waitFor();
      assert.equal(await pages.y.inputValue('.chat-form input[name=chat]'), 'half a thought', 'the draft is kept');
      await pages.y.fill('.chat-form input[name=chat]', '');
    }
    if (i === 7) {
      // ---- a draw is offered and declined ----
      await pages.y.click('.offer-draw');
      for (const page of all().filter((x) => x !== pages.y)) await page.locator('.draw-offer', { hasText: 'Yellow (Cid) offers a draw' }).waitFor();
      await pages.y.locator('.draw-offer', { hasText: 'You offered a draw' }).waitFor();
      await pages.g.click('.decline-draw');
      for (const page of all()) await page.locator('.draw-offer').waitFor({ state: 'detached' });

      // ---- the server restarts; every page reconnects and the game goes on ----
      await server.stop(false);
      for (const page of all()) await page.locator('.conn-badge:not(.conn-online)').waitFor({ timeout: 15_000 });
      server = await startServer({ dir: server.dir, port: server.port });
      for (const page of all()) await page.locator('.conn-badge.conn-online').waitFor({ timeout: 30_000 });
    }
    if (i === 8) {
      // Red's chief entered the maze: Red rules and plays bonus turns.
      for (const page of all()) {
        await page.locator('.ruler', { hasText: 'Red rules' }).waitFor();
        await page.locator('.player[data-player="r"] .tag-ruler').waitFor();
      }
      assert.ok(await spec.locator('.order-chip.bonus').count() > 0, 'bonus turns are shown');
      await shoot(red, 'game-desktop.png');
      await shoot(pages.g, 'game-phone.png');
      await shoot(pages.g, 'game-phone-full.png', true);

      // ---- the lobby lists a game with open seats (to join) and this live game (to watch) ----
      const open = await api(server.base, '/api/games', { players: 4, open: true });
      await api(server.base, `/api/games/${open.id}/seats`, { name: 'Eve', player: 'r' });
      const lobbyCtx = await browser.newContext({ viewport: DESKTOP });
      const lobby = await lobbyCtx.newPage();
      collectErrors(lobby, errors, 'lobby');
      await lobby.goto(server.base + '/');
      await lobby.locator('.list-open .game-row', { hasText: 'Eve' }).waitFor();
      await lobby.locator('.list-live .game-row', { hasText: 'Bea' }).waitFor();
      await lobby.locator('.list-live .spectators', { hasText: '1' }).waitFor();
      await shoot(lobby, 'lobby-lists.png');
      await lobby.fill('#lobby-name', 'Fay');
      await lobby.click('.list-open button.join[data-player="b"]');
      await lobby.locator('.seat-badge', { hasText: 'You play Blue' }).waitFor();
      await lobby.locator('.player[data-player="b"] .player-name strong', { hasText: 'Fay' }).waitFor();
      await lobbyCtx.close();
    }
  }

  // ---- the kill in the maze, as everyone saw it ----
  const sentence = "Blue's Assassin kills Red's Chief in the maze and leaves to e6; the corpse goes to f5 — Red is eliminated and Blue takes Red's army";
  for (const page of all()) {
    await page.locator('.history-row.turn .sentence', { hasText: sentence }).waitFor();
    await page.locator('.player[data-player="r"] .tag-out').waitFor();
  }
  await red.locator('.prompt-row', { hasText: 'You are out of the game' }).waitFor();
  await pages.b.locator('.player[data-player="b"] .controls').waitFor();
  // Red is out: no more resign button for it.
  assert.equal(await red.locator('button.resign').count(), 0);

  // ---- clicking an earlier turn shows that position ----
  await spec.locator('.history-row.turn .history-btn', { hasText: 'a9-e5' }).click();
  await spec.locator('.prompt-row.viewing', { hasText: 'after turn 9' }).waitFor();
  await spec.locator('[data-piece="e5"]').waitFor();
  await spec.click('.back-live');
  await spec.locator('[data-piece="e5"]').waitFor({ state: 'detached' });

  // ---- Yellow and Green resign (confirmed): Blue wins ----
  for (const p of ['y', 'g']) {
    const page = pages[p];
    await page.click('button.resign');
    await page.locator('dialog[open]').waitFor();
    await page.click('dialog[open] button[value=ok]');
  }
  for (const page of all()) {
    await page.locator('.game-over h2', { hasText: /Blue \(Bea\) wins!|You win!/ }).waitFor();
    const ranks = await page.locator('.ranking .rank-row').allInnerTexts();
    assert.equal(ranks.length, 4, ranks.join(' | '));
    assert.match(ranks[0], /Blue/);
    assert.match(ranks[1], /Green/);
    assert.match(ranks[2], /Yellow/);
    assert.match(ranks[3], /Red/);
  }
  await pages.b.locator('.game-over h2', { hasText: 'You win!' }).waitFor();
  await shoot(pages.b, 'game-over.png');
  await shoot(pages.g, 'game-over-phone.png');

  // ---- the replay steps through the whole game ----
  await spec.locator('.actions a', { hasText: 'Replay' }).click();
  await spec.locator('.replay-controls').waitFor();
  await spec.locator('.replay-count', { hasText: '0 / 12' }).waitFor();
  await spec.click('.replay-next');
  await spec.locator('.replay-caption', { hasText: "Red's Necromobile moves from c7 to c4" }).waitFor();
  await spec.keyboard.press('End');
  await spec.locator('.replay-count', { hasText: '12 / 12' }).waitFor();
  const download = await spec.locator('a.download').getAttribute('href');
  assert.equal(download, `/api/games/${gameId}/record`);
  const record = await (await fetch(base + download)).json();
  assert.equal(record.format, 'djambi-game/1');
  assert.deepEqual(record.result, { winner: 'b' });
  await shoot(spec, 'replay.png');

  // ---- the lobby lists the finished game for replay ----
  await creator.goto(base + '/');
  await creator.locator('.list-finished .game-row', { hasText: 'Blue won' }).waitFor();
  await shoot(creator, 'lobby-finished.png');

  assert.deepEqual(errors, []);
});

test('the rules page and the language switch', { timeout: 60_000 }, async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  const page = await ctx.newPage();
  await page.goto(server.base + '/');
  await page.click('.topbar nav a[data-route="rules"]');
  await page.locator('h1', { hasText: 'How to play Djambi' }).waitFor();
  // The diagrams come with their own fetch, after the text: wait for them.
  await page.locator('.rules-figure svg.board').nth(7).waitFor({ state: 'attached' });
  assert.ok(await page.locator('.rules-figure svg.board').count() >= 8);
  await shoot(page, 'rules.png');
  await page.selectOption('#lang', 'fr');
  await page.locator('h1', { hasText: 'Comment jouer au Djambi' }).waitFor();
  await page.locator('.topbar nav a[data-route="lobby"]', { hasText: 'Salon' }).waitFor();
  await page.selectOption('#lang', 'it');
  await page.locator('h1', { hasText: 'Come si gioca a Djambi' }).waitFor();
  await page.click('.topbar nav a[data-route="lobby"]');
  await page.locator('h2', { hasText: 'Nuova partita' }).waitFor();
  await page.reload();
  await page.locator('h2', { hasText: 'Nuova partita' }).waitFor(); // the choice is remembered
  await shoot(page, 'lobby-it.png');
  await ctx.close();
});

test('a three-player game with a hostage army ends in an agreed draw', { timeout: 120_000 }, async () => {
  const base = server.base;
  /** @type {string[]} */
  const errors = [];
  const creatorCtx = await browser.newContext({ viewport: DESKTOP });
  const creator = await creatorCtx.newPage();
  collectErrors(creator, errors, 'creator');
  await creator.goto(base + '/');
  await creator.locator('label.seg', { hasText: '3 players' }).click();
  await creator.selectOption('select[name=hostage]', 'g');
  assert.equal(await creator.locator('input[name="name-g"]').count(), 0, 'the hostage has no seat');
  await creator.locator('details.options summary').click();
  await creator.fill('input[name=turn_limit]', '40');
  await creator.click('form button[type=submit]');
  await creator.locator('.invites .invite').nth(2).waitFor();
  assert.equal(await creator.locator('.invites .invite').count(), 3);
  const invites = Object.fromEntries(await creator.$$eval('.invites .invite', (lis) =>
    lis.map((li) => [li.getAttribute('data-player'), /** @type {HTMLInputElement} */ (li.querySelector('input')).value])));
  /** @type {Record<string, import('playwright-core').Page>} */
  const pages = { r: creator };
  await creator.click('.invite[data-player="r"] .play-seat');
  for (const p of ['b', 'y']) {
    const ctx = await browser.newContext({ viewport: DESKTOP, locale: p === 'y' ? 'it-IT' : 'fr-FR' });
    pages[p] = await ctx.newPage();
    collectErrors(pages[p], errors, p);
    await pages[p].goto(invites[p]);
  }
  const names = { r: 'Ann', b: 'Bea', y: 'Cid' };
  for (const p of ['r', 'b', 'y']) {
    await pages[p].fill('#claim-name', names[p]);
    await pages[p].click('.claim button[type=submit]');
    await pages[p].locator('.seat-badge svg').waitFor();
  }
  // The French and Italian players see their languages; everyone sees the hostage army.
  await pages.b.locator('.seat-badge', { hasText: 'Vous jouez Bleu' }).waitFor();
  await pages.y.locator('.seat-badge', { hasText: 'Giochi Giallo' }).waitFor();
  await pages.r.locator('.player.hostage', { hasText: 'Hostage army' }).waitFor();
  await pages.b.locator('.player.hostage', { hasText: 'Armée otage' }).waitFor();

  await pages.r.locator('.rules-line', { hasText: 'draw after 40 turns without a kill' }).waitFor();
  await pages.r.locator('.turn-banner.mine').waitFor();
  for (const sq of ['c7', 'c4']) await pages.r.click(`[data-square="${sq}"]`);
  await pages.r.click('.send-turn');
  for (const p of ['r', 'b', 'y']) await seeTurn(pages[p], 'c7-c4');

  // Red offers a draw; Blue accepts, then Yellow: the game is drawn between the three.
  await pages.r.click('.offer-draw');
  await pages.b.click('.accept-draw');
  await pages.y.locator('.draw-offer').waitFor();
  await pages.y.click('.accept-draw');
  await pages.r.locator('.game-over h2', { hasText: 'Draw between Red, Blue and Yellow' }).waitFor();
  await pages.b.locator('.game-over h2', { hasText: 'Nulle entre Rouge, Bleu et Jaune' }).waitFor();
  await pages.y.locator('.game-over h2', { hasText: 'Patta tra Rosso, Blu e Giallo' }).waitFor();
  await shoot(pages.r, 'game-over-draw.png');
  assert.deepEqual(errors, []);
});
