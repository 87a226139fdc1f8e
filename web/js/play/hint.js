// "Show a good turn" on the game page (PROTOCOL §2.4): for the seat to move, where the game
// allows hints — every other living seat a bot, or hints allowed by the creator (which the page
// says to everyone). The server decides (it refuses everyone else); the page only shows the
// button where it would answer. The suggestion is framed on the board until the game moves on.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { askHint } from '../api.js';
import { errorText } from '../errors.js';
import { turnSquares } from '../board/verdicts.js';

/**
 * Whether the game allows `me` hints: the creator allowed them, or every other living seat is a
 * bot.
 * @param {any} g @param {string | null} me
 */
export function hintsAllowed(g, me) {
  if (!g || !me) return false;
  if (g.settings && g.settings.hints) return true;
  return g.seats.every((/** @type {any} */ s) => s.player === me || s.alive === false || Boolean(s.bot));
}

/**
 * @typedef {object} HintContext
 * @property {string} id
 * @property {() => any} game
 * @property {() => string | null} me
 * @property {() => string | null} token     our seat's token
 * @property {() => boolean} myTurn
 * @property {() => boolean} online
 * @property {() => void} redraw             the board and this row are to be drawn again
 */

export class HintRow {
  /** @param {HintContext} c */
  constructor(c) {
    this.c = c;
    /** @type {{v: number, turn: string} | null} the last suggestion, for the version it was made at */
    this.hint = null;
    this.busy = false;
    this.error = '';
    this.element = h('div', { class: 'hint-row' });
  }

  /** The suggestion, while the game is where it was made. */
  current() {
    const g = this.c.game();
    return this.hint && g && this.hint.v === g.v ? this.hint : null;
  }

  /** The squares to frame on the board now. */
  squares() {
    const hint = this.current();
    return hint && this.c.myTurn() ? turnSquares(hint.turn) : [];
  }

  async ask() {
    const token = this.c.token();
    if (this.busy || !token) return;
    this.busy = true;
    this.error = '';
    this.render();
    try {
      const answer = await askHint(this.c.id, token);
      this.hint = { v: answer.v, turn: answer.turn };
    } catch (e) {
      this.error = errorText(e);
    }
    this.busy = false;
    this.c.redraw();
  }

  /** Draws the button, or the suggestion and how to read it. */
  render() {
    const g = this.c.game();
    const me = this.c.me();
    const show = g && this.c.myTurn() && g.status === 'live' && !g.result && hintsAllowed(g, me);
    if (!show) {
      replace(this.element);
      return;
    }
    const hint = this.current();
    replace(this.element,
      hint
        ? h('p', { class: 'hint-note', role: 'status' },
          h('strong', { text: t('learn.hint') }), ' ', h('code', { class: 'notation', text: hint.turn }), ' ', t('learn.hint_help'))
        : h('button', {
          type: 'button', class: 'btn btn-small show-hint', disabled: this.busy || !this.c.online(),
          text: this.busy ? t('game.hint_thinking') : t('learn.show_hint'), onclick: () => this.ask(),
        }),
      this.error ? h('p', { class: 'error-text small', role: 'alert', text: this.error }) : null);
  }
}
