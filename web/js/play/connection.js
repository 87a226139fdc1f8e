// The game page's socket glue: it opens the game's socket (socket.js) with our seat's token and
// turns what comes over it into the page's state and drawing — the snapshot, each event (with
// the recap's moments and what is news), the legal turns, presence, chat, a rematch offered,
// the connection's status, the clock's offset and the errors that answer no command. The turns'
// positions, which the snapshot lacks, come over HTTP. A seat the server no longer opens is
// watched instead; a game that is not there, or a page another window replaced, says so and
// stops.

import { toast } from '../dom.js';
import { t } from '../i18n.js';
import { getGame, loadHistory } from '../api.js';
import { forgetSeat } from '../shared/tokens.js';
import { GameSocket } from '../shared/socket.js';
import { addHistory, applyEvent, applyPresence, normalizeGame, syncSeats, travels } from '../board/model.js';
import { narrate } from '../board/narrate.js';
import { errorText } from '../errors.js';
import { savedName } from '../prefs.js';
import { playSound, playTurnSound } from '../shared/alerts.js';

/** Events after which the position (and so the turn being entered) is new. */
const NEW_POSITION = ['turn', 'resign', 'draw_agreed', 'started', 'seat_to_bot', 'seat_to_human', 'taken_back', 'paused'];

/** @typedef {import('../shared/socket.js').SocketHandlers} SocketHandlers */

/**
 * The socket's handlers (`GameSocket` calls them as methods of this object).
 * @implements {SocketHandlers}
 */
export class GameConnection {
  /**
   * @param {import('./state.js').PageState} state
   * @param {import('./view.js').GameView} view
   * @param {import('./commands.js').TableCommands} commands
   */
  constructor(state, view, commands) {
    this.state = state;
    this.view = view;
    this.commands = commands;
    /** The events are being fetched over HTTP. */
    this.historyPending = false;
    /** Whether we asked over HTTP if a game we never connected to exists. */
    this.existenceChecked = false;
  }

  /** Opens the socket, with our seat's token if we hold one. */
  connect() {
    const { state } = this;
    state.socket = new GameSocket(state.id, state.seat ? state.seat.token : null, this);
  }

  /** Closes the socket for good (the page is left). */
  close() {
    const { state } = this;
    if (state.socket) state.socket.close();
    state.socket = null;
  }

  /** The page cannot go on: it says why, and the socket closes. @param {string} text */
  fail(text) {
    const { state } = this;
    state.fatal = text;
    if (state.socket) state.socket.close();
    this.view.renderAll();
  }

  /** The snapshot lists the turns but not their positions: fetch the events over HTTP. */
  async fetchHistory() {
    const { state, view } = this;
    if (!state.game) return;
    this.historyPending = true;
    const g = state.game;
    try {
      await loadHistory(state.id, g.v, (v, ev) => addHistory(g, v, ev));
    } catch {
      /* listed as text below */
    }
    this.historyPending = false;
    if (g !== state.game) return;
    if (!g.historyLoaded) state.historyUnavailable = true;
    else view.recap.seed();
    view.entry.renderBoard();
    view.renderHistoryBox();
  }

  // ---- the socket's handlers ----

  /** @param {any} msg */
  onSnapshot(msg) {
    const { state, view } = this;
    const game = normalizeGame(msg.game);
    state.game = game;
    syncSeats(game);
    state.you = msg.you || { role: 'spectator' };
    if (state.seat && state.you && state.you.role !== 'player') {
      // The server did not take our token: watch instead of pretending to play.
      forgetSeat(state.id);
      state.seat = null;
    }
    view.board.setOrientation(state.me() || 'r');
    view.entry.reset();
    view.recap.reset();
    view.chat.setMessages(game.chat);
    view.chat.render();
    view.renderAll();
    if (!game.historyLoaded && !state.historyUnavailable && !this.historyPending) this.fetchHistory();
  }

  /** @param {any} y */
  onYou(y) {
    const { state, view } = this;
    const before = state.me();
    state.you = y;
    if (state.me() !== before) {
      view.board.setOrientation(state.me() || 'r');
      view.renderAll();
    }
  }

  /** The last chat message seen, for the hello's `chat_since`. */
  chatSince() {
    return this.view.chat.lastId();
  }

  /** A spectator's name, for the hello. */
  name() {
    return savedName() || null;
  }

