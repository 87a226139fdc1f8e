// Unit tests of the client's pure modules (no browser): the DPN reader, the turn picker, the
// narration, the game model and the translations. Fixtures come from djambi-core: `effects.json`
// holds real turns with their effects (random playouts), `legal.json` positions with `djambi legal`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

import { parseBoard, parseDpn, boardField, previewBoard, livingPlayers, rulerOf, SQUARES } from '../../web/js/board/dpn.js';
import * as P from '../../web/js/board/picker.js';
import { narrate } from '../../web/js/board/narrate.js';
import { makeTranslator, listOf } from '../../web/js/i18n.js';
import { normalizeGame, applyEvent, touchedSquares, travels, positions, comingTurns, armiesOf } from '../../web/js/board/model.js';
import { parseInvite } from '../../web/js/shared/tokens.js';
import { gameFromWire, legalFromWire, stateFromWire } from '../../web/js/wire.js';
import { displayCoords, squareAt } from '../../web/js/board/board.js';
import { liveTimes, deadlineLeft, formatClock, durationParts, voteTarget, canAnswerVote, awayFor, canAskTakeback, canAnswerTakeback } from '../../web/js/play/table.js';

const here = dirname(fileURLToPath(import.meta.url));
const webDir = join(here, '..', '..', 'web');
const readJson = (/** @type {string} */ p) => JSON.parse(readFileSync(p, 'utf8'));
const effects = readJson(join(here, 'fixtures', 'effects.json'));
const legalFixtures = readJson(join(here, 'fixtures', 'legal.json'));
const dicts = Object.fromEntries(['en', 'fr', 'it'].map((l) => [l, readJson(join(webDir, 'i18n', `${l}.json`))]));
const en = makeTranslator(dicts.en);

const START = 'CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1';

/** The server's `legal` map from a list of turn texts (PROTOCOL §3.3). */
function legalMap(turns) {
  const map = {};
  for (const text of turns) {
    const m = /^([a-i][1-9]-[a-i][1-9])(.*)$/.exec(text);
    const [key, suffix] = m ? [m[1], m[2]] : [text, ''];
    (map[key] ||= []).push(suffix);
  }
  return map;
}

// ---------------------------------------------------------------- DPN

test('dpn: the start position has 36 pieces, each army in its corner', () => {
  const pos = parseDpn(START);
  assert.equal(Object.keys(pos.board).length, 36);
  assert.deepEqual(pos.board.a9, { role: 'C', army: 'r' });
  assert.deepEqual(pos.board.i9, { role: 'C', army: 'b' });
  assert.deepEqual(pos.board.i1, { role: 'C', army: 'y' });
  assert.deepEqual(pos.board.a1, { role: 'C', army: 'g' });
  assert.deepEqual(pos.board.c7, { role: 'N', army: 'r' });
  assert.equal(pos.toMove, 'r');
  assert.deepEqual(pos.control, { r: 'r', b: 'b', y: 'y', g: 'g' });
  assert.equal(pos.turn, 1);
  assert.deepEqual(livingPlayers(pos), ['r', 'b', 'y', 'g']);
  assert.equal(rulerOf(pos), null);
});

test('dpn: board fields round-trip on every fixture position', () => {
  for (const f of effects) {
    if (!f.dpn) continue;
    const field = f.dpn.split(' ')[0];
    assert.equal(boardField(parseBoard(field)), field);
  }
});

test('dpn: corpses, orphans, the hostage and the ruler are read', () => {
  const pos = parseDpn('1ArMr3MbRbCb/Rr1Mr3MbDb1/MrMr4Nb1Mb/4Ab3X/Mg4X1My1/2Nr2Dr3/1MgNg3NyMy1/AgDgMg3MyDyRy/XRgMg3MyAyX - bb-- b 0 - 0 11');
  assert.deepEqual(pos.board.i6, { corpse: true });
  assert.equal(pos.toMove, null);
  assert.deepEqual(pos.control, { r: 'b', b: 'b', y: null, g: null });
  assert.deepEqual(livingPlayers(pos), ['b']);
  const three = parseDpn(START.replace('rbyg', 'rbyh'));
  assert.equal(three.control.g, 'h');
  assert.deepEqual(livingPlayers(three), ['r', 'b', 'y']);
  const ruled = parseDpn('9/7Cb1/9/9/3AbCr4/9/9/9/9 b rb-- r 0 - 0 1');
  assert.equal(rulerOf(ruled), 'r');
});

