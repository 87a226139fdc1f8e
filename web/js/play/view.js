// What the game page shows: its layout, the parts it is made of — the board with the turn entry
// (entry.js) and its hint (hint.js), the recap of the others' turns (recapview.js), the chat and the turn list (tabs on
// a narrow screen: sidetabs.js), the clocks (clocks.js) — and the drawing of its panels from the
// page's state: the head, the banner (banner.js), the players, the actions (actions.js) and the
// turn list (history.js), and the text view of the board for screen readers (textview.js). It
// redraws what time alone changes, and sounds when our turn comes or our clock runs low.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { BoardView } from '../board/board.js';
import { ChatPanel } from './chat.js';
import { describeSquare, playersPanel } from '../board/panels.js';
import { rememberFinishedGame } from '../prefs.js';
import { armySwatch } from '../board/pieces.js';
import { keepFocus } from '../shared/focus.js';
import { TurnEntry } from './entry.js';
import { bannerContent } from './banner.js';
import { actionsContent } from './actions.js';
import { renderHistory } from './history.js';
import { ClockTicker, durationText, lowClock, seatClock } from './clocks.js';
import { chime, notifyIfHidden, playSound, titleAlertOn, unlockAudioOnGesture } from '../shared/alerts.js';
import { awayFor, voteTarget } from './table.js';
import { RecapView } from './recapview.js';
import { SideTabs } from './sidetabs.js';
import { HintRow } from './hint.js';
import { TextView } from './textview.js';

/** A seat counts as away on the page after this long without a connection (reloads are quicker). */
const AWAY_SHOWN_MS = 10_000;

export class GameView {
  /**
   * Builds the page into `main`.
   * @param {HTMLElement} main
   * @param {import('./state.js').PageState} state
   * @param {import('./commands.js').TableCommands} commands
   */
  constructor(main, state, commands) {
    this.state = state;
    this.commands = commands;
    /** Whether it was our turn at the last look (null before the first snapshot): the chime's cue. */
    this.wasMyTurn = /** @type {boolean | null} */ (null);
    /** What the time-dependent parts showed at the last tick, to redraw them only when it changes. */
    this.timeKey = '';
    /** The level chosen for a vote to hand an absent player's seat to a bot (null: the table's). */
    this.voteLevel = /** @type {string | null} */ (null);
    /** The game ended while we watched: bring the result into view once it is shown. */
    this.scrollToResult = false;
    /** The version at which our low clock was last warned of (one warning per turn). */
    this.lowWarned = /** @type {number | null} */ (null);

    const me = () => state.me();
    this.root = h('div', { class: 'game-page' });
    this.head = h('div', { class: 'game-head' });
    this.bannerBody = h('div', { class: 'banner-body' });
    this.board = new BoardView({
      onSquare: (sq, how) => this.entry.click(sq, how.keyboard),
      onBack: () => this.entry.back(),
      onCursor: (sq) => {
        this.live.textContent = describeSquare(sq, this.board.board[sq]) + this.entry.optionNote(sq);
        this.entry.cursorMoved(sq);
      },
      describe: describeSquare,
      label: t('game.board'),
    });
    const boardFrame = h('div', { class: 'board-frame' }, this.board.el);
    const prompt = h('div', { class: 'prompt', 'aria-live': 'polite' });
    /** The keyboard cursor's square, said to screen readers. */
    this.live = h('div', { class: 'visually-hidden', 'aria-live': 'polite' });
    this.players = h('div', { class: 'players-slot' });
    this.actions = h('section', { class: 'panel actions', 'aria-label': t('game.actions') });
    this.historyBox = h('section', { class: 'panel history-panel', 'aria-labelledby': 'history-title' });
    this.recap = new RecapView({
      game: () => state.game, me,
      onStep: (animate) => {
        if (state.viewing === null) this.entry.renderBoard(animate);
        this.renderBanner();
      },
      onIdle: () => this.renderAll(),
    });
    // The message that the person is out stands above the banner, drawn apart from it.
    this.banner = h('div', { class: 'banner-slot' }, this.recap.noticeSlot, this.bannerBody);
    this.entry = new TurnEntry({
      board: this.board, frame: boardFrame, prompt, game: () => state.game, me,
      myTurn: () => state.myTurn(), started: () => state.started(), online: () => state.online(),
      viewing: () => state.viewing,
      backToLive: () => this.show(null),
      sendMove: (turn) => commands.move(turn),
      recap: () => this.recap.view(),
      skipRecap: () => this.recap.skip(),
      hint: () => this.hint.squares(),
    });
    this.hint = new HintRow({
      id: state.id, game: () => state.game, me, token: () => (state.seat ? state.seat.token : null),
      myTurn: () => state.myTurn(), online: () => state.online(),
      redraw: () => {
        this.entry.renderBoard();
        this.hint.render();
      },
    });
    this.chat = new ChatPanel({
      me,
      seats: () => (state.game ? state.game.seats : []),
      onSend: (text, to) => commands.say(text, to),
      shown: () => /** @type {boolean} */ (this.tabs.chatShown()),
      onRoom: (open) => commands.openRoom(open),
      playersPublic: () => !state.game || !state.game.settings || state.game.settings.players_chat_public !== false,
      onUnread: (/** @type {number} */ n) => { this.tabs.setUnread(n); this.renderHead(); },
    });
    this.tabs = new SideTabs({ turns: this.historyBox, chat: this.chat.element, onShow: () => this.chat.seen() });
    this.textView = new TextView({
      game: () => state.game, me, myTurn: () => state.myTurn(), now: () => state.now(),
      play: (turn) => this.entry.send(turn),
      prompt: () => prompt.querySelector('.prompt-text')?.textContent || '',
    });
    this.root.append(this.head,
      h('div', { class: 'game-layout' },
        h('div', { class: 'board-col' }, this.banner, boardFrame, prompt, this.hint.element, this.recap.list, this.live, this.recap.log),
        h('div', { class: 'side-col' }, this.players, this.textView.el, this.actions, this.tabs.element, this.historyBox, this.chat.element)));
    main.append(this.root);
    this.ticker = new ClockTicker(this.root, () => state.game, () => state.offset, () => this.onSecond());
    unlockAudioOnGesture();
  }

