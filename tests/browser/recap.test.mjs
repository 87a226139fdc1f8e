// Unit tests (no browser) of issue 19's client parts: the recap of the turns since the person's
// last one (queued, each shown in turn, never skipped, never holding the person up), the
// sentence that tells the person they are out and by whom, and the bots' levels offered.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

import { TurnRecap, STEP_MS, turnSquares, turnsSince } from '../../web/js/play/recap.js';
import { eliminationText } from '../../web/js/play/outnotice.js';
import { BOT_LEVELS, quickBotLevel, usualBotLevel } from '../../web/js/shared/gameopts.js';
import { makeTranslator } from '../../web/js/i18n.js';

const here = dirname(fileURLToPath(import.meta.url));
const dict = (/** @type {string} */ l) => JSON.parse(readFileSync(join(here, '..', '..', 'web', 'i18n', `${l}.json`), 'utf8'));
const en = makeTranslator(dict('en'));
const fr = makeTranslator(dict('fr'), dict('en'));
const it = makeTranslator(dict('it'), dict('en'));

const P = (/** @type {string} */ code) => ({ army: code[1], role: { C: 'Chief', A: 'Assassin', R: 'Reporter', D: 'Diplomat', N: 'Necromobile', M: 'Militant' }[code[0]] });

/** A turn event moving a Militant of `player` from `from` to `to`. */
function move(/** @type {number} */ v, /** @type {string} */ player, /** @type {string} */ from, /** @type {string} */ to) {
  return { v, kind: 'turn', number: v, player, turn: `${from}-${to}`, dpn: `dpn-${v}`, effects: [{ type: 'moved', piece: P(`M${player}`), from, to }] };
}

/** A recap on a fake clock: `tick(ms)` runs what is due. */
function fakeRecap() {
  /** @type {{at: number, fn: () => void, id: number}[]} */
  let timers = [];
  let now = 0;
  let id = 0;
  /** @type {string[]} */
  const log = [];
  const recap = new TurnRecap({
    onStep: (item) => log.push(`step ${item.v}@${now}`),
    onIdle: () => log.push(`idle@${now}`),
    schedule: (fn, ms) => {
      timers.push({ at: now + ms, fn, id: ++id });
      return id;
    },
    cancel: (h) => { timers = timers.filter((x) => x.id !== h); },
  });
  const tick = (/** @type {number} */ ms) => {
    const end = now + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const due = timers[0];
      if (!due || due.at > end) break;
      timers.shift();
      now = due.at;
      due.fn();
    }
    now = end;
  };
  return { recap, log, tick };
}

test('recap: a burst of three turns is shown one after another, in order, never skipped', () => {
  const { recap, log, tick } = fakeRecap();
  recap.push(2, move(2, 'b', 'i8', 'i7'));
  recap.push(3, move(3, 'y', 'h1', 'h2'));
  recap.push(4, move(4, 'g', 'a2', 'a3'));
  // The first at once, its position shown while the others wait; they are not marked yet.
  assert.deepEqual(log, ['step 2@0']);
  assert.equal(recap.showing().v, 2);
  assert.deepEqual(recap.marks().map((m) => [m.n, m.player, m.from, m.to, m.active]), [[1, 'b', 'i8', 'i7', true]]);
  tick(STEP_MS);
  assert.deepEqual(log, ['step 2@0', `step 3@${STEP_MS}`]);
  assert.equal(recap.showing().v, 3);
  tick(STEP_MS);
  // The last turn's position is the live one: nothing waits, the board is live again.
  assert.equal(recap.showing(), null);
  assert.equal(recap.behind(), false);
  tick(STEP_MS);
  assert.deepEqual(log, ['step 2@0', `step 3@${STEP_MS}`, `step 4@${2 * STEP_MS}`, `idle@${3 * STEP_MS}`]);
  // All three stay marked, numbered in order, none active.
  assert.deepEqual(recap.marks().map((m) => [m.n, m.player, m.active]), [[1, 'b', false], [2, 'y', false], [3, 'g', false]]);
});

