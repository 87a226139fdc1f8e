// The board of a lesson step or a puzzle: a position from the server, a turn entered on it with
// the game's own picker (only legal choices; in a free step any piece to any square, for the
// server to refuse), the turn handed to the page as soon as it is complete, the position after
// it once the server has played it, and the engine's suggestion marked on the board. It knows no
// rule: the server's legal turns say what may be chosen, its answers what happened.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { BoardView } from '../board/board.js';
import { parseDpn, previewBoard } from '../board/dpn.js';
import * as P from '../board/picker.js';
import { clickNote, turnPrompt } from '../board/prompt.js';
import { describeSquare, hostageArmy, orphanedArmies } from '../board/panels.js';
import { touchedSquares, travels } from '../board/model.js';
import { widenLegal } from './compose.js';

/**
 * @typedef {object} TrainerOptions
 * @property {string} label                    the board's accessible name
 * @property {(turn: string) => void} onTurn   a complete turn was entered
 */

export class Trainer {
  /** @param {TrainerOptions} o */
  constructor(o) {
    this.o = o;
    /** @type {import('./positions.js').PositionInfo | null} */
    this.info = null;
    this.free = false;
    /** @type {string[]} */
    this.focus = [];
    /** @type {string[]} */
    this.hint = [];
    /** The position shown after a turn (the page's answer), or null while entering a turn. */
    /** @type {{dpn: string, event: any} | null} */
    this.after = null;
    this.locked = false;
    this.note = '';
    this.picker = P.createPicker({});
    this.board = new BoardView({
      label: o.label,
      describe: describeSquare,
      onSquare: (sq, how) => this.click(sq, how.keyboard),
      onBack: () => this.back(),
      onCursor: (sq) => this.cursorMoved(sq),
    });
    this.frame = h('div', { class: 'board-frame' }, this.board.el);
    this.prompt = h('div', { class: 'prompt', 'aria-live': 'polite' });
    this.el = h('div', { class: 'board-col' }, this.frame, this.prompt);
  }

  /**
   * A new position to play a turn on.
   * @param {import('./positions.js').PositionInfo} info
   * @param {{free?: boolean, focus?: string[]}} [o]
   */
  load(info, o = {}) {
    this.info = info;
    this.free = Boolean(o.free);
    this.focus = o.focus || [];
    if (info.to_move) this.board.setOrientation(info.to_move);
    this.reset();
  }

  /** The board's accessible name (after a change of language). @param {string} label */
  setLabel(label) {
    this.board.svg.setAttribute('aria-label', label);
  }

  /** Back to the loaded position, ready for a turn. */
  reset() {
    this.after = null;
    this.locked = false;
    this.hint = [];
    this.note = '';
    this.picker = P.createPicker(this.choices());
    this.render();
  }

  /** The turns that may be entered: the legal ones, or in a free step any move. */
  choices() {
    if (!this.info) return {};
    if (!this.free) return this.info.legal;
    return widenLegal(this.info.legal, parseDpn(this.info.position).board);
  }

  /**
   * Shows the position after a turn the server played, its squares marked; no turn may be
   * entered until `reset`.
   * @param {import('./positions.js').Played} played
   */
  showPlayed(played) {
    const event = { kind: 'turn', player: played.player, turn: played.turn, effects: played.effects };
    // The learner's own turn is on the board already (drawn as it was entered): no slide again.
    const entered = P.stage(this.picker).turn === played.turn;
    this.after = { dpn: played.position, event };
    this.locked = true;
    this.hint = [];
    this.note = '';
    this.render(entered ? [] : travels(event));
  }

  /** No turn may be entered (while the server answers, or once the step is over). */
  lock() {
    this.locked = true;
    this.render();
  }

  /**
   * Marks a suggested turn on the board (cleared by the next choice).
   * @param {string} turn
   */
  showHint(turn) {
    const parts = P.parseTurn(turn);
    this.hint = parts ? [parts.from, parts.to, parts.exit, parts.victim, parts.place].filter((x) => typeof x === 'string').map(String) : [];
    if (this.after) {
      this.after = null;
      this.locked = false;
    }
    this.picker = P.reset(this.picker);
    this.render();
  }