  /** Shows the position after an event of the history (null: the live position). @param {number | null} index */
  show(index) {
    this.state.viewing = index;
    this.entry.renderBoard();
    this.entry.renderPrompt();
    this.renderHistoryBox();
  }

  /** Redraws its words after a language change. */
  relabel() {
    this.board.svg.setAttribute('aria-label', t('game.board'));
    this.actions.setAttribute('aria-label', t('game.actions'));
    this.chat.render();
    this.textView.render();
    this.tabs.relabel();
    this.recap.relabel();
    this.renderAll();
  }

  /** Our turn has just come: the chime, and a notification if the tab is hidden. */
  turnCame() {
    const { state } = this;
    const mine = state.myTurn();
    if (this.wasMyTurn === false && mine) {
      chime();
      notifyIfHidden({ game: state.id, kind: 'your_turn', title: t('game.notify_title'), body: t('game.notify_body', { player: t(`player.${state.me()}`) }) });
    }
    this.wasMyTurn = state.game ? mine : null;
  }

  /** Once a second: absences and the vote they allow change with time alone; our clock may run low. */
  onSecond() {
    const { state } = this;
    const g = state.game;
    if (!g || !state.started()) return;
    const n = state.now();
    // Our clock running low: one warning per turn.
    if (lowClock(g, state.me(), n)) {
      if (this.lowWarned !== g.v) {
        this.lowWarned = g.v;
        playSound('clock');
      }
    }
    const key = `${voteTarget(g, state.me(), n)}|${g.seats.map((/** @type {any} */ s) => this.awayText(s, n)).join('|')}`;
    if (key === this.timeKey) return;
    this.timeKey = key;
    this.renderPlayers();
    this.renderBanner();
  }

  /**
   * "away 3 min" (whole minutes, so it changes seldom) for a person away from a game in
   * progress, else ''.
   * @param {any} s @param {number} n
   */
  awayText(s, n) {
    const g = this.state.game;
    if (!g || g.result || g.status !== 'live' || s.alive === false) return '';
    const ms = awayFor(s, n);
    if (ms === null || ms < AWAY_SHOWN_MS) return '';
    return ms < 60_000 ? t('game.away_short') : t('game.away', { time: durationText(Math.floor(ms / 60_000) * 60_000) });
  }

  // ---- drawing ----