  /** @param {Record<string, string[]>} legal */
  onLegal(legal) {
    const { state, view } = this;
    if (!state.game) return;
    state.game.legal = legal;
    view.entry.reset();
    view.renderAll();
  }

  /** @param {any} msg */
  onEvent(msg) {
    const { state, view } = this;
    const game = state.game;
    if (!game) return;
    const ev = msg.event;
    // The legal turns of the new version come in their own message, to the seat to move.
    game.legal = {};
    const wasOver = Boolean(game.result);
    applyEvent(game, msg.v, ev);
    if (NEW_POSITION.includes(ev.kind)) view.entry.reset();
    if (ev.kind === 'timeout' || ev.kind === 'paused') toast(narrate(t, ev));
    // Bots are not whispered to: the chat's recipients follow who plays each seat.
    if (ev.kind === 'seat_to_bot' || ev.kind === 'seat_to_human') view.chat.render();
    // The end of the game is news: its result is brought into view once it is shown.
    if (!wasOver && game.result) view.scrollToResult = true;
    // Our own turn is drawn at once; the others' have their moment, one after another.
    const mine = view.recap.isMine(ev);
    // Our own turn sounds at once; the others' when their moment comes (recapview.js).
    if (mine) playTurnSound(ev);
    view.recap.event(msg.v, ev);
    view.renderAll(mine && state.viewing === null ? travels(ev) : []);
  }

  /** @param {any} msg */
  onRematch(msg) {
    const { state } = this;
    if (!state.game) return;
    const { type: _type, ...offer } = msg;
    state.game.rematch = offer;
    this.view.renderBanner();
    // Whoever asked from this page said yes already: straight to the new game.
    if (state.rematchAsked && offer.by === state.me()) this.commands.joinRematch();
  }

  /** @param {any} msg */
  onChat(msg) {
    // Someone else's new message: its sound.
    if (this.view.chat.add(msg)) playSound('chat');
    if (msg.to && msg.from !== this.state.me()) toast(t('chat.whisper_toast', { name: msg.name || t(`player.${msg.from}`) }));
  }

  /** @param {any} p */
  onPresence(p) {
    const { state, view } = this;
    if (!state.game) return;
    const wasStarted = state.started();
    applyPresence(state.game, p);
    if (state.started() !== wasStarted) {
      view.entry.reset();
      view.renderAll();
    } else {
      view.renderPlayers();
      view.renderBanner();
    }
  }

  /** @param {import('../shared/socket.js').SocketStatus} s */
  onStatus(s) {
    const { state, view } = this;
    state.status = s;
    if (s === 'reconnecting' && !state.game && !this.existenceChecked) {
      // Never connected: the game may simply not exist (the socket is refused with a 404).
      this.existenceChecked = true;
      getGame(state.id).catch((e) => {
        if (e && (e.code === 'not_found' || e.code === 'bad_request')) this.fail(t('game.not_found'));
      });
    }
    view.chat.setOnline(s === 'online');
    // A new connection starts with the spectators' room closed: open it again.
    if (s === 'online' && view.chat.roomOpen && state.socket) state.socket.sendRaw({ type: 'spectator_room', open: true });
    view.renderHead();
    view.renderBanner();
    view.renderPrompt();
    view.renderPlayers();
    view.renderActions();
  }

  /** @param {any} msg */
  onError(msg) {
    const { state, view } = this;
    if (msg.code === 'bad_token' || msg.code === 'seat_revoked') {
      // Our link no longer opens the seat: watch instead.
      forgetSeat(state.id);
      state.seat = null;
      toast(t(`errors.${msg.code}`), 'error');
      if (state.socket) state.socket.setToken(null);
    } else if (msg.code === 'protocol') {
      // This page is older than the server: only a reload brings the client it speaks with.
      state.fatal = t('errors.protocol');
      view.renderAll();
    } else if (msg.code === 'replaced') {
      // Another window took the seat: do not fight it by reconnecting.
      this.fail(t('errors.replaced'));
    } else if (msg.code === 'not_found') {
      this.fail(t('game.not_found'));
    } else {
      toast(errorText(msg, 'game.errors'), 'error');
    }
  }

  /** Missed events and chat came with the hello (`since`, `chat_since`): redraw. */
  onReconnected() {
    this.view.renderAll();
  }

  /** @param {number} o */
  onClockOffset(o) {
    this.state.offset = o;
    this.view.ticker.tick();
  }
}
