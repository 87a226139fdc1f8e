// What the game page knows, shared by its parts: the game as the socket keeps it, who we are in
// it, the connection, what the page shows instead of the live position, and a rematch in hand;
// and the questions the parts ask of it (whose seat is ours, whether it is our turn, the
// server's time). The socket's glue (connection.js) writes it; the drawing (view.js) reads it.

import { botLevel } from './table.js';

/** @typedef {import('../shared/socket.js').SocketStatus} SocketStatus */

export class PageState {
  /**
   * @param {string} id  the game's id
   * @param {{player: string, token: string} | null} seat  the seat this browser holds, if any
   */
  constructor(id, seat) {
    this.id = id;
    /** The seat whose token we connect with; null to watch. */
    this.seat = seat;
    /** The game (model.js's shape); null before the first snapshot. @type {any} */
    this.game = null;
    /** Who the server says we are. @type {{role: string, player?: string} | null} */
    this.you = null;
    /** @type {SocketStatus} */
    this.status = 'connecting';
    /** The socket to the game; null before connecting and once the page is left. @type {import('../shared/socket.js').GameSocket | null} */
    this.socket = null;
    /** Index of the event whose position is shown; null: the live position. @type {number | null} */
    this.viewing = null;
    /** Why the page cannot show the game at all (it is replaced by this message); '' while it can. */
    this.fatal = '';
    /** The server's clock minus ours, in ms. */
    this.offset = 0;
    /** The events could not be loaded over HTTP: the turns are listed as text. */
    this.historyUnavailable = false;
    /** This page asked for the rematch (it joins it as soon as it is offered). */
    this.rematchAsked = false;
    /** Joining the rematch is under way. */
    this.rematchJoining = false;
  }

  /** The player whose seat we hold, or null for a spectator. */
  me() {
    const you = this.you;
    return you && you.role === 'player' && you.player ? you.player : null;
  }

  /** Whether the game has left its waiting for players. */
  started() {
    return Boolean(this.game && this.game.status !== 'open');
  }

  /** Whether the socket is connected. */
  online() {
    return this.status === 'online';
  }

  /** Whether we are to move now, in person (not our seat's bot). */
  myTurn() {
    const g = this.game;
    const me = this.me();
    return Boolean(g && !g.result && g.status === 'live' && me && g.to_move === me && !botLevel(g, me));
  }

  /** The server's time now, as well as we know it (ms). */
  now() {
    return Date.now() + this.offset;
  }
}