  /**
   * Draws the whole page, or only why it cannot show the game.
   * @param {{from: string, to: string, flash?: boolean}[]} [animate]  pieces to move on the board
   */
  renderAll(animate = []) {
    const { state } = this;
    const g = state.game;
    if (state.fatal) {
      document.title = `${state.fatal} — Djambi Online`;
      replace(this.root, h('section', { class: 'card narrow error-card', role: 'alert' },
        h('h1', { text: state.fatal }),
        h('p', {}, h('a', { href: '/', class: 'btn btn-primary', text: t('notfound.back') }))));
      return;
    }
    for (const panel of [this.actions, this.historyBox, this.chat.element]) panel.hidden = !g;
    this.tabs.element.classList.toggle('tab-hidden', !g);
    this.renderHead();
    this.renderBanner();
    this.entry.renderBoard(animate);
    this.renderPrompt();
    this.renderPlayers();
    this.renderActions();
    this.renderHistoryBox();
    this.recap.renderList();
    if (g) this.turnCame();
    // A game of ours seen to its end: the lobby's bots may be offered at the level chosen last.
    if (g && g.result && state.me()) rememberFinishedGame();
  }

  /** The title line: the game, our seat, the connection; and the tab's title. */
  renderHead() {
    const { state } = this;
    if (state.fatal) return;
    const m = state.me();
    const statusText = t(`conn.${state.status}`);
    replace(this.head,
      h('h1', { class: 'game-title' },
        h('span', { text: t('game.title') }),
        h('small', { class: 'muted game-id', text: state.id.slice(0, 8) })),
      h('div', { class: 'seat-badge' },
        m ? [armySwatch(m, 16), h('span', { text: t('game.you_play', { player: t(`player.${m}`) }) })]
          : h('span', { text: state.game ? t('game.spectating') : '' })),
      h('span', { class: ['conn-badge', `conn-${state.status}`], role: 'status', title: statusText },
        h('span', { class: 'dot', 'aria-hidden': 'true' }), statusText));
    const unread = this.chat.unread ? t('chat.unread_title', { n: this.chat.unread }) : '';
    const prefix = unread + (state.myTurn() && titleAlertOn() ? `● ${t('game.your_turn')} — ` : '');
    document.title = `${prefix}${t('game.title')} — Djambi Online`;
  }

  /** The banner: the game's state and what the table is asked. */
  renderBanner() {
    const { state, commands } = this;
    if (state.fatal) return;
    const g = state.game;
    if (!g) {
      replace(this.bannerBody, h('div', { class: 'turn-banner', text: t('common.loading') }));
      return;
    }
    const held = this.recap.behind();
    keepFocus(this.bannerBody, () => replace(this.bannerBody, ...bannerContent({
      id: state.id, g, me: state.me(), online: state.online(), now: state.now(), started: state.started(),
      command: (type, fields) => commands.command(type, fields), holdResult: held,
      voteLevel: this.voteLevel, setVoteLevel: (l) => { this.voteLevel = l; },
      join: () => commands.joinRematch(), joining: state.rematchJoining,
    })));
    this.ticker.tick();
    if (this.scrollToResult && g.result && !held) {
      this.scrollToResult = false;
      // Below the sticky top bar.
      this.banner.scrollIntoView({ behavior: 'smooth', block: 'start' });
    }
  }

  /** The line under the board. */
  renderPrompt() {
    if (this.state.fatal) return;
    this.entry.renderPrompt();
    this.hint.render();
  }

  /** The players, with who is away and their clocks. */
  renderPlayers() {
    const { state } = this;
    const g = state.game;
    if (!g || state.fatal) return;
    const n = state.now();
    replace(this.players, playersPanel(g, state.me(), {
      online: state.online(),
      extra: (s) => {
        const away = this.awayText(s, n);
        const clock = seatClock(g, s.player);
        if (!away && !clock) return null;
        return h('span', { class: 'seat-extra' }, away ? h('span', { class: 'tag tag-away', text: away }) : null, clock);
      },
    }));
    this.ticker.tick();
  }

  /** The actions panel. */
  renderActions() {
    const { state, commands, entry } = this;
    if (state.fatal) return;
    if (!state.game) {
      replace(this.actions);
      return;
    }
    keepFocus(this.actions, () => replace(this.actions, ...actionsContent({
      id: state.id, g: state.game, me: state.me(), online: state.online(), started: state.started(),
      confirm: entry.confirm,
      setConfirm: (on) => entry.setConfirm(on),
      command: (type, fields) => commands.command(type, fields),
      resign: () => commands.resign(),
      redraw: () => this.renderActions(),
    })));
  }

  /** The turn list. */
  renderHistoryBox() {
    const { state } = this;
    if (!state.game || state.fatal) return;
    renderHistory(this.historyBox, { g: state.game, viewing: state.viewing, unavailable: state.historyUnavailable, show: (i) => this.show(i) });
  }
}