  /** @param {string} sq @param {boolean} keyboard */
  click(sq, keyboard) {
    if (!this.info || this.locked || !this.info.to_move) {
      this.describe(sq);
      return;
    }
    if (keyboard && P.stage(this.picker).field === 'done') {
      this.complete();
      return;
    }
    const next = P.click(this.picker, sq);
    if (!next) {
      const note = clickNote(this.picker, sq);
      if (note) {
        this.note = note;
        this.renderPrompt();
      } else {
        this.describe(sq);
      }
      return;
    }
    this.picker = next;
    this.note = '';
    this.hint = [];
    if (P.stage(this.picker).field === 'done') this.complete();
    else this.render();
  }

  /** Escape, Backspace or the button: one choice back. */
  back() {
    if (this.locked || !this.picker.path.length) return;
    this.picker = P.back(this.picker);
    this.render();
  }

  /** A choice left empty (a Reporter that kills nobody). */
  none() {
    const next = P.choose(this.picker, null);
    if (!next) return;
    this.picker = next;
    this.note = '';
    if (P.stage(this.picker).field === 'done') this.complete();
    else this.render();
  }

  /** The turn is complete: the page takes it from here. */
  complete() {
    const turn = P.stage(this.picker).turn;
    if (!turn) return;
    this.locked = true;
    this.render();
    this.o.onTurn(turn);
  }

  /** @param {string} sq */
  describe(sq) {
    this.note = describeSquare(sq, this.board.board[sq]);
    this.renderPrompt();
  }

  /** @param {string} sq */
  cursorMoved(sq) {
    if (this.note) this.describe(sq);
  }

  /** @param {{from: string, to: string, flash?: boolean}[]} [animate] */
  render(animate = []) {
    this.renderBoard(animate);
    this.renderPrompt();
  }

  /** @param {{from: string, to: string, flash?: boolean}[]} animate */
  renderBoard(animate) {
    if (!this.info) return;
    const entering = !this.locked && Boolean(this.info.to_move);
    this.frame.classList.toggle('my-turn', entering);
    if (this.after) {
      const pos = parseDpn(this.after.dpn);
      this.board.draw(pos.board, {
        last: touchedSquares(this.after.event), dim: orphanedArmies(pos), hostage: hostageArmy(pos),
      }, animate);
      return;
    }
    const pos = parseDpn(this.info.position);
    /** @type {import('../board/board.js').Marks} */
    const marks = { dim: orphanedArmies(pos), hostage: hostageArmy(pos), hint: this.hint, last: this.hint.length ? [] : this.focus };
    if (entering) Object.assign(marks, this.choiceMarks());
    // The piece is drawn where it went while the rest of the turn is chosen (the victim, the
    // exit, where the corpse goes) and while the server judges it: not back on its start square.
    const from = P.chosen(this.picker, 'from');
    const to = P.chosen(this.picker, 'to');
    const shown = from && to ? previewBoard(pos.board, {
      from, to, victim: P.chosen(this.picker, 'victim') ?? null, exit: P.chosen(this.picker, 'exit') ?? null, place: P.chosen(this.picker, 'place') ?? null,
    }) : pos.board;
    this.board.draw(shown, marks, animate);
  }

  /**
   * What may be chosen now, drawn from the legal turns only (a free step accepts more clicks
   * than it shows).
   * @returns {import('../board/board.js').Marks}
   */
  choiceMarks() {
    const legal = P.createPicker(this.info ? this.info.legal : {});
    /** @type {import('../board/picker.js').PickerState | null} */
    let shown = legal;
    for (const c of this.picker.path) shown = shown && P.choose(shown, c.value);
    const from = P.chosen(this.picker, 'from');
    if (!from) return { movable: P.movableSquares(legal) };
    if (!shown) return { selected: from };
    const st = P.stage(shown);
    const to = P.chosen(shown, 'to');
    return {
      selected: from,
      chosen: to ? [to] : [],
      options: st.options,
      optionKind: /** @type {any} */ (st.field),
    };
  }

  renderPrompt() {
    if (!this.info || this.locked || !this.info.to_move) {
      replace(this.prompt, this.note ? h('p', { class: 'square-info', text: this.note }) : null);
      return;
    }
    replace(this.prompt,
      turnPrompt(this.picker, parseDpn(this.info.position).board, {
        send: () => this.complete(), none: () => this.none(), back: () => this.back(),
      }),
      this.free ? h('p', { class: 'square-info free-note', text: t('learn.free_note') }) : null,
      this.note ? h('p', { class: 'square-info', text: this.note }) : null);
  }
}