test('dpn: malformed boards are rejected', () => {
  for (const bad of ['9/9/9', '9/9/9/9/9/9/9/9/8', '9/9/9/9/9/9/9/9/45', '9/9/9/9/9/9/9/9/Zr8', '9/9/9/9/9/9/9/9/9Cr']) {
    assert.throws(() => parseBoard(bad), /board:/, bad);
  }
  assert.throws(() => parseDpn('9/9/9/9/9/9/9/9/9 r'), /position:/);
});

test('dpn: previewing a turn gives the board the core gives (encirclement aside)', () => {
  let checked = 0;
  for (const f of effects) {
    if (!f.before || f.turn === 'pass' || f.effects.some((e) => e.type === 'encircled')) continue;
    const before = parseDpn(f.before).board;
    const after = parseDpn(f.dpn).board;
    assert.deepEqual(previewBoard(before, P.parseTurn(f.turn)), after, f.turn);
    checked++;
  }
  assert.ok(checked > 40, `checked ${checked}`);
});

// ---------------------------------------------------------------- picker

test('picker: turn text splits into its choices', () => {
  assert.deepEqual(P.parseTurn('h2-e5>d6@a5'), { text: 'h2-e5>d6@a5', from: 'h2', to: 'e5', victim: null, exit: 'd6', place: 'a5' });
  assert.deepEqual(P.parseTurn('a8-a5xb5'), { text: 'a8-a5xb5', from: 'a8', to: 'a5', victim: 'b5', exit: null, place: null });
  assert.equal(P.parseTurn('pass').text, 'pass');
  assert.equal(P.parseTurn('b7-b5 '), null);
  assert.equal(P.parseTurn('z1-b5'), null);
});

test('picker: a plain move is piece, then destination, then done', () => {
  const legal = legalMap(legalFixtures[0].turns);
  let st = P.createPicker(legal);
  let s = P.stage(st);
  assert.equal(s.field, 'from');
  assert.deepEqual(s.options, ['a7', 'b7', 'c7', 'c8', 'c9'], 'the pieces not boxed in');
  assert.deepEqual(P.movableSquares(st), s.options);
  assert.equal(P.choose(st, 'a9'), null, 'the chief cannot move at the start');
  assert.equal(P.choose(st, 'e5'), null);
  st = P.choose(st, 'b7');
  s = P.stage(st);
  assert.equal(s.field, 'to');
  assert.deepEqual(s.options, ['a6', 'b5', 'b6', 'c6', 'd5']);
  assert.equal(P.choose(st, 'b4'), null);
  st = P.choose(st, 'b5');
  s = P.stage(st);
  assert.equal(s.field, 'done');
  assert.equal(s.turn, 'b7-b5');
  assert.equal(P.choose(st, 'b5'), null, 'nothing more to choose');
});

test('picker: the Reporter may kill or not', () => {
  const legal = legalMap(legalFixtures[1].turns);
  let st = P.choose(P.createPicker(legal), 'c3');
  assert.equal(P.stage(P.choose(st, 'c4')).turn, 'c3-c4', 'no victim possible: done at once');
  st = P.choose(st, 'a5');
  let s = P.stage(st);
  assert.equal(s.field, 'victim');
  assert.deepEqual(s.options, ['b5']);
  assert.equal(s.allowNone, true);
  assert.equal(P.stage(P.choose(st, 'b5')).turn, 'c3-a5xb5');
  assert.equal(P.stage(P.choose(st, null)).turn, 'c3-a5');
  // Clicking the Reporter's own square again chooses nothing (issue 46: it used to mean "kill
  // nobody" unasked); only the "Kill nobody" button (choose null) does.
  assert.equal(P.click(st, 'a5'), null);
  assert.equal(P.stage(st).field, 'victim');
  assert.equal(P.click(st, 'h8'), null);
});

test('picker: an Assassin acting in the maze chooses its exit', () => {
  const legal = legalMap(legalFixtures[2].turns);
  let st = P.createPicker(legal);
  st = P.choose(st, 'd5');
  assert.ok(P.stage(st).options.includes('e5'));
  st = P.choose(st, 'e5');
  const s = P.stage(st);
  assert.equal(s.field, 'exit');
  assert.ok(!s.options.includes('d5'), 'the Assassin may not exit onto its start square (R7.4)');
  assert.equal(s.allowNone, false);
  assert.equal(P.choose(st, null), null);
  assert.equal(P.stage(P.choose(st, 'e6')).turn, 'd5-e5>e6');
});

