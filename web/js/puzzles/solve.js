// One puzzle (`/puzzles/{id}`): the position with the solver to move, its theme and difficulty;
// the learner's turn is judged by the server against the solution (right or wrong, an illegal
// one with the core's reason); "Show a good turn" marks the engine's suggestion, "Show the
// solution" plays it; the engine's continuation after the solution is told turn by turn, each
// one played on the board when chosen; "Next puzzle" goes on. Solved puzzles are remembered in
// the browser — only those found without being shown the answer.

import { h, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { errorText } from '../errors.js';
import { narrate } from '../board/narrate.js';
import { armySwatch } from '../board/pieces.js';
import { parseDpn } from '../board/dpn.js';
import { Trainer } from '../learn/trainer.js';
import { answerPuzzle, getPuzzle, hintFor, playOn, puzzleSolution } from '../learn/positions.js';
import { markSolved, solvedPuzzles } from '../learn/progress.js';
import { difficultyStars, puzzleNumber } from './list.js';

/**
 * @typedef {object} Verdict
 * @property {'right'|'shown'|'wrong'|'refused'|'hint'|'solution'} kind  `shown`: the right turn,
 *   but a hint had shown it (not counted as solved)
 * @property {string} [reason]   the core's reason for refusing the turn
 * @property {any} [event]       the turn played or suggested, told as a sentence
 * @property {string[]} [line]   the engine's continuation after the solution
 * @property {import('../learn/positions.js').Played[]} [played]  that continuation played out,
 *   turn by turn (when the server could play it)
 * @property {string} [turn]     the turn suggested
 */

/**
 * Mounts the puzzle solver.
 * @param {HTMLElement} root
 * @param {{puzzles: {id: string, theme: string, difficulty: number, player: string}[], at: number}} o
 */
export function puzzleSolver(root, o) {
  const meta = o.puzzles[o.at];
  const next = o.puzzles[o.at + 1] || null;
  /** @type {import('../learn/positions.js').PositionInfo | null} */
  let info = null;
  /** @type {Verdict | null} */
  let verdict = null;
  let busy = false;
  let solved = solvedPuzzles().has(meta.id);
  /** The turns the engine showed on this visit (a hint, the solution): finding one of them then is no solve. */
  const shownTurns = new Set();
  /** The continuation's turn now on the board (-1: the solution's position). */
  let lineAt = -1;

  const trainer = new Trainer({ label: t('puzzles.board_label'), onTurn: (turn) => answer(turn) });
  const head = h('header', { class: 'learn-head' });
  const text = h('section', { class: 'lesson-text' });
  const status = h('div', { class: 'learn-feedback', role: 'status', 'aria-live': 'polite' });
  const actions = h('div', { class: 'learn-actions' });
  root.append(head, h('div', { class: 'learn-layout' },
    h('div', { class: 'learn-text-slot' }, text), trainer.el, h('div', { class: 'learn-side' }, status, actions)));

  /** @param {import('../learn/positions.js').Played} p */
  const turnEvent = (p) => ({ kind: 'turn', player: p.player, turn: p.turn, effects: p.effects });

  async function load() {
    busy = true;
    render();
    try {
      info = await getPuzzle(meta.id);
      trainer.load(info);
    } catch (e) {
      toast(errorText(e), 'error');
    }
    busy = false;
    render();
  }

  /** @param {string} turn */
  async function answer(turn) {
    if (!info) return;
    busy = true;
    renderActions();
    try {
      const judged = await answerPuzzle(meta.id, turn);
      const played = await playOn(info.position, judged.turn);
      trainer.showPlayed(played);
      if (judged.correct && shownTurns.has(judged.solution)) {
        // Played as it was shown: right, but not solved (progress counts only what was found).
        verdict = { kind: 'shown', event: turnEvent(played), line: judged.line, played: await playLine(played, judged.line) };
      } else if (judged.correct) {
        solved = true;
        markSolved(meta.id);
        verdict = { kind: 'right', event: turnEvent(played), line: judged.line, played: await playLine(played, judged.line) };
      } else {
        verdict = { kind: 'wrong', event: turnEvent(played) };
      }
    } catch (e) {
      const err = /** @type {any} */ (e);
      if (err && err.code === 'illegal') verdict = { kind: 'refused', reason: err.message };
      else toast(errorText(e), 'error');
      trainer.reset();
    }
    busy = false;
    render();
  }

  /**
   * Asks the server something while the buttons wait; a failure is said in a toast.
   * @param {(position: string) => Promise<void>} ask
   */
  async function asking(ask) {
    if (!info) return;
    busy = true;
    renderActions();
    try {
      await ask(info.position);
    } catch (e) {
      toast(errorText(e), 'error');
    }
    busy = false;
    render();
  }

  const hint = () => asking(async (position) => {
    const { turn } = await hintFor(position);
    const played = await playOn(position, turn);
    shownTurns.add(played.turn);
    trainer.showHint(turn);
    verdict = { kind: 'hint', turn, event: turnEvent(played) };
  });

  const showSolution = () => asking(async (position) => {
    const { solution, line } = await puzzleSolution(meta.id);
    const played = await playOn(position, solution);
    shownTurns.add(played.turn);
    trainer.showPlayed(played);
    verdict = { kind: 'solution', event: turnEvent(played), line, played: await playLine(played, line) };
  });

  /**
   * The engine's continuation played out from the position after the solution, turn by turn,
   * so that each can be told as a sentence and shown on the board; what could not be played
   * (the server said no) is left as notation.
   * @param {import('../learn/positions.js').Played} after @param {string[]} line
   */
  async function playLine(after, line) {
    lineAt = -1;
    /** @type {import('../learn/positions.js').Played[]} */
    const out = [];
    let position = after.position;
    for (const turn of line || []) {
      try {
        const p = await playOn(position, turn);
        out.push(p);
        position = p.position;
      } catch {
        break;
      }
    }
    return out;
  }

  /**
   * Shows the position after a turn of the continuation (-1: after the solution) on the board.
   * @param {number} i
   */
  function showLine(i) {
    if (!verdict || !verdict.played || !verdict.event) return;
    lineAt = i;
    const step = i >= 0 ? verdict.played[i] : null;
    if (step) trainer.showPlayed(step);
    renderVerdict();
    const current = status.querySelector('.line-step[aria-current="step"]');
    if (current instanceof HTMLElement) current.focus();
  }

  function retry() {
    verdict = null;
    lineAt = -1;
    trainer.reset();
    render();
  }

  function render() {
    document.title = `${t('puzzles.number', { n: puzzleNumber(meta.id) })} — Djambi Online`;
    replace(head,
      h('nav', { class: 'crumbs', 'aria-label': t('learn.crumbs') },
        h('a', { href: '/puzzles', text: t('puzzles.title') }), ' › ', h('span', { text: t('puzzles.number', { n: puzzleNumber(meta.id) }) })),
      h('h1', { text: t('puzzles.number', { n: puzzleNumber(meta.id) }) }),
      h('p', { class: 'puzzle-meta' },
        h('span', { class: 'tag tag-theme', text: t(`puzzles.themes.${meta.theme}`) }), ' ',
        difficultyStars(meta.difficulty),
        solved ? h('span', { class: 'tag tag-solved', text: t('puzzles.solved_mark') }) : null));
    replace(text,
      h('p', { class: 'lesson-task' }, armySwatch(meta.player, 14), ' ',
        h('strong', { text: t('puzzles.to_move', { player: t(`player.${meta.player}`) }) }), ' ', t('puzzles.find_best')),
      // The one convention (the rules' "The board"): the board turns for its viewer.
      h('p', { class: 'lesson-intro seat-note', text: t('puzzles.seat', { player: t(`player.${meta.player}`) }) }),
      h('p', { class: 'lesson-intro', text: t(`puzzles.theme_help.${meta.theme}`) }));
    renderVerdict();
    renderActions();
  }

  function renderVerdict() {
    if (!verdict) {
      replace(status);
      return;
    }
    const v = verdict;
    const lead = {
      right: 'puzzles.right', shown: 'puzzles.shown', wrong: 'puzzles.wrong', refused: 'learn.refused', hint: 'learn.hint', solution: 'puzzles.solution_is',
    }[v.kind];
    const feedbackKind = v.kind === 'solution' || v.kind === 'shown' ? 'hint' : v.kind;
    replace(status, h('div', { class: ['feedback', `feedback-${feedbackKind}`] },
      h('p', { class: 'feedback-lead', text: t(lead) }),
      v.reason ? h('p', { class: 'core-reason' }, h('span', { class: 'visually-hidden', text: t('learn.reason_label') }), h('code', { text: v.reason })) : null,
      v.event ? h('p', { class: 'happened' }, armySwatch(v.event.player, 12), ' ', h('code', { class: 'notation', text: v.event.turn }), ' ', narrate(t, v.event)) : null,
      v.kind === 'wrong' ? h('p', { class: 'feedback-text', text: t('puzzles.wrong_help') }) : null,
      v.kind === 'refused' ? h('p', { class: 'feedback-text', text: t('learn.refused_try_again') }) : null,
      v.kind === 'hint' ? h('p', { class: 'feedback-text', text: t('learn.hint_help') }) : null,
      v.kind === 'shown' ? h('p', { class: 'feedback-text', text: t('puzzles.shown_help') }) : null,
      lineView(v)));
  }

  /**
   * The engine's continuation: each turn told as a sentence, a button that plays it on the board
   * (and one back to the position after the solution); notation only for what the server could
   * not play.
   * @param {Verdict} v
   */
  function lineView(v) {
    if (!v.line || !v.line.length) return null;
    const played = v.played || [];
    const rows = v.line.map((turn, i) => {
      const p = played[i];
      const label = p ? narrate(t, turnEvent(p), { board: parseDpn(p.position).board }) : '';
      return h('li', { class: 'line-row' }, p
        ? h('button', {
          type: 'button', class: 'line-step', 'aria-current': lineAt === i ? 'step' : null, onclick: () => showLine(i),
        }, armySwatch(p.player, 12), h('code', { class: 'notation', text: p.turn }), ' ', h('span', { text: label }))
        : h('code', { class: 'notation', text: turn }));
    });
    return h('div', { class: 'puzzle-line' },
      h('p', { class: 'line-title', text: t('puzzles.line') }),
      h('ol', { class: 'line-list' }, ...rows),
      played.length ? h('p', { class: 'line-help small', text: t('puzzles.line_help') }) : null,
      lineAt >= 0 ? h('button', { type: 'button', class: 'btn btn-small line-back', text: t('puzzles.line_back'), onclick: () => backToSolution() }) : null);
  }

  /** The board back to the position after the solution (or the answer). */
  async function backToSolution() {
    if (!info || !verdict || !verdict.event) return;
    lineAt = -1;
    try {
      trainer.showPlayed(await playOn(info.position, verdict.event.turn));
    } catch (e) {
      toast(errorText(e), 'error');
    }
    renderVerdict();
  }

  function renderActions() {
    const over = verdict && (verdict.kind === 'right' || verdict.kind === 'shown' || verdict.kind === 'solution');
    /** @type {(HTMLElement | null)[]} */
    const buttons = [];
    if (verdict && verdict.kind === 'wrong') {
      buttons.push(h('button', { type: 'button', class: 'btn btn-primary try-again', text: t('learn.try_again'), onclick: retry }));
    }
    if (!over) {
      buttons.push(h('button', { type: 'button', class: 'btn show-hint', disabled: busy, text: t('learn.show_hint'), onclick: hint }));
      buttons.push(h('button', { type: 'button', class: 'btn show-solution', disabled: busy, text: t('puzzles.show_solution'), onclick: showSolution }));
    } else {
      buttons.push(h('button', { type: 'button', class: 'btn try-again', text: t('puzzles.again'), onclick: retry }));
    }
    if (next) buttons.push(h('a', { class: ['btn', over ? 'btn-primary' : '', 'next-puzzle'], href: `/puzzles/${next.id}`, text: t('puzzles.next') }));
    buttons.push(h('a', { class: 'btn btn-ghost', href: '/puzzles', text: t('puzzles.all') }));
    replace(actions, ...buttons);
  }

  load();
  return {
    relabel() {
      trainer.setLabel(t('puzzles.board_label'));
      trainer.render();
      render();
    },
  };
}
