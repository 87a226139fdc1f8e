// Unit tests of the lobby's pure parts (no browser): the CreateGame bodies the create form makes,
// the warning about invite links that friends cannot open, the order of "Your games", the time
// left as shown, and the QR codes of invite links.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

import { MOVETIME_PRESETS, botGameBody, createBody, customClock, defaultOnTimeout, defaultOptions, seatsOf } from '../../web/js/shared/gameopts.js';
import { timeLeftText } from '../../web/js/shared/duration.js';
import { isLoopbackHost, linkWarning } from '../../web/js/lobby/linkhost.js';
import { isYourTurn, sortYourGames } from '../../web/js/lobby/yourgames.js';
import { qrModules } from '../../web/js/shared/qr.js';
import { makeTranslator } from '../../web/js/i18n.js';

const here = dirname(fileURLToPath(import.meta.url));
const en = makeTranslator(JSON.parse(readFileSync(join(here, '..', '..', 'web', 'i18n', 'en.json'), 'utf8')));

test('create: the default form makes the plain body of the protocol', () => {
  const made = createBody(defaultOptions());
  assert.ok('body' in made);
  assert.deepEqual(made.body, { players: 4, rules: { own_kills: false, diplomat_to_maze: true, turn_limit: null } });
});

test('create: bot seats, their think time, a live clock and the timeout rule', () => {
  const o = defaultOptions();
  o.seats.b = 'hard';
  o.seats.y = 'easy';
  o.names.b = 'ignored: a bot plays Blue';
  o.names.r = '  Ann ';
  o.movetime = '2000';
  o.time = 'live';
  o.live = '300+3';
  o.on_timeout = 'bot';
  const made = createBody(o);
  assert.ok('body' in made);
  assert.deepEqual(made.body.bots, { b: 'hard', y: 'easy' });
  assert.deepEqual(made.body.names, { r: 'Ann' });
  assert.equal(made.body.bot_movetime_ms, 2000);
  assert.deepEqual(made.body.clock, { initial_s: 300, increment_s: 3 });
  assert.equal(made.body.on_timeout, 'bot');
});

test('create: the bots think for 1 s unless told otherwise (0.2 s to 10 s offered); a beginner seat', () => {
  const o = defaultOptions();
  o.seats.g = 'beginner';
  const made = createBody(o);
  assert.ok('body' in made);
  assert.deepEqual(made.body.bots, { g: 'beginner' });
  assert.ok(!('bot_movetime_ms' in made.body), 'the server\'s default goes without saying');
  o.movetime = '200';
  const fast = createBody(o);
  assert.ok('body' in fast);
  assert.equal(fast.body.bot_movetime_ms, 200);
  assert.deepEqual(MOVETIME_PRESETS, [200, 500, 1000, 2000, 5000, 10000]);
  assert.deepEqual(botGameBody('Ann', 'beginner').bots, { b: 'beginner', y: 'beginner', g: 'beginner' });
});

test('create: a correspondence clock; server defaults are left to the server', () => {
  const o = defaultOptions();
  o.time = 'correspondence';
  o.per_turn_s = 3 * 86_400;
  const made = createBody(o);
  assert.ok('body' in made);
  assert.deepEqual(made.body.clock, { per_turn_s: 259_200 });
  assert.ok(!('on_timeout' in made.body) && !('bots' in made.body) && !('bot_movetime_ms' in made.body));
  assert.equal(defaultOnTimeout('correspondence'), 'bot');
  assert.equal(defaultOnTimeout('live'), 'resign');
  // A timeout rule means nothing without a clock.
  o.time = 'casual';
  o.on_timeout = 'resign';
  const casual = createBody(o);
  assert.ok('body' in casual && !('clock' in casual.body) && !('on_timeout' in casual.body));
});

test('create: three players leave the hostage army out; a bad turn limit is refused', () => {
  const o = defaultOptions();
  o.players = 3;
  o.hostage = 'y';
  o.seats.y = 'hard';
  o.names.y = 'Hostage';
  assert.deepEqual(seatsOf(o), ['r', 'b', 'g']);
  const made = createBody(o);
  assert.ok('body' in made);
  assert.equal(made.body.hostage, 'y');
  assert.ok(!('bots' in made.body) && !('names' in made.body));
  o.turn_limit = '2.5';
  assert.deepEqual(createBody(o), { error: 'lobby.turn_limit_bad', field: 'turn_limit' });
});

test('create: "Play against 3 bots" seats the person as Red', () => {
  assert.deepEqual(botGameBody('Ann', 'hard'), { players: 4, names: { r: 'Ann' }, bots: { b: 'hard', y: 'hard', g: 'hard' } });
});

test('links: localhost links warn when the page came from elsewhere, hint when it is local', () => {
  for (const host of ['localhost', 'LOCALHOST', 'app.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1']) assert.ok(isLoopbackHost(host), host);
  for (const host of ['192.168.1.23', 'djambi.example.org', '10.0.0.1', '128.0.0.1', 'localhost.example.org']) assert.ok(!isLoopbackHost(host), host);
  const link = 'http://localhost:8080/game/x#seat=r&token=t';
  assert.deepEqual(linkWarning(link, { hostname: '192.168.1.23', origin: 'http://192.168.1.23:8080' }),
    { kind: 'elsewhere', linkHost: 'localhost:8080', pageOrigin: 'http://192.168.1.23:8080' });
  assert.equal(linkWarning(link, { hostname: '127.0.0.1', origin: 'http://127.0.0.1:8080' })?.kind, 'local');
  assert.equal(linkWarning('https://djambi.example.org/game/x', { hostname: 'localhost', origin: 'http://localhost:8080' }), null);
  assert.equal(linkWarning('not a url', { hostname: 'localhost', origin: 'http://localhost:8080' }), null);
});