test('picker: a kill with a burial asks where the corpse goes', () => {
  const legal = legalMap(legalFixtures[3].turns.concat([]));
  // Red's chief sits in the maze in this position; Blue to move, whose militant may kill.
  let st = P.createPicker(legal);
  const kill = legalFixtures[3].turns.find((t) => t.includes('@'));
  assert.ok(kill, 'a burial turn exists');
  const parts = P.parseTurn(kill);
  st = P.choose(P.choose(st, parts.from), parts.to);
  const s = P.stage(st);
  assert.equal(s.field, 'place');
  assert.ok(s.options.includes(parts.place));
  assert.equal(P.stage(P.choose(st, parts.place)).turn, kill);
});

test('picker: a Diplomat in the maze chooses exit, then placement', () => {
  const fx = legalFixtures.find((f) => f.turns.some((t) => /^[a-i][1-9]-e5>[a-i][1-9]@/.test(t)));
  assert.ok(fx);
  const text = fx.turns.find((t) => /^[a-i][1-9]-e5>[a-i][1-9]@/.test(t));
  const parts = P.parseTurn(text);
  let st = P.createPicker(legalMap(fx.turns));
  st = P.choose(P.choose(st, parts.from), 'e5');
  assert.equal(P.stage(st).field, 'exit');
  st = P.choose(st, parts.exit);
  assert.equal(P.stage(st).field, 'place');
  assert.equal(P.stage(P.choose(st, parts.place)).turn, text);
});

test('picker: every legal turn, and only those, can be entered', () => {
  for (const f of legalFixtures) {
    const legal = legalMap(f.turns);
    const found = new Set();
    const walk = (st, depth) => {
      assert.ok(depth < 8);
      const s = P.stage(st);
      if (s.field === 'done') {
        found.add(s.turn);
        return;
      }
      if (s.canPass) found.add('pass');
      for (const o of s.options) walk(P.choose(st, o), depth + 1);
      if (s.allowNone) walk(P.choose(st, null), depth + 1);
    };
    walk(P.createPicker(legal), 0);
    assert.deepEqual([...found].sort(), [...f.turns].sort(), f.dpn);
  }
});

test('picker: a step can be taken back, and a piece re-selected', () => {
  const legal = legalMap(legalFixtures[0].turns);
  const st0 = P.createPicker(legal);
  const st1 = P.choose(st0, 'b7');
  const st2 = P.choose(st1, 'b5');
  assert.equal(P.stage(P.back(st2)).field, 'to');
  assert.equal(P.stage(P.back(P.back(st2))).field, 'from');
  assert.equal(P.stage(P.back(st0)).field, 'from', 'taking back nothing is harmless');
  // While choosing a destination, a click on another movable piece selects it instead.
  const re = P.click(st1, 'c7');
  assert.equal(P.chosen(re, 'from'), 'c7');
  assert.equal(P.stage(re).field, 'to');
  // A click on the selected piece drops it.
  assert.equal(P.stage(P.click(st1, 'b7')).field, 'from');
  // A click that means nothing changes nothing.
  assert.equal(P.click(st1, 'e5'), null);
  assert.equal(P.click(st0, 'a9'), null);
});

test('picker: pass, and no turn at all', () => {
  const st = P.createPicker({ pass: [''] });
  const s = P.stage(st);
  assert.equal(s.field, 'none');
  assert.equal(s.canPass, true);
  assert.equal(P.stage(P.createPicker({})).field, 'none');
  assert.equal(P.stage(P.createPicker(null)).canPass, false);
});

// ---------------------------------------------------------------- narration

test('narrate: the issue\'s example, from the core\'s effects', () => {
  const ev = {
    kind: 'turn', number: 10, player: 'b', turn: 'f5-e5>e6',
    effects: [
      { type: 'moved', piece: { army: 'b', role: 'Assassin' }, from: 'f5', to: 'e5' },
      { type: 'killed', piece: { army: 'r', role: 'Chief' }, at: 'e5', by: { army: 'b', role: 'Assassin' } },
      { type: 'eliminated', player: 'r' },
      { type: 'took_control', player: 'b', armies: ['r'], from: 'r' },
      { type: 'exited_maze', piece: { army: 'b', role: 'Assassin' }, to: 'e6' },
      { type: 'corpse_moved', from: 'e5', to: 'f5' },
      { type: 'lost_power', player: 'r' },
    ],
  };
  assert.equal(narrate(en, ev),
    "Blue's Assassin kills Red's Chief in the maze and leaves to e6; the corpse goes to f5 — Red is eliminated and Blue takes Red's army");
  const fr = makeTranslator(dicts.fr, dicts.en);
  assert.equal(narrate(fr, ev),
    "L'Assassin bleu tue le Chef rouge dans le labyrinthe et en sort vers e6 ; le cadavre va en f5 — Rouge est éliminé et Bleu prend l'armée rouge");
  const it = makeTranslator(dicts.it, dicts.en);
  assert.equal(narrate(it, ev),
    "L'Assassino blu uccide il Capo rosso nel labirinto ed esce in e6; il cadavere va in f5 — Rosso è eliminato e Blu prende l'esercito rosso");
});