test('recap: the person never waits — finish shows the rest at once, clear drops the marks', () => {
  const { recap, log, tick } = fakeRecap();
  recap.push(2, move(2, 'b', 'i8', 'i7'));
  recap.push(3, { v: 3, kind: 'draw_offered', by: 'y' });
  recap.push(4, move(4, 'y', 'h1', 'h2'));
  recap.finish();
  // Every item had its step (sentences said in order), then idle; nothing is scheduled.
  assert.deepEqual(log, ['step 2@0', 'step 3@0', 'step 4@0', 'idle@0']);
  assert.equal(recap.showing(), null);
  tick(10 * STEP_MS);
  assert.equal(log.length, 4);
  assert.deepEqual(recap.marks().map((m) => m.v), [2, 4], 'a note is said, not marked');
  recap.clear();
  assert.deepEqual(recap.marks(), []);
});

test('recap: notes take no time; a long catch-up is shown faster, but whole', () => {
  const { recap, log, tick } = fakeRecap();
  recap.push(2, { v: 2, kind: 'vote_cast', by: 'y', yes: true });
  recap.push(3, move(3, 'b', 'i8', 'i7'));
  assert.deepEqual(log, ['step 2@0', 'step 3@0']);
  tick(STEP_MS);
  for (let v = 4; v < 24; v++) recap.push(v, move(v, 'bygr'[v % 4], 'e1', 'e2'));
  tick(60_000);
  const steps = log.filter((l) => l.startsWith('step'));
  assert.equal(steps.length, 22, 'every turn has its moment');
  const at = steps.map((l) => Number(l.split('@')[1]));
  const total = at[at.length - 1] - at[2];
  assert.ok(total < 20 * STEP_MS, `a long queue goes faster (${total} ms)`);
  assert.ok(at.every((x, i) => i === 0 || x >= at[i - 1]), 'in order');
});

test('recap: a watcher keeps the last round; a takeback unmarks its turns', () => {
  const { recap, tick } = fakeRecap();
  recap.setLimit(3);
  for (let v = 1; v <= 5; v++) {
    recap.push(v, move(v, 'rbyg'[(v - 1) % 4], 'e1', 'e2'));
    tick(STEP_MS);
  }
  assert.deepEqual(recap.marks().map((m) => [m.n, m.v]), [[1, 3], [2, 4], [3, 5]]);
  recap.dropUndone([5]);
  assert.deepEqual(recap.marks().map((m) => m.v), [3, 4]);
});

test('recap: a page opening mid-game marks the turns since the person\'s last one', () => {
  const events = [move(1, 'r', 'a7', 'a6'), move(2, 'b', 'i8', 'i7'), { v: 3, kind: 'draw_offered', by: 'b' },
    move(4, 'y', 'h1', 'h2'), move(5, 'g', 'a2', 'a3'), move(6, 'r', 'a6', 'a5'), move(7, 'b', 'i7', 'i6')];
  assert.deepEqual(turnsSince(events, 'r', 4).map((x) => x.v), [7]);
  assert.deepEqual(turnsSince(events, 'y', 4).map((x) => x.v), [5, 6, 7]);
  assert.deepEqual(turnsSince(events, null, 3).map((x) => x.v), [5, 6, 7], 'a watcher: the last round');
  assert.deepEqual(turnsSince([...events, { v: 8, kind: 'taken_back', player: 'b', undone: [7] }], 'r', 4).map((x) => x.v), []);
  const { recap } = fakeRecap();
  recap.push(8, move(8, 'y', 'h2', 'h3'));
  recap.seed(turnsSince(events, 'r', 4));
  assert.deepEqual(recap.marks().map((m) => [m.n, m.v]), [[1, 7], [2, 8]], 'older turns come first');
});

test('recap: a turn\'s squares come from its effects', () => {
  assert.deepEqual(turnSquares({ effects: [
    { type: 'moved', piece: P('Ab'), from: 'f5', to: 'e5' },
    { type: 'killed', piece: P('Cr'), at: 'e5', by: P('Ab') },
    { type: 'exited_maze', piece: P('Ab'), to: 'e6' },
    { type: 'corpse_moved', from: 'e5', to: 'f5' },
  ] }), { from: 'f5', to: 'e6', at: ['e5'] });
  assert.deepEqual(turnSquares({ effects: [
    { type: 'moved', piece: P('Ry'), from: 'c3', to: 'c6' },
    { type: 'killed', piece: P('Cr'), at: 'c7', by: P('Ry') },
  ] }), { from: 'c3', to: 'c6', at: ['c7'] });
  assert.deepEqual(turnSquares({ kind: 'resign', effects: [{ type: 'resigned', player: 'g', at: 'a1' }] }), { from: null, to: null, at: ['a1'] });
  assert.deepEqual(turnSquares({ turn: 'pass', effects: [{ type: 'passed', player: 'y' }] }), { from: null, to: null, at: [] });
});

