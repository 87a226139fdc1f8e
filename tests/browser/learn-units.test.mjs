// The Learn pages' pure parts under Node, and the lessons as data: a step's goal judged from the
// server's answer (goal.js), the widened choices of a free step (compose.js), and every lesson
// checked against the real server — its position read, its example turn played (or refused) and
// meeting the step's goal — with its words in English, French and Italian.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { citedRules, meetsGoal, valueMatches, wantsRefusal } from '../../web/js/learn/goal.js';
import { widenLegal } from '../../web/js/learn/compose.js';
import { startServer } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const lessonsDir = join(here, '..', '..', 'web', 'lessons');
const readJson = (/** @type {string} */ p) => JSON.parse(readFileSync(p, 'utf8'));
const { lessons } = readJson(join(lessonsDir, 'lessons.json'));
const words = Object.fromEntries(['en', 'fr', 'it'].map((l) => [l, readJson(join(lessonsDir, `${l}.json`))]));

test('goal: values match exactly, by wildcard, one of a list, or all of a list', () => {
  assert.ok(valueMatches('Mr', 'Mr'));
  assert.ok(!valueMatches('Mr', 'Mb'));
  assert.ok(valueMatches('?b', 'Ab') && valueMatches('M?', 'Mg'));
  assert.ok(!valueMatches('?b', 'Abb'));
  assert.ok(valueMatches(['a5', 'a6'], 'a6') && !valueMatches(['a5', 'a6'], 'a7'));
  assert.ok(valueMatches(['b'], ['b', 'y']) && !valueMatches(['g'], ['b', 'y']));
  assert.ok(valueMatches({ type: 'killed', at: 'e4' }, { type: 'killed', at: 'e4', piece: 'Mb', by: 'Rr' }));
  assert.ok(!valueMatches({ type: 'killed', at: 'e4' }, { type: 'moved', at: 'e4' }));
});

test('goal: a turn meets a goal by its choices and effects; a refusal by the rule it cites', () => {
  const kill = [{ effects: [{ type: 'killed', by: 'Ar' }, { type: 'corpse_moved', to: 'c7' }] }];
  const played = {
    turn: 'c7-c3',
    effects: [
      { type: 'moved', piece: 'Ar', from: 'c7', to: 'c3' },
      { type: 'killed', piece: 'Mb', at: 'c3', by: 'Ar' },
      { type: 'corpse_moved', from: 'c3', to: 'c7' },
    ],
  };
  assert.ok(meetsGoal(kill, played));
  assert.ok(!meetsGoal(kill, { turn: 'c7-c4', effects: [{ type: 'moved', piece: 'Ar', from: 'c7', to: 'c4' }] }));
  assert.ok(meetsGoal([{ from: 'c7', to: ['c3', 'c4'] }], played));
  assert.ok(!meetsGoal([{ from: 'c6' }], played));
  assert.ok(meetsGoal([{ from: 'a1' }, { to: 'c3' }], played), 'any alternative is enough');
  assert.ok(!meetsGoal([{ colour: 'red' }], played), 'an unknown requirement never holds');
  const refusal = [{ refused: '(R3.5)' }];
  assert.ok(wantsRefusal(refusal) && !wantsRefusal(kill));
  assert.ok(meetsGoal(refusal, { refused: 'e5: only a chief may end a move on the maze (R3.5)' }));
  assert.ok(!meetsGoal(refusal, { refused: 'f6: a Militant moves 1 or 2 squares (R3.2)' }));
  assert.ok(!meetsGoal(refusal, played), 'a played turn is no refusal');
  assert.ok(!meetsGoal(kill, { refused: 'c5: the path is blocked (R3.3, R3.4)' }), 'a refusal meets no turn goal');
  assert.deepEqual(citedRules('c5: the path is blocked, no piece jumps (R3.3, R3.4)'), ['R3.3', 'R3.4']);
});

test('compose: a free step offers every piece to every square, keeping the legal choices', () => {
  const legal = { 'c6-c7': [''], 'c6-e8': ['@a1', '@a2'] };
  const board = { c6: { role: 'M', army: 'r' }, e8: { role: 'M', army: 'b' }, d6: { corpse: true } };
  const wide = widenLegal(legal, board);
  assert.deepEqual(wide['c6-e8'], ['@a1', '@a2'], 'a legal pair keeps its choices');
  assert.deepEqual(wide['c6-f6'], [''], 'any other square is the bare turn');
  assert.deepEqual(wide['e8-e7'], [''], 'an enemy piece may be tried');
  assert.deepEqual(wide['d6-d5'], [''], 'a corpse may be tried');
  assert.ok(!('c6-c6' in wide), 'never to its own square');
  assert.ok(!Object.keys(wide).some((k) => k.startsWith('a1-')), 'only pieces on the board');
  assert.equal(Object.keys(wide).length, 3 * 80);
});

test('lessons: twelve lessons of two to five steps, each with a goal, an example and words in every language', () => {
  assert.equal(lessons.length, 12);
  assert.equal(new Set(lessons.map((/** @type {any} */ l) => l.id)).size, 12);
  for (const l of lessons) {
    assert.ok(l.steps.length >= 2 && l.steps.length <= 5, `${l.id}: ${l.steps.length} steps`);
    for (const [lang, dict] of Object.entries(words)) {
      const w = dict[l.id];
      assert.ok(w && w.title && w.summary, `${lang} ${l.id}: title and summary`);
      assert.equal(w.steps.length, l.steps.length, `${lang} ${l.id}: one text per step`);
      for (const s of w.steps) {
        for (const k of ['intro', 'task', 'done', 'wrong']) assert.ok(typeof s[k] === 'string' && s[k].trim(), `${lang} ${l.id}: ${k}`);
      }
    }
    for (const s of l.steps) {
      assert.ok(Array.isArray(s.goal) && s.goal.length, `${l.id}: a goal`);
      assert.equal(typeof s.example, 'string', `${l.id}: an example`);
    }
  }
  for (const dict of Object.values(words)) assert.deepEqual(Object.keys(dict).sort(), lessons.map((/** @type {any} */ l) => l.id).sort());
});

test('lessons: every step reads on the server, and its example meets its goal there', { timeout: 60_000 }, async (t) => {
  const server = await startServer();
  t.after(() => server.stop());
  /** @param {string} path @param {any} body */
  const post = async (path, body) => {
    const res = await fetch(server.base + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };
  for (const l of lessons) {
    for (const [i, s] of l.steps.entries()) {
      const where = `${l.id} step ${i + 1}`;
      const info = await post('/api/positions', { position: s.position });
      assert.equal(info.status, 200, `${where}: ${JSON.stringify(info.body)}`);
      assert.equal(info.body.position, s.position, `${where}: written canonically`);
      assert.equal(info.body.to_move, 'r', `${where}: the learner (Red) moves`);
      for (const sq of s.focus || []) assert.match(sq, /^[a-i][1-9]$/, `${where}: focus`);
      const played = await post('/api/positions/play', { position: s.position, turn: s.example });
      const outcome = played.status === 200
        ? { turn: played.body.turn, effects: played.body.effects }
        : { refused: played.body.error.message };
      if (wantsRefusal(s.goal)) assert.equal(played.body.error && played.body.error.code, 'illegal', `${where}: the example is refused`);
      else assert.equal(played.status, 200, `${where}: ${JSON.stringify(played.body)}`);
      assert.ok(meetsGoal(s.goal, outcome), `${where}: ${s.example} → ${JSON.stringify(outcome)}`);
    }
  }
});