test('narrate: plain moves, entering the maze, burials, resignations, the end', () => {
  const turn = (number, player, t, fx) => ({ kind: 'turn', number, player, turn: t, effects: fx });
  assert.equal(narrate(en, turn(1, 'r', 'c7-c4', [{ type: 'moved', piece: { army: 'r', role: 'Necromobile' }, from: 'c7', to: 'c4' }])),
    "Red's Necromobile moves from c7 to c4");
  assert.equal(narrate(en, turn(9, 'r', 'a9-e5', [
    { type: 'moved', piece: { army: 'r', role: 'Chief' }, from: 'a9', to: 'e5' }, { type: 'took_power', player: 'r' }])),
  "Red's Chief enters the maze — Red takes power");
  assert.equal(narrate(en, turn(7, 'y', 'i4-h5@i6', [
    { type: 'moved', piece: { army: 'y', role: 'Militant' }, from: 'i4', to: 'h5' },
    { type: 'killed', piece: { army: 'b', role: 'Militant' }, at: 'h5', by: { army: 'y', role: 'Militant' } },
    { type: 'corpse_moved', from: 'h5', to: 'i6' }])),
  "Yellow's Militant kills Blue's Militant on h5 and buries the corpse on i6");
  assert.equal(narrate(en, { kind: 'resign', player: 'g', effects: [
    { type: 'resigned', player: 'g', at: 'a1' }, { type: 'eliminated', player: 'g' },
    { type: 'orphaned', armies: ['g'], from: 'g' }, { type: 'game_over', outcome: { winner: 'b' } }] }),
  "Green resigns — Green's army is left without a master and Blue wins the game");
  assert.equal(narrate(en, { kind: 'draw_offered', by: 'b' }), 'Blue offers a draw');
  assert.equal(narrate(en, { kind: 'draw_accepted', by: 'y' }), 'Yellow accepts the draw');
  assert.equal(narrate(en, { kind: 'draw_agreed', dpn: '', result: { draw: ['r', 'b'] } }), 'The players agree a draw (Red and Blue)');
  assert.equal(narrate(en, turn(30, 'y', 'pass', [{ type: 'passed', player: 'y' }])), 'Yellow has no legal turn and passes');
});

test('narrate: a piece of a taken army is moved by its controller, who is named (issue 46)', () => {
  // Yellow took Blue's army; Yellow plays Blue's Reporter (the text record says "Yellow h9-e9xd9").
  const ev = {
    kind: 'turn', number: 40, player: 'y', turn: 'h9-e9xd9',
    effects: [
      { type: 'moved', piece: { army: 'b', role: 'Reporter' }, from: 'h9', to: 'e9' },
      { type: 'killed', piece: { army: 'r', role: 'Militant' }, at: 'd9', by: { army: 'b', role: 'Reporter' } },
    ],
  };
  assert.equal(narrate(en, ev), "Yellow moves Blue's Reporter from h9 to e9 and kills Red's Militant on d9");
  assert.equal(narrate(makeTranslator(dicts.fr, dicts.en), ev), 'Jaune déplace le Reporter bleu de h9 à e9 et tue le Militant rouge en d9');
  assert.equal(narrate(makeTranslator(dicts.it, dicts.en), ev), 'Giallo muove il Giornalista blu da h9 a e9 e uccide il Militante rosso in d9');
  const plain = { ...ev, player: 'y', effects: [{ type: 'moved', piece: { army: 'b', role: 'Militant' }, from: 'h9', to: 'h8' }] };
  assert.equal(narrate(en, plain), "Yellow moves Blue's Militant from h9 to h8");
  const kill = { ...ev, player: 'g', effects: [
    { type: 'moved', piece: { army: 'y', role: 'Chief' }, from: 'a1', to: 'a3' },
    { type: 'killed', piece: { army: 'r', role: 'Militant' }, at: 'a3', by: { army: 'y', role: 'Chief' } },
    { type: 'corpse_moved', from: 'a3', to: 'b1' }] };
  assert.equal(narrate(en, kill), "Green kills Red's Militant on a3 with Yellow's Chief and buries the corpse on b1");
  // Every controlled form is a full sentence in every language.
  for (const [lang, dict] of Object.entries(dicts)) {
    const tr = makeTranslator(dict, dicts.en);
    for (const role of ['Chief', 'Militant', 'Assassin', 'Reporter', 'Diplomat', 'Necromobile']) {
      const s = narrate(tr, { ...ev, effects: [{ type: 'moved', piece: { army: 'b', role }, from: 'h9', to: 'h5' }] });
      assert.ok(!/[{}]|narr\.|player\.|role\./.test(s), `${lang}: ${s}`);
      assert.ok(s.startsWith(tr('player.y')) && s.includes(tr(`role.${role}`)) && s.includes('h5'), `${lang}: ${s}`);
    }
  }
});

