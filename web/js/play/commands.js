// What the game page asks of the game over its socket (PROTOCOL §3): a turn, a chat message or a
// whisper, the spectators' room, the table's commands (draws, votes, takebacks, resigning after
// asking), and taking our seat in a rematch. A refusal is said in a toast; the game's events,
// not these answers, redraw the page.

import { toast, confirmDialog } from '../dom.js';
import { t } from '../i18n.js';
import { errorText } from '../errors.js';
import { joinRematch } from './rematch.js';

/**
 * @typedef {object} Redraw  the parts a command's answer may change without an event
 * @property {() => void} banner
 * @property {() => void} actions
 */

export class TableCommands {
  /** @param {import('./state.js').PageState} state @param {Redraw} redraw */
  constructor(state, redraw) {
    this.state = state;
    this.redraw = redraw;
  }

  /** Sends a turn; rejected with `{code: 'offline'}` without a socket. @param {string} turn */
  move(turn) {
    const socket = this.state.socket;
    return socket ? socket.command('move', { turn }) : Promise.reject({ code: 'offline' });
  }

  /**
   * Says something to the table, or whispers it to one player; throws an Error to show by the
   * chat's input.
   * @param {string} text @param {string | null} to
   */
  async say(text, to) {
    const socket = this.state.socket;
    if (!socket) throw new Error(t('errors.offline'));
    try {
      if (to) await socket.command('whisper', { to, text });
      else await socket.command('chat', { text });
    } catch (e) {
      throw new Error(errorText(e));
    }
  }

  /**
   * Opens or closes the spectators' room (its recent messages come back with the snapshot that
   * answers).
   * @param {boolean} open
   */
  openRoom(open) {
    const socket = this.state.socket;
    if (socket) socket.sendRaw({ type: 'spectator_room', open });
  }

  /**
   * One of the table's commands; a refusal is said in a toast.
   * @param {string} type @param {object} [fields]
   */
  async command(type, fields) {
    const { state } = this;
    if (!state.socket) return;
    if (type === 'rematch') state.rematchAsked = true;
    try {
      await state.socket.command(type, fields);
    } catch (e) {
      if (/** @type {any} */ (e).code === 'no_draw_offer' && state.game) {
        state.game.draw_offer = null;
        this.redraw.banner();
        this.redraw.actions();
      }
      toast(errorText(e, 'game.errors'), 'error');
    }
  }

  /** Asks, then resigns. */
  async resign() {
    const ok = await confirmDialog({
      title: t('game.resign_title'), body: t('game.resign_body'), ok: t('game.resign_ok'), cancel: t('common.cancel'), danger: true,
    });
    if (ok) this.command('resign');
  }

  /** Takes our seat in the offered rematch and goes there. */
  joinRematch() {
    const { state } = this;
    const me = state.me();
    if (!state.game || !state.game.rematch || !state.seat || !me || state.rematchJoining) return;
    state.rematchJoining = true;
    this.redraw.banner();
    joinRematch(state.game.rematch, me, state.seat.token).catch((e) => {
      state.rematchJoining = false;
      toast(errorText(e), 'error');
      this.redraw.banner();
    });
  }
}
