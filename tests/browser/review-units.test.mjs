// Unit tests of the analysis's and hints' pure parts (no browser): each judged turn found by its
// event (never by its number: a turn taken back is not analysed), the signs of the turn list,
// the squares marked on the board, each player's tally, who plays, who may ask for a hint, and
// the create form's `hints`.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { SIGNS, accuracyOf, isMarked, keptChance, playedMark, playersOf, tally, turnSquares, verdictsByEvent } from '../../web/js/board/verdicts.js';
import { hintsAllowed } from '../../web/js/play/hint.js';
import { createBody, defaultOptions } from '../../web/js/shared/gameopts.js';

const turn = (v, number, player, played, label, best = played) =>
  ({ v, turn: number, player, played, best, before: 0.25, after: 0.2, label });

test('verdicts: found by the event version, turns taken back left out', () => {
  // Turn 2 (v 3) was taken back and played again as v 5; the analysis knows only what stands.
  const events = [
    { v: 1, kind: 'turn', number: 1, player: 'r' },
    { v: 2, kind: 'draw_offered' },
    { v: 3, kind: 'turn', number: 2, player: 'b' },
    { v: 4, kind: 'taken_back', undone: [3] },
    { v: 5, kind: 'turn', number: 2, player: 'b' },
    { v: 6, kind: 'resign', player: 'y' },
  ];
  const analysis = { start: [0.25, 0.25, 0.25, 0.25], turns: [turn(1, 1, 'r', 'b7-b5', 'good'), turn(5, 2, 'b', 'h8-g8', 'blunder')], chances: [] };
  const byEvent = verdictsByEvent(analysis, events);
  assert.deepEqual([...byEvent.keys()], [0, 4]);
  assert.equal(byEvent.get(4)?.label, 'blunder');
  assert.equal(byEvent.get(4)?.i, 1, 'its place in the analysis, for the chart');
  assert.equal(isMarked(byEvent.get(0)), false);
  assert.equal(isMarked(byEvent.get(4)), true);
  assert.equal(isMarked(undefined), false);
  assert.deepEqual(Object.entries(SIGNS), [['inaccuracy', '?!'], ['mistake', '?'], ['blunder', '??']]);
});

test('verdicts: the squares of a turn, start and destination first, and the mark of the turn played', () => {
  assert.deepEqual(turnSquares('d4-f6@a9'), ['d4', 'f6', 'a9']);
  assert.deepEqual(turnSquares('i2-g4xg3'), ['i2', 'g4', 'g3']);
  assert.deepEqual(turnSquares('e5-e4>d5@e6'), ['e5', 'e4', 'd5', 'e6']);
  assert.deepEqual(turnSquares('pass'), []);
  assert.deepEqual(turnSquares('nonsense'), []);
  assert.deepEqual(playedMark(turn(7, 13, 'r', 'f7-h7@d9', 'blunder')),
    { n: 13, player: 'r', from: 'f7', to: 'h7', at: ['d9'], active: true });
  assert.equal(playedMark(turn(8, 14, 'b', 'pass', 'best')), null);
});

test('verdicts: each player\'s tally, and the armies that play (a hostage has no chance at the start)', () => {
  const analysis = {
    start: [0.34, 0.33, 0.33, 0],
    turns: [turn(1, 1, 'r', 'a', 'blunder'), turn(2, 2, 'b', 'b', 'best'), turn(3, 3, 'y', 'c', 'inaccuracy'), turn(4, 4, 'r', 'd', 'blunder'), turn(5, 5, 'b', 'e', 'mistake')],
    chances: [],
  };
  assert.deepEqual(tally(analysis), {
    r: { inaccuracy: 0, mistake: 0, blunder: 2 },
    b: { inaccuracy: 0, mistake: 1, blunder: 0 },
    y: { inaccuracy: 1, mistake: 0, blunder: 0 },
  });
  assert.deepEqual(playersOf(analysis), ['r', 'b', 'y']);
});

test('verdicts: the chance the engine\'s turn kept, and each player\'s accuracy, old analyses too', () => {
  const now = { ...turn(1, 1, 'r', 'b7-b5', 'mistake', 'c7-f4'), before: 0.25, kept: 0.31, after: 0.12 };
  assert.equal(keptChance(now), 0.31);
  // Stored before `kept`: `before` was the chance with the engine's turn then.
  assert.equal(keptChance(turn(1, 1, 'r', 'b7-b5', 'mistake', 'c7-f4')), 0.25);
  const analysis = { start: [0.25, 0.25, 0.25, 0.25], turns: [], chances: [], accuracy: [87.4, null, 61, 0] };
  assert.deepEqual(['r', 'b', 'y', 'g'].map((p) => accuracyOf(analysis, p)), [87.4, null, 61, 0]);
  assert.equal(accuracyOf({ start: [], turns: [], chances: [] }, 'r'), null);
});

test('hints: against bots alone, or where the creator allowed them; never for a spectator', () => {
  const seats = (/** @type {Record<string, string | null>} */ bots) => ['r', 'b', 'y', 'g'].map((p) => ({ player: p, bot: bots[p] ?? null, alive: true }));
  const bots = { seats: seats({ b: 'easy', y: 'easy', g: 'hard' }), settings: {} };
  assert.equal(hintsAllowed(bots, 'r'), true);
  assert.equal(hintsAllowed(bots, null), false);
  const people = { seats: seats({ y: 'easy' }), settings: {} };
  assert.equal(hintsAllowed(people, 'r'), false);
  assert.equal(hintsAllowed({ ...people, settings: { hints: true } }, 'r'), true);
  // A person out of the game does not count: the others still playing are bots.
  const out = { seats: seats({ y: 'easy', g: 'easy' }).map((s) => (s.player === 'b' ? { ...s, alive: false } : s)), settings: {} };
  assert.equal(hintsAllowed(out, 'r'), true);
});

test('create: "Allow hints" adds hints: true, and nothing when off', () => {
  const o = defaultOptions();
  assert.equal(o.hints, false);
  const plain = createBody(o);
  assert.ok('body' in plain && !('hints' in plain.body));
  o.hints = true;
  const made = createBody(o);
  assert.ok('body' in made);
  assert.equal(made.body.hints, true);
});