test('narrate: armies without a piece on the board are not named as taken (issue 46)', () => {
  // The Chief lesson's step 3: a board with Red and Blue only; the core hands the empty Yellow and
  // Green armies to the Chief that takes the maze.
  const ev = { kind: 'turn', number: 1, player: 'r', turn: 'c7-e5', effects: [
    { type: 'moved', piece: { army: 'r', role: 'Chief' }, from: 'c7', to: 'e5' },
    { type: 'took_power', player: 'r' },
    { type: 'took_control', player: 'r', armies: ['y', 'g'], from: null }] };
  assert.equal(narrate(en, ev), "Red's Chief enters the maze — Red takes power and Red takes the Yellow and Green armies");
  const board = { e5: { role: 'C', army: 'r' }, b8: { role: 'M', army: 'r' }, i2: { role: 'C', army: 'b' }, h1: { role: 'M', army: 'b' }, c3: { corpse: true } };
  assert.equal(narrate(en, ev, { board }), "Red's Chief enters the maze — Red takes power");
  const withGreen = { ...board, a1: { role: 'M', army: 'g' } };
  assert.equal(narrate(en, ev, { board: withGreen }), "Red's Chief enters the maze — Red takes power and Red takes Green's army");
});

test('narrate: every fixture turn reads as a full sentence in every language', () => {
  for (const [lang, dict] of Object.entries(dicts)) {
    const tr = makeTranslator(dict, dicts.en);
    for (const f of effects) {
      const ev = f.resign
        ? { kind: 'resign', player: f.resign, effects: f.effects }
        : { kind: 'turn', number: 1, player: 'r', turn: f.turn, effects: f.effects };
      const s = narrate(tr, ev);
      assert.ok(s.length > 10, `${lang}: ${s}`);
      assert.ok(!/[{}]|narr\.|player\.|role\.|adj_/.test(s), `${lang}: ${s}`);
      assert.equal(s[0], s[0].toLocaleUpperCase(), `${lang}: ${s}`);
    }
  }
});

test('i18n: Italian euphony before a square starting with the same vowel', () => {
  const it = makeTranslator(dicts.it, dicts.en);
  const move = (from, to) => narrate(it, { kind: 'turn', number: 1, player: 'r', turn: `${from}-${to}`,
    effects: [{ type: 'moved', piece: { army: 'r', role: 'Militant' }, from, to }] });
  assert.match(move('b7', 'a6'), / da b7 ad a6$/);
  assert.match(move('b7', 'b6'), / da b7 a b6$/);
});

test('i18n: lists and fallbacks', () => {
  assert.equal(listOf(en, ['a']), 'a');
  assert.equal(listOf(en, ['a', 'b', 'c']), 'a, b and c');
  const tr = makeTranslator({ x: 'X {n}' }, { y: 'Y' });
  assert.equal(tr('x', { n: 3 }), 'X 3');
  assert.equal(tr('y'), 'Y');
  assert.equal(tr('z.w'), 'z.w');
});

test('i18n: French and Italian have every English text, with the same placeholders', () => {
  // Keys starting with `_` are a language's own settings (e.g. Italian `_euphony`), not texts.
  const flat = (o, prefix = '') => Object.entries(o).filter(([k]) => !k.startsWith('_')).flatMap(([k, v]) =>
    typeof v === 'object' ? flat(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v]]);
  const enKeys = new Map(flat(dicts.en));
  for (const lang of ['fr', 'it']) {
    const other = new Map(flat(dicts[lang]));
    for (const [k, v] of enKeys) {
      assert.ok(other.has(k), `${lang} lacks ${k}`);
      const ph = (s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
      // Templates may drop a placeholder another language needs (e.g. role vs role_the), never invent one.
      const allowed = new Set(['role', 'role_the', 'adj', 'player']);
      for (const p of ph(other.get(k)).split(',').filter(Boolean)) {
        assert.ok(ph(v).split(',').includes(p) || allowed.has(p), `${lang} ${k}: unknown {${p}}`);
      }
    }
    for (const k of other.keys()) assert.ok(enKeys.has(k), `${lang} has extra ${k}`);
  }
});