test('your games: the games waiting for you first, then live, open, finished, cancelled', () => {
  const g = (/** @type {string} */ id, /** @type {string} */ status, /** @type {string | null} */ to_move, /** @type {string} */ updated_at, result = null) =>
    ({ id, status, to_move, updated_at, result });
  const rows = [
    { game: g('done', 'finished', null, '2026-01-05', /** @type {any} */ ({ winner: 'r' })), seat: { player: 'r' } },
    { game: g('open', 'open', 'r', '2026-01-04'), seat: null },
    { game: g('theirs', 'live', 'b', '2026-01-06'), seat: { player: 'r' } },
    { game: g('gone', 'cancelled', null, '2026-01-07'), seat: null },
    { game: g('mine-old', 'live', 'r', '2026-01-01'), seat: { player: 'r' } },
    { game: g('mine-new', 'live', 'g', '2026-01-03'), seat: { player: 'g' } },
  ];
  assert.deepEqual(sortYourGames(rows).map((r) => r.game.id), ['mine-new', 'mine-old', 'theirs', 'open', 'done', 'gone']);
  assert.ok(!isYourTurn(g('o', 'open', 'r', ''), { player: 'r' }), 'nobody moves before the start');
  assert.ok(!isYourTurn(g('w', 'live', 'r', ''), null), 'a creator without a seat has no turn');
});

test('time left: a clock under an hour, hours and minutes under a day, then days and hours — in each language', () => {
  assert.equal(timeLeftText(0, en), '0:00');
  assert.equal(timeLeftText(-5000, en), '0:00');
  assert.equal(timeLeftText(599_001, en), '10:00');
  assert.equal(timeLeftText(65_000, en), '1:05');
  assert.equal(timeLeftText(3599_000, en), '59:59');
  assert.equal(timeLeftText(3600_000, en), '1 h');
  assert.equal(timeLeftText(2 * 3600_000 + 4 * 60_000 + 5000, en), '2 h 4 min');
  assert.equal(timeLeftText(86_398_000, en), '23 h 59 min');
  assert.equal(timeLeftText(86_400_000, en), '1 d');
  assert.equal(timeLeftText(3 * 86_400_000 + 5 * 3600_000, en), '3 d 5 h');
  for (const lang of ['fr', 'it']) {
    const tr = makeTranslator(JSON.parse(readFileSync(join(here, '..', '..', 'web', 'i18n', `${lang}.json`), 'utf8')));
    assert.match(timeLeftText(86_398_000, tr), /^23 h 59 min$/);
    assert.match(timeLeftText(3 * 86_400_000 + 5 * 3600_000, tr), /^3 \S+ 5 h$/);
    assert.equal(timeLeftText(65_000, tr), '1:05');
  }
});

test('qr: an invite link gives a standard code (finder patterns in three corners)', () => {
  const url = 'http://192.168.1.23:8080/game/6f1c2a3e-0d4b-4c5e-9f60-7a8b9c0d1e2f#seat=r&token=qIWN4zsdul0XkxcWTNe-BK9qMw4Zg1Co';
  const { size, dark } = qrModules(url);
  assert.equal((size - 17) % 4, 0, `a QR code is 17 + 4·version modules wide, not ${size}`);
  const on = new Set(dark.map(([x, y]) => `${x},${y}`));
  // A finder pattern: a dark 7×7 ring, a light ring inside it, a dark 3×3 centre.
  for (const [ox, oy] of [[0, 0], [size - 7, 0], [0, size - 7]]) {
    for (let y = 0; y < 7; y++) {
      for (let x = 0; x < 7; x++) {
        const ring = Math.max(Math.abs(x - 3), Math.abs(y - 3));
        assert.equal(on.has(`${ox + x},${oy + y}`), ring !== 2, `finder at ${ox},${oy}: module ${x},${y}`);
      }
    }
  }
  assert.deepEqual(qrModules(url), { size, dark }, 'the same link, the same code');
});

test('create: a custom live clock is 1 to 180 whole minutes with 0 to 60 s added; the field at fault is named', () => {
  assert.deepEqual(customClock({ custom_min: '2', custom_inc: '7' }), { clock: { initial_s: 120, increment_s: 7 } });
  assert.deepEqual(customClock({ custom_min: '180', custom_inc: '0' }), { clock: { initial_s: 10_800, increment_s: 0 } });
  for (const min of ['0', '181', '1.5', '', 'ten']) {
    assert.deepEqual(customClock({ custom_min: min, custom_inc: '0' }), { error: 'lobby.clock_minutes_bad', field: 'custom_min' }, min);
  }
  for (const inc of ['-1', '61', '2.5', '']) {
    assert.deepEqual(customClock({ custom_min: '5', custom_inc: inc }), { error: 'lobby.clock_increment_bad', field: 'custom_inc' }, inc);
  }
  const o = defaultOptions();
  o.time = 'live';
  o.live = 'custom';
  o.custom_min = '3';
  o.custom_inc = '0';
  const made = createBody(o);
  assert.ok('body' in made);
  assert.deepEqual(made.body.clock, { initial_s: 180, increment_s: 0 });
});

test('create: invite-only games are unlisted and open ones listed, unless the creator says otherwise', () => {
  const o = defaultOptions();
  const body = (/** @type {any} */ x) => /** @type {any} */ (createBody(x)).body;
  assert.equal('listed' in body(o), false);
  o.listed = true;
  assert.equal(body(o).listed, true);
  o.open = true;
  assert.equal('listed' in body(o), false);
  o.listed = false;
  assert.equal(body(o).listed, false);
  assert.equal('players_chat_public' in body(o), false);
  o.players_chat_public = false;
  assert.equal(body(o).players_chat_public, false);
});
