// Entering a turn on the game page: the picker over the server's legal turns (PROTOCOL §3.4),
// the board with what may be chosen now and a preview of the turn, the line under the board that
// says what to do, and sending the turn. A position from the history may be shown instead.

import { h, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { parseDpn, previewBoard } from '../board/dpn.js';
import * as P from '../board/picker.js';
import { isAlive, positions, touchedSquares } from '../board/model.js';
import { clickNote, turnPrompt } from '../board/prompt.js';
import { describeSquare, orphanedArmies, hostageArmy, who } from '../board/panels.js';
import { errorText } from '../errors.js';

const CONFIRM_KEY = 'djambi.confirm';

/**
 * @typedef {object} EntryContext
 * @property {import('../board/board.js').BoardView} board
 * @property {HTMLElement} frame     the board's frame (marked while it is our turn)
 * @property {HTMLElement} prompt    the line under the board
 * @property {() => any} game
 * @property {() => string | null} me
 * @property {() => boolean} myTurn
 * @property {() => boolean} started
 * @property {() => boolean} online
 * @property {() => number | null} viewing  index of the event whose position is shown; null: live
 * @property {() => void} backToLive
 * @property {(turn: string) => Promise<any>} sendMove
 * @property {() => {event: any | null, turns: import('../board/board.js').TurnMark[]}} recap  the turns
 *   since our last one: their marks, and the one whose position is shown while others wait
 * @property {() => void} skipRecap  shows the waiting turns at once (the person wants to play)
 * @property {() => string[]} hint   the squares of the engine's suggestion for us, if shown
 */

export class TurnEntry {
  /** @param {EntryContext} c */
  constructor(c) {
    this.c = c;
    this.picker = P.createPicker({});
    this.sending = false;
    /** What the last click that chose nothing pointed at. */
    this.info = '';
    this.confirm = true;
    try { this.confirm = localStorage.getItem(CONFIRM_KEY) !== '0'; } catch { /* ignore */ }
  }

  /** Asks before sending each turn, or not (remembered). @param {boolean} on */
  setConfirm(on) {
    this.confirm = on;
    try { localStorage.setItem(CONFIRM_KEY, on ? '1' : '0'); } catch { /* ignore */ }
  }

  /** A new position (or new legal turns): start the turn afresh. */
  reset() {
    this.sending = false;
    this.info = '';
    const g = this.c.game();
    this.picker = P.createPicker(g && this.c.myTurn() ? g.legal : {});
  }

  /**
   * A square clicked, tapped or chosen with the keyboard: the next choice of the turn, or else
   * what stands there.
   * @param {string} sq @param {boolean} [keyboard]
   */
  click(sq, keyboard = false) {
    if (!this.c.game()) return;
    if (this.c.viewing() === null && this.c.myTurn() && !this.sending && this.c.online()) {
      // Turns still being shown never hold the person up: the board goes live at once.
      if (this.c.recap().event) this.c.skipRecap();
      // Keyboard players confirm a complete turn with Enter, as they chose it.
      if (keyboard && P.stage(this.picker).field === 'done') {
        this.send();
        return;
      }
      const next = P.click(this.picker, sq);
      if (next) {
        this.picker = next;
        this.info = '';
        this.afterPick();
        return;
      }
    }
    // A click that enters nothing says what stands there (the tooltip, for touch screens), or
    // how to go on where it looked like a choice.
    const note = this.c.myTurn() && this.c.viewing() === null ? clickNote(this.picker, sq) : '';
    this.info = note || describeSquare(sq, this.c.board.board[sq]);
    this.renderPrompt();
  }

  /**
   * The keyboard cursor moved: a square's description shown in the prompt follows it (it would
   * otherwise go on describing a square the cursor has left).
   * @param {string} sq
   */
  cursorMoved(sq) {
    if (!this.info) return;
    this.info = describeSquare(sq, this.c.board.board[sq]);
    this.renderPrompt();
  }

  /** Escape, Backspace or the button: one step back. */
  back() {
    if (this.c.viewing() !== null) {
      this.c.backToLive();
      return;
    }
    if (!this.picker.path.length || this.sending) return;
    this.picker = P.back(this.picker);
    this.afterPick();
  }

  /** A choice left empty (a Reporter that kills nobody). @param {string | null} value */
  pickNone(value) {
    const next = P.choose(this.picker, value);
    if (next) {
      this.picker = next;
      this.info = '';
      this.afterPick();
    }
  }

  /** After a choice: send the complete turn at once if not confirming, else redraw. */
  afterPick() {
    if (P.stage(this.picker).field === 'done' && !this.confirm) {
      this.send();
      return;
    }
    this.renderBoard();
    this.renderPrompt();
  }

  /**
   * Sends the turn; on a refusal, says why and starts the turn afresh.
   * @param {string | null} [text]  the turn (default: the one entered)
   */
  async send(text = P.stage(this.picker).turn) {
    if (!text || this.sending) return;
    this.sending = true;
    this.renderBoard();
    this.renderPrompt();
    try {
      await this.c.sendMove(text);
      // The turn event redraws everything; if it came first, nothing is left to do.
    } catch (e) {
      this.sending = false;
      const g = this.c.game();
      this.picker = P.createPicker(g && this.c.myTurn() ? g.legal : {});
      toast(errorText(e, 'game.errors'), 'error');
      this.renderBoard();
      this.renderPrompt();
    }
  }

  /** What a square offers now, for the keyboard cursor's announcement. @param {string} sq */
  optionNote(sq) {
    const st = P.stage(this.picker);
    if (!this.c.myTurn() || this.c.viewing() !== null) return '';
    if (st.field === 'from' && P.movableSquares(this.picker).includes(sq)) return ` — ${t('game.can_move')}`;
    if (st.options.includes(sq)) return ` — ${t(`game.can_choose_${st.field}`)}`;
    return '';
  }

  /**
   * Draws the board: the position shown, with what may be chosen now and the turn so far.
   * @param {{from: string, to: string, flash?: boolean}[]} [animate]
   */
  renderBoard(animate = []) {
    const g = this.c.game();
    if (!g) return;
    const { board, frame } = this.c;
    const viewing = this.c.viewing();
    frame.classList.toggle('viewing', viewing !== null);
    frame.classList.toggle('my-turn', this.c.myTurn() && viewing === null);
    if (viewing !== null) {
      frame.classList.remove('replaying');
      const ev = viewing >= 0 ? g.events[viewing] : null;
      const pos = parseDpn(ev ? ev.dpn : g.start);
      board.draw(pos.board, { last: ev ? touchedSquares(ev) : [], dim: orphanedArmies(pos), hostage: hostageArmy(pos) }, []);
      return;
    }
    const recap = this.c.recap();
    frame.classList.toggle('replaying', Boolean(recap.event));
    if (recap.event) {
      // A turn of a burst, shown while later ones wait for their moment.
      const then = parseDpn(recap.event.dpn);
      board.draw(then.board, { turns: recap.turns, dim: orphanedArmies(then), hostage: hostageArmy(then) }, animate);
      return;
    }
    const pos = parseDpn(g.dpn);
    const all = positions(g);
    const lastEv = all.length ? all[all.length - 1].event : null;
    // Entering a turn clears the marks of the others' turns (back if the choice is taken back).
    const entering = this.c.myTurn() && (this.picker.path.length > 0 || this.sending);
    /** @type {import('../board/board.js').Marks} */
    const marks = {
      last: recap.turns.length ? [] : touchedSquares(lastEv),
      turns: entering ? [] : recap.turns,
      hint: entering ? [] : this.c.hint(),
      dim: orphanedArmies(pos),
      hostage: hostageArmy(pos),
    };
    let shown = pos.board;
    if (this.c.myTurn()) {
      const picker = this.picker;
      const st = P.stage(picker);
      const from = P.chosen(picker, 'from');
      const to = P.chosen(picker, 'to');
      if (st.field === 'from') {
        marks.movable = P.movableSquares(picker);
      } else if (from) {
        if (st.field !== 'done') marks.selected = from;
        if (st.field === 'done' && st.parts) {
          shown = previewBoard(pos.board, st.parts);
          const p = st.parts;
          marks.changed = [...new Set([p.from, p.to, p.victim, p.exit, p.place].filter((x) => x !== null))].map(String);
          marks.last = [];
        } else if (to) {
          // Show the move so far; a piece still to be placed is "in hand" and not drawn.
          shown = previewBoard(pos.board, {
            from, to, victim: P.chosen(picker, 'victim') ?? null, exit: P.chosen(picker, 'exit') ?? null, place: null,
          });
          marks.chosen = [to, P.chosen(picker, 'exit')].filter((x) => typeof x === 'string').map(String);
          marks.last = [];
        }
        if (st.field !== 'done') {
          marks.options = st.options;
          marks.optionKind = /** @type {any} */ (st.field);
        }
      }
    }
    board.draw(shown, marks, animate);
  }

  /** Draws the line under the board, and what the last click pointed at. */
  renderPrompt() {
    this.renderPromptRow();
    if (this.info) this.c.prompt.append(h('p', { class: 'square-info', text: this.info }));
  }

  /** The line under the board: what to do now, or why there is nothing to do. */
  renderPromptRow() {
    const { prompt } = this.c;
    const g = this.c.game();
    if (!g) {
      replace(prompt);
      return;
    }
    const m = this.c.me();
    const viewing = this.c.viewing();
    if (viewing !== null) {
      const ev = viewing >= 0 ? g.events[viewing] : null;
      replace(prompt, h('div', { class: 'prompt-row viewing' },
        h('span', { text: ev ? t('game.viewing_after', { n: ev.kind === 'turn' ? ev.number : '·' }) : t('game.viewing_start') }),
        h('button', { type: 'button', class: 'btn btn-small btn-primary back-live', text: t('game.back_live'), onclick: () => this.c.backToLive() })));
      return;
    }
    if (g.result || g.status === 'cancelled') {
      replace(prompt);
      return;
    }
    if (!this.c.online()) {
      replace(prompt, h('div', { class: 'prompt-row offline' }, h('span', { text: t('game.offline_prompt') })));
      return;
    }
    if (!this.c.myTurn()) {
      let text;
      if (!this.c.started()) text = t('game.waiting_players_help');
      else if (m && !isAlive(g, m)) text = t('game.you_are_out');
      else if (g.to_move) text = t(m ? 'game.waiting_for' : 'game.watching_turn', { who: who(g, g.to_move) });
      else text = '';
      replace(prompt, h('div', { class: 'prompt-row' }, h('span', { text })));
      return;
    }
    if (this.sending) {
      replace(prompt, h('div', { class: 'prompt-row' }, h('span', { text: t('game.sending') })));
      return;
    }
    replace(prompt, turnPrompt(this.picker, parseDpn(g.dpn).board, {
      send: (turn) => this.send(turn), none: () => this.pickNone(null), back: () => this.back(),
    }));
  }
}