// ---------------------------------------------------------------- model

test('model: events change the game as the server says', () => {
  const g = normalizeGame({
    id: 'x', v: 0, players: 4, start: START, dpn: START, to_move: 'r',
    seats: ['r', 'b', 'y', 'g'].map((p) => ({ player: p, name: p, claimed: true, connected: true })),
    legal: legalMap(legalFixtures[0].turns), order: ['r', 'b', 'y', 'g'], ruler: null,
    control: { r: 'r', b: 'b', y: 'y', g: 'g' },
  });
  applyEvent(g, 1, {
    kind: 'turn', number: 1, player: 'r', turn: 'c7-c4',
    effects: effects[0] ? [{ type: 'moved', piece: { army: 'r', role: 'Necromobile' }, from: 'c7', to: 'c4' }] : [],
    dpn: 'CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMr4NbMbMb/9/9/2Nr6/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy b rbyg r 0 - 1 2',
    to_move: 'b', bonus: 0, order: ['b', 'y', 'g', 'r'], ruler: null, control: { r: 'r', b: 'b', y: 'y', g: 'g' },
    legal: { 'h7-h5': [''] }, result: null, ranking: [['r', 'b', 'y', 'g']],
  });
  assert.equal(g.v, 1);
  assert.equal(g.to_move, 'b');
  assert.deepEqual(g.turns, [{ v: 1, number: 1, player: 'r', turn: 'c7-c4' }]);
  assert.deepEqual(positions(g).map((p) => p.index), [0]);
  applyEvent(g, 2, { kind: 'draw_offered', by: 'b' });
  assert.deepEqual(g.draw_offer, { by: 'b', accepted: ['b'] });
  applyEvent(g, 3, { kind: 'draw_declined', by: 'y' });
  assert.equal(g.draw_offer, null);
  applyEvent(g, 4, {
    kind: 'resign', player: 'y', effects: [{ type: 'resigned', player: 'y', at: 'i1' }, { type: 'eliminated', player: 'y' }],
    dpn: 'CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMr4NbMbMb/9/9/2Nr6/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyX b rb-g r 0 - 1 2',
    to_move: 'b', order: ['b', 'g', 'r'], control: { r: 'r', b: 'b', y: null, g: 'g' }, legal: {}, result: null,
  });
  assert.deepEqual(g.eliminated, ['y']);
  assert.equal(g.seats.find((s) => s.player === 'y').alive, false);
  assert.equal(g.seats.find((s) => s.player === 'r').alive, true);
  assert.deepEqual(armiesOf(g, 'r'), ['r']);
  assert.deepEqual(comingTurns({ order: ['b', 'r', 'y', 'r'], ruler: 'r' }).map((c) => c.bonus), [false, true, false, true]);
});

test('model: highlighted squares and animations follow the effects', () => {
  const ev = { effects: [
    { type: 'moved', piece: { army: 'b', role: 'Assassin' }, from: 'f5', to: 'e5' },
    { type: 'killed', piece: { army: 'r', role: 'Chief' }, at: 'e5', by: { army: 'b', role: 'Assassin' } },
    { type: 'exited_maze', piece: { army: 'b', role: 'Assassin' }, to: 'e6' },
    { type: 'corpse_moved', from: 'e5', to: 'f5' },
  ] };
  assert.deepEqual(touchedSquares(ev).sort(), ['e5', 'e6', 'f5']);
  assert.deepEqual(travels(ev), [{ from: 'f5', to: 'e6' }, { from: 'e5', to: 'f5' }]);
  const reporter = { effects: [
    { type: 'moved', piece: { army: 'r', role: 'Reporter' }, from: 'c3', to: 'a5' },
    { type: 'killed', piece: { army: 'b', role: 'Militant' }, at: 'b5', by: { army: 'r', role: 'Reporter' } },
  ] };
  assert.deepEqual(travels(reporter), [{ from: 'c3', to: 'a5' }, { from: 'b5', to: 'b5', flash: true }]);
});

// ---------------------------------------------------------------- protocol and board helpers

test('protocol: invite fragments', () => {
  assert.deepEqual(parseInvite('#seat=r&token=abc-_DEF'), { player: 'r', token: 'abc-_DEF' });
  assert.equal(parseInvite('#seat=x&token=abc'), null);
  assert.equal(parseInvite('#seat=r'), null);
  assert.equal(parseInvite(''), null);
});