test('out: the person learns plainly that they are out, and by whom', () => {
  const reporter = {
    kind: 'turn', player: 'y', turn: 'c3-c6xc7', effects: [
      { type: 'moved', piece: P('Ry'), from: 'c3', to: 'c6' },
      { type: 'killed', piece: P('Cr'), at: 'c7', by: P('Ry') },
      { type: 'eliminated', player: 'r' },
      { type: 'took_control', player: 'y', armies: ['r'], from: 'r' },
    ],
  };
  assert.equal(eliminationText(en, reporter, 'r'), "Yellow's Reporter killed your Chief on c7: you are out.");
  assert.equal(eliminationText(fr, reporter, 'r'), 'Le Reporter jaune a tué votre Chef en c7 : vous êtes éliminé.');
  assert.equal(eliminationText(it, reporter, 'r'), 'Il Giornalista giallo ha ucciso il tuo Capo in c7: sei fuori.');
  assert.equal(eliminationText(en, reporter, 'b'), null, 'somebody else is out');
  // In the maze, with a piece of an army its player took over.
  const maze = {
    kind: 'turn', player: 'b', effects: [
      { type: 'moved', piece: P('Ag'), from: 'f5', to: 'e5' },
      { type: 'killed', piece: P('Cr'), at: 'e5', by: P('Ag') },
      { type: 'eliminated', player: 'r' },
    ],
  };
  assert.equal(eliminationText(en, maze, 'r'), "Green's Assassin, played by Blue, killed your Chief in the maze: you are out.");
  const walled = {
    kind: 'turn', player: 'g', effects: [
      { type: 'moved', piece: P('Ng'), from: 'b2', to: 'b3' },
      { type: 'corpse_moved', from: 'b3', to: 'a8' },
      { type: 'encircled', player: 'r', at: 'a9' },
      { type: 'eliminated', player: 'r' },
    ],
  };
  assert.equal(eliminationText(en, walled, 'r'), "Green's turn left your Chief on a9 surrounded by corpses, and it died: you are out.");
  const resign = { kind: 'resign', player: 'r', effects: [{ type: 'resigned', player: 'r', at: 'a9' }, { type: 'eliminated', player: 'r' }] };
  assert.equal(eliminationText(en, resign, 'r'), null, 'resigning, one knows');
  assert.equal(eliminationText(en, resign, 'r', { kind: 'timeout', player: 'r' }), 'You ran out of time: you are out.');
  assert.equal(eliminationText(en, resign, 'r', { kind: 'vote_closed', passed: true, target: 'r' }), 'The table voted that you resign: you are out.');
  for (const tr of [en, fr, it]) {
    for (const ev of [reporter, maze, walled]) assert.doesNotMatch(String(eliminationText(tr, ev, 'r')), /\{|^out\./, 'every placeholder filled, every key found');
  }
});

test('levels: weakest first; a newcomer gets easy, then the level chosen last; a seat joins the table\'s bots', () => {
  assert.deepEqual([...BOT_LEVELS], ['random', 'beginner', 'easy', 'medium', 'hard']);
  assert.equal(quickBotLevel({ finished: false, saved: null }), 'easy');
  assert.equal(quickBotLevel({ finished: false, saved: 'hard' }), 'easy', 'never finished a game: easy');
  assert.equal(quickBotLevel({ finished: true, saved: 'hard' }), 'hard');
  assert.equal(quickBotLevel({ finished: true, saved: 'nonsense' }), 'easy');
  assert.equal(usualBotLevel([]), 'medium');
  assert.equal(usualBotLevel([{ bot: null }, { bot: 'easy' }, { bot: 'hard' }, { bot: 'easy' }]), 'easy');
  assert.equal(usualBotLevel([{ bot: 'easy' }, { bot: 'hard' }]), 'hard', 'a tie goes to the stronger');
  assert.equal(usualBotLevel([{ player: 'g', bot: 'hard' }, { player: 'y', bot: 'beginner' }], 'g'), 'beginner', 'the seat handed over aside');
});