test('board: each player sees its own army at the bottom left', () => {
  const corner = { r: 'a9', b: 'i9', y: 'i1', g: 'a1' };
  for (const [army, sq] of Object.entries(corner)) {
    assert.deepEqual(displayCoords(sq, army), { col: 0, row: 0 }, army);
    for (const s of SQUARES) {
      const { col, row } = displayCoords(s, army);
      assert.equal(squareAt(col, row, army), s);
    }
    assert.deepEqual(displayCoords('e5', army), { col: 4, row: 4 });
  }
});

test('wire: protocol 2 compact forms expand to the client model', () => {
  // The golden files the server's serialisation is pinned to.
  const golden = (/** @type {string} */ name) =>
    readJson(join(here, '..', '..', 'crates', 'djambi-server', 'tests', 'golden', `${name}.json`));
  const legal = legalFromWire({ a1: { b2: '|xc3@d4d5' }, e5: { e6: '' } });
  assert.deepEqual(legal, { 'a1-b2': ['', 'xc3@d4', 'xc3@d5'], 'e5-e6': [''] });
  const turns = Object.entries(legalFromWire(golden('server_legal').turns)).flatMap(([k, v]) => v.map((x) => k + x));
  assert.equal(turns.length, 16);
  const ev = stateFromWire(golden('server_event_turn').event);
  assert.deepEqual(ev.order, ['b', 'y', 'g', 'r', 'b', 'y', 'g', 'r']);
  assert.deepEqual(ev.control, { r: 'r', b: 'b', y: 'y', g: 'g' });
  assert.deepEqual(ev.eliminated, []);
  assert.deepEqual(ev.ranking, [['r', 'b', 'y', 'g']]);
  assert.equal(ev.ruler, null);
  assert.equal(ev.result, null);
  assert.deepEqual(ev.effects[0].piece, { army: 'r', role: 'Militant' });
  const g = gameFromWire(golden('server_snapshot').game);
  assert.ok(Array.isArray(g.order) && g.order.every((/** @type {string} */ p) => 'rbyg'.includes(p)));
  assert.equal(typeof g.control, 'object');
});

// ---------------------------------------------------------------- the table (PROTOCOL §6)

test('table: live clocks count down the running seat only, and never below zero', () => {
  const clock = { kind: 'live', remaining_ms: { r: 60_000, b: 5_000, y: 0, g: 30_000 }, running: 'r', since: 1000, deadline: 61_000 };
  assert.deepEqual(liveTimes(clock, 11_000), { r: 50_000, b: 5_000, y: 0, g: 30_000 });
  assert.equal(liveTimes(clock, 90_000).r, 0);
  assert.equal(liveTimes(null, 0), null);
  assert.equal(deadlineLeft(clock, 11_000), 50_000);
  assert.equal(deadlineLeft({ kind: 'correspondence', running: 'b', deadline: 5000 }, 2000), 3000);
  assert.equal(deadlineLeft({ kind: 'live', running: null, deadline: null }, 0), null);
  assert.equal(formatClock(600_000), '10:00');
  assert.equal(formatClock(65_400), '1:05');
  assert.equal(formatClock(3_723_000), '1:02:03');
  assert.equal(formatClock(7_450), '7.4');
  assert.equal(formatClock(-5), '0.0');
  assert.deepEqual(durationParts(90_061_000), { unit: 'days', d: 1, h: 1, m: 1, s: 1 });
  assert.equal(durationParts(59_000).unit, 'seconds');
});

/** A live game at the table: Red to move, Blue away since t = 0 (ms), grace 120 s. */
function table(o = {}) {
  const seat = (p, extra = {}) => ({ player: p, claimed: true, connected: true, alive: true, bot: null, away_since: null, ...extra });
  return {
    status: 'live', result: null, to_move: 'b', vote: null, takeback: null, absent_grace_s: 120, settings: { clock: null },
    seats: [seat('r'), seat('b', { connected: false, away_since: new Date(0).toISOString() }), seat('y'), seat('g', { bot: 'easy' })],
    turns: [{ v: 2, number: 1, player: 'r', turn: 'c7-c4' }], events: [],
    ...o,
  };
}

test('table: a vote on the player to move, once away past the grace period, by a person at the table', () => {
  assert.equal(voteTarget(table(), 'r', 119_000), null, 'within the grace period');
  assert.equal(voteTarget(table(), 'r', 120_000), 'b');
  assert.equal(voteTarget(table(), 'b', 500_000), null, 'not on oneself');
  assert.equal(voteTarget(table(), null, 500_000), null, 'spectators do not vote');
  assert.equal(voteTarget(table(), 'g', 500_000), null, 'a bot does not vote');
  assert.equal(voteTarget(table({ to_move: 'y' }), 'r', 500_000), null, 'only on the player to move');
  assert.equal(voteTarget(table({ vote: { by: 'y' } }), 'r', 500_000), null, 'one vote at a time');
  assert.equal(voteTarget(table({ settings: { clock: { per_turn_s: 3600 } } }), 'r', 500_000), null, 'correspondence: the deadline decides');
  const v = { by: 'r', target: 'b', action: 'bot', voters: ['r', 'y'], yes: ['r'], no: [] };
  assert.equal(canAnswerVote(table({ vote: v }), 'y'), true);
  assert.equal(canAnswerVote(table({ vote: v }), 'r'), false, 'the author voted');
  assert.equal(canAnswerVote(table({ vote: v }), 'g'), false, 'not a voter');
  assert.equal(awayFor(table().seats[1], 3000), 3000);
  assert.equal(awayFor(table().seats[3], 3000), null, 'a bot is never away');
});

test('table: a takeback is one\'s own last turn (passes after it aside), answered by the other people', () => {
  assert.equal(canAskTakeback(table(), 'r'), true);
  assert.equal(canAskTakeback(table(), 'y'), false, 'not your turn to take back');
  const passed = table({ turns: [{ v: 2, number: 1, player: 'r', turn: 'c7-c4' }, { v: 3, number: 2, player: 'b', turn: 'pass' }] });
  assert.equal(canAskTakeback(passed, 'r'), true, 'the passes it forced go with it');
  assert.equal(canAskTakeback(table({ events: [{ v: 3, kind: 'resign', player: 'y' }] }), 'r'), false, 'a resignation since');
  assert.equal(canAskTakeback(table({ takeback: { by: 'r', accepted: [] } }), 'r'), false, 'already asked');
  assert.equal(canAskTakeback(table({ takebackRefused: { of: 'r', by: 'b' } }), 'r'), false, 'one request per turn');
  assert.equal(canAskTakeback(table({ events: [{ v: 3, kind: 'seat_to_human', player: 'r' }] }), 'r'), false, 'the bot played that turn');
  assert.equal(canAskTakeback(table({ events: [{ v: 1, kind: 'seat_to_human', player: 'r' }] }), 'r'), true, 'taken back before the turn');
  const asked = table({ takeback: { by: 'r', accepted: ['y'] } });
  assert.equal(canAnswerTakeback(asked, 'b'), true);
  assert.equal(canAnswerTakeback(asked, 'y'), false, 'agreed already');
  assert.equal(canAnswerTakeback(asked, 'r'), false, 'its author');
  assert.equal(canAnswerTakeback(asked, 'g'), false, 'bots agree by themselves');
});

test('narrate: the game\'s life beyond the rules reads as sentences in every language', () => {
  const events = [
    { kind: 'started' }, { kind: 'seat_to_bot', player: 'r', level: 'hard', reason: 'timeout' },
    { kind: 'seat_to_bot', player: 'b', level: 'easy', reason: 'vote' }, { kind: 'seat_to_bot', player: 'y', level: 'medium', reason: 'creator' },
    { kind: 'seat_to_human', player: 'r' }, { kind: 'vote_opened', by: 'b', target: 'r', action: 'bot', level: 'medium', voters: ['b', 'y'] },
    { kind: 'vote_opened', by: 'b', target: 'r', action: 'resign', voters: ['b'] }, { kind: 'vote_cast', by: 'y', yes: true },
    { kind: 'vote_cast', by: 'y', yes: false }, { kind: 'vote_closed', passed: true }, { kind: 'vote_closed', passed: false },
    { kind: 'takeback_requested', by: 'r' }, { kind: 'takeback_answered', by: 'b', yes: true }, { kind: 'takeback_answered', by: 'b', yes: false },
    { kind: 'taken_back', player: 'r', undone: [2] }, { kind: 'timeout', player: 'g' },
    { kind: 'paused', from: 1000, until: 31_000 }, { kind: 'paused', from: 0, until: 600_000 }, { kind: 'cancelled', reason: 'creator' },
  ];
  for (const lang of ['en', 'fr', 'it']) {
    const tr = makeTranslator(dicts[lang], dicts.en);
    for (const ev of events) {
      const s = narrate(tr, ev);
      assert.ok(!/[{}]|^(game|vote|clock|takeback)\.|_/.test(s) && s.length > 8, `${lang} ${ev.kind}: ${s}`);
    }
  }
  assert.equal(narrate(en, events[1]), 'Red ran out of time: a bot (hard) plays the seat from now on.');
  assert.equal(narrate(en, events[16]), 'The server was away for 30 s: the clocks were stopped, nobody lost time.');
});
