// The game page (`/game/{id}`): the socket and the game it keeps, and the page's parts drawn from
// it — the banner (game/banner.js), the board and turn entry (game/entry.js), the players with
// their clocks, the actions (game/actions.js), the turn list (game/history.js) and the chat. It
// resumes its seat after a reload, catches up after drops, and tells the player its turn came.

import { h, replace, toast, confirmDialog } from './dom.js';
import { t } from './i18n.js';
import { getGame, loadHistory } from './api.js';
import { forgetSeat, loadSeat, parseInvite, saveSeat } from './tokens.js';
import { GameSocket } from './socket.js';
import { BoardView } from './board.js';
import { addHistory, applyEvent, applyPresence, normalizeGame, syncSeats, travels } from './model.js';
import { narrate } from './narrate.js';
import { ChatPanel } from './chat.js';
import { describeSquare, playersPanel } from './panels.js';
import { errorText } from './errors.js';
import { rememberFinishedGame, savedName } from './prefs.js';
import { openInvite } from './claim.js';
import { armySwatch } from './pieces.js';
import { keepFocus } from './focus.js';
import { TurnEntry } from './game/entry.js';
import { bannerContent } from './game/banner.js';
import { actionsContent } from './game/actions.js';
import { renderHistory } from './game/history.js';
import { ClockTicker, durationText, seatClock } from './game/clocks.js';
import { chime, notifyIfHidden, titleAlertOn, unlockAudioOnGesture } from './game/alerts.js';
import { awayFor, botLevel, voteTarget } from './game/table.js';
import { RecapView } from './game/recapview.js';
import { SideTabs } from './game/sidetabs.js';
import { joinRematch } from './game/rematch.js';

/** Events after which the position (and so the turn being entered) is new. */
const NEW_POSITION = ['turn', 'resign', 'draw_agreed', 'started', 'seat_to_bot', 'seat_to_human', 'taken_back', 'paused'];
/** A seat counts as away on the page after this long without a connection (reloads are quicker). */
const AWAY_SHOWN_MS = 10_000;

/**
 * Mounts the game page.
 * @param {HTMLElement} main
 * @param {{id: string}} params
 */
export function mount(main, { id }) {
  const invite = parseInvite(location.hash);
  const held = loadSeat(id);
  // The token leaves the visible URL at once (it would be shared with a screenshot or a copy).
  if (invite) history.replaceState(null, '', location.pathname + location.search);
  let seat = invite ? null : held;
  /** @type {any} */
  let game = null;
  /** @type {{role: string, player?: string} | null} */
  let you = null;
  let status = 'connecting';
  /** @type {number | null} index of the event whose position is shown; null: the live position */
  let viewing = null;
  /** @type {GameSocket | null} */
  let socket = null;
  let fatal = '';
  let offset = 0;
  let historyPending = false;
  let historyUnavailable = false;
  let existenceChecked = false;
  /** Whether it was our turn at the last look (null before the first snapshot): the chime's cue. */
  let wasMyTurn = /** @type {boolean | null} */ (null);
  /** What the time-dependent parts showed at the last tick, to redraw them only when it changes. */
  let timeKey = '';
  /** The level chosen for a vote to hand an absent player's seat to a bot (null: the table's). */
  let voteLevel = /** @type {string | null} */ (null);
  /** The game ended while we watched: bring the result into view once it is shown. */
  let scrollToResult = false;
  /** This page asked for the rematch (it joins it as soon as it is offered), and is joining. */
  let rematchAsked = false;
  let rematchJoining = false;

  const me = () => (you && you.role === 'player' && you.player ? you.player : null);
  const started = () => Boolean(game && game.status !== 'open');
  const online = () => status === 'online';
  const myTurn = () => Boolean(game && !game.result && game.status === 'live' && me() && game.to_move === me() && !botLevel(game, me()));
  const now = () => Date.now() + offset;

  const root = h('div', { class: 'game-page' });
  const head = h('div', { class: 'game-head' });
  const bannerBody = h('div', { class: 'banner-body' });
  const board = new BoardView({
    onSquare: (sq, how) => entry.click(sq, how.keyboard),
    onBack: () => entry.back(),
    onCursor: (sq) => {
      live.textContent = describeSquare(sq, board.board[sq]) + entry.optionNote(sq);
      entry.cursorMoved(sq);
    },
    describe: describeSquare,
    label: t('game.board'),
  });
  const boardFrame = h('div', { class: 'board-frame' }, board.svg);
  const prompt = h('div', { class: 'prompt', 'aria-live': 'polite' });
  const live = h('div', { class: 'visually-hidden', 'aria-live': 'polite' });
  const players = h('div', { class: 'players-slot' });
  const actions = h('section', { class: 'panel actions', 'aria-label': t('game.actions') });
  const historyBox = h('section', { class: 'panel history-panel', 'aria-labelledby': 'history-title' });
  const recap = new RecapView({
    game: () => game, me,
    onStep: (animate) => {
      if (viewing === null) entry.renderBoard(animate);
      renderBanner();
    },
    onIdle: () => renderAll(),
  });
  // The message that the person is out stands above the banner, drawn apart from it.
  const banner = h('div', { class: 'banner-slot' }, recap.noticeSlot, bannerBody);
  const entry = new TurnEntry({
    board, frame: boardFrame, prompt, game: () => game, me, myTurn, started, online,
    viewing: () => viewing,
    backToLive: () => show(null),
    sendMove: (turn) => (socket ? socket.command('move', { turn }) : Promise.reject({ code: 'offline' })),
    recap: () => recap.view(),
    skipRecap: () => recap.skip(),
  });
  /** @type {ChatPanel} */
  const chat = new ChatPanel({
    me,
    seats: () => (game ? game.seats : []),
    onSend: async (text, to) => {
      if (!socket) throw new Error(t('errors.offline'));
      try {
        if (to) await socket.command('whisper', { to, text });
        else await socket.command('chat', { text });
      } catch (e) {
        throw new Error(errorText(e));
      }
    },
    shown: () => /** @type {boolean} */ (tabs.chatShown()),
    // The room's recent messages come back with the snapshot that answers.
    onRoom: (open) => { if (socket) socket.sendRaw({ type: 'spectator_room', open }); },
    playersPublic: () => !game || !game.settings || game.settings.players_chat_public !== false,
    onUnread: (/** @type {number} */ n) => { tabs.setUnread(n); renderHead(); },
  });
  /** @type {SideTabs} */
  const tabs = new SideTabs({ turns: historyBox, chat: chat.element, onShow: () => chat.seen() });
  root.append(head,
    h('div', { class: 'game-layout' },
      h('div', { class: 'board-col' }, banner, boardFrame, prompt, recap.list, live, recap.log),
      h('div', { class: 'side-col' }, players, actions, tabs.element, historyBox, chat.element)));
  main.append(root);
  const ticker = new ClockTicker(root, () => game, () => offset, onSecond);
  unlockAudioOnGesture();

  // ---- connecting ----

  function connect() {
    socket = new GameSocket(id, seat ? seat.token : null, {
      onSnapshot(msg) {
        game = normalizeGame(msg.game);
        syncSeats(game);
        you = msg.you || { role: 'spectator' };
        if (seat && you && you.role !== 'player') {
          // The server did not take our token: watch instead of pretending to play.
          forgetSeat(id);
          seat = null;
        }
        board.setOrientation(me() || 'r');
        entry.reset();
        recap.reset();
        chat.setMessages(game.chat);
        chat.render();
        renderAll();
        if (!game.historyLoaded && !historyUnavailable && !historyPending) fetchHistory();
      },
      onYou(y) {
        const before = me();
        you = y;
        if (me() !== before) {
          board.setOrientation(me() || 'r');
          renderAll();
        }
      },
      chatSince: () => chat.lastId(),
      name: () => savedName() || null,
      onLegal(legal) {
        if (!game) return;
        game.legal = legal;
        entry.reset();
        renderAll();
      },
      onEvent(msg) {
        if (!game) return;
        const ev = msg.event;
        // The legal turns of the new version come in their own message, to the seat to move.
        game.legal = {};
        const wasOver = Boolean(game.result);
        applyEvent(game, msg.v, ev);
        if (NEW_POSITION.includes(ev.kind)) entry.reset();
        if (ev.kind === 'timeout' || ev.kind === 'paused') toast(narrate(t, ev));
        // Bots are not whispered to: the chat's recipients follow who plays each seat.
        if (ev.kind === 'seat_to_bot' || ev.kind === 'seat_to_human') chat.render();
        // The end of the game is news: its result is brought into view once it is shown.
        if (!wasOver && game.result) scrollToResult = true;
        // Our own turn is drawn at once; the others' have their moment, one after another.
        const mine = recap.isMine(ev);
        recap.event(msg.v, ev);
        renderAll(mine && viewing === null ? travels(ev) : []);
      },
      onRematch(msg) {
        if (!game) return;
        const { type: _type, ...offer } = msg;
        game.rematch = offer;
        renderBanner();
        // Whoever asked from this page said yes already: straight to the new game.
        if (rematchAsked && offer.by === me()) joinTheRematch();
      },
      onChat(msg) {
        chat.add(msg);
        if (msg.to && msg.from !== me()) toast(t('chat.whisper_toast', { name: msg.name || t(`player.${msg.from}`) }));
      },
      onPresence(p) {
        if (!game) return;
        const wasStarted = started();
        applyPresence(game, p);
        if (started() !== wasStarted) {
          entry.reset();
          renderAll();
        } else {
          renderPlayers();
          renderBanner();
        }
      },
      onStatus(s) {
        status = s;
        if (s === 'reconnecting' && !game && !existenceChecked) {
          // Never connected: the game may simply not exist (the socket is refused with a 404).
          existenceChecked = true;
          getGame(id).catch((e) => {
            if (e && (e.code === 'not_found' || e.code === 'bad_request')) fail(t('game.not_found'));
          });
        }
        chat.setOnline(s === 'online');
        // A new connection starts with the spectators' room closed: open it again.
        if (s === 'online' && chat.roomOpen && socket) socket.sendRaw({ type: 'spectator_room', open: true });
        renderHead();
        renderBanner();
        renderPrompt();
        renderPlayers();
        renderActions();
      },
      onError(msg) {
        if (msg.code === 'bad_token' || msg.code === 'seat_revoked') {
          // Our link no longer opens the seat: watch instead.
          forgetSeat(id);
          seat = null;
          toast(t(`errors.${msg.code}`), 'error');
          if (socket) socket.setToken(null);
        } else if (msg.code === 'protocol') {
          // This page is older than the server: only a reload brings the client it speaks with.
          fatal = t('errors.protocol');
          renderAll();
        } else if (msg.code === 'replaced') {
          // Another window took the seat: do not fight it by reconnecting.
          fail(t('errors.replaced'));
        } else if (msg.code === 'not_found') {
          fail(t('game.not_found'));
        } else {
          toast(errorText(msg, 'game.errors'), 'error');
        }
      },
      onReconnected() {
        // Missed events and chat came with the hello (`since`, `chat_since`): redraw.
        renderAll();
      },
      onClockOffset(o) {
        offset = o;
        ticker.tick();
      },
    });
  }

  /** @param {string} text */
  function fail(text) {
    fatal = text;
    if (socket) socket.close();
    renderAll();
  }

  /** The snapshot lists the turns but not their positions: fetch the events over HTTP. */
  async function fetchHistory() {
    if (!game) return;
    historyPending = true;
    const g = game;
    try {
      await loadHistory(id, g.v, (v, ev) => addHistory(g, v, ev));
    } catch {
      /* listed as text below */
    }
    historyPending = false;
    if (g !== game) return;
    if (!game.historyLoaded) historyUnavailable = true;
    else recap.seed();
    entry.renderBoard();
    renderHistoryBox();
  }

  /** Shows the position after an event of the history (null: the live position). @param {number | null} index */
  function show(index) {
    viewing = index;
    entry.renderBoard();
    entry.renderPrompt();
    renderHistoryBox();
  }

  /** @param {string} type @param {object} [fields] */
  /** Takes our seat in the offered rematch and goes there. */
  function joinTheRematch() {
    const me_ = me();
    if (!game || !game.rematch || !seat || !me_ || rematchJoining) return;
    rematchJoining = true;
    renderBanner();
    joinRematch(game.rematch, me_, seat.token).catch((e) => {
      rematchJoining = false;
      toast(errorText(e), 'error');
      renderBanner();
    });
  }

  async function command(type, fields) {
    if (!socket) return;
    if (type === 'rematch') rematchAsked = true;
    try {
      await socket.command(type, fields);
    } catch (e) {
      if (/** @type {any} */ (e).code === 'no_draw_offer' && game) {
        game.draw_offer = null;
        renderBanner();
        renderActions();
      }
      toast(errorText(e, 'game.errors'), 'error');
    }
  }

  async function resign() {
    const ok = await confirmDialog({
      title: t('game.resign_title'), body: t('game.resign_body'), ok: t('game.resign_ok'), cancel: t('common.cancel'), danger: true,
    });
    if (ok) command('resign');
  }

  /** Our turn has just come: the chime, and a notification if the tab is hidden. */
  function turnCame() {
    const mine = myTurn();
    if (wasMyTurn === false && mine) {
      chime();
      notifyIfHidden({ game: id, kind: 'your_turn', title: t('game.notify_title'), body: t('game.notify_body', { player: t(`player.${me()}`) }) });
    }
    wasMyTurn = game ? mine : null;
  }

  /** Once a second: absences and the vote they allow change with time alone. */
  function onSecond() {
    if (!game || !started()) return;
    const n = now();
    const key = `${voteTarget(game, me(), n)}|${game.seats.map((/** @type {any} */ s) => awayText(s, n)).join('|')}`;
    if (key === timeKey) return;
    timeKey = key;
    renderPlayers();
    renderBanner();
  }

  /**
   * "away 3 min" (whole minutes, so it changes seldom) for a person away from a game in
   * progress, else ''.
   * @param {any} s @param {number} n
   */
  function awayText(s, n) {
    if (!game || game.result || game.status !== 'live' || s.alive === false) return '';
    const ms = awayFor(s, n);
    if (ms === null || ms < AWAY_SHOWN_MS) return '';
    return ms < 60_000 ? t('game.away_short') : t('game.away', { time: durationText(Math.floor(ms / 60_000) * 60_000) });
  }

  // ---- drawing ----

  /** @param {{from: string, to: string, flash?: boolean}[]} [animate] */
  function renderAll(animate = []) {
    if (fatal) {
      document.title = `${fatal} — Djambi Online`;
      replace(root, h('section', { class: 'card narrow error-card', role: 'alert' },
        h('h1', { text: fatal }),
        h('p', {}, h('a', { href: '/', class: 'btn btn-primary', text: t('notfound.back') }))));
      return;
    }
    for (const panel of [actions, historyBox, chat.element]) panel.hidden = !game;
    tabs.element.classList.toggle('tab-hidden', !game);
    renderHead();
    renderBanner();
    entry.renderBoard(animate);
    renderPrompt();
    renderPlayers();
    renderActions();
    renderHistoryBox();
    recap.renderList();
    if (game) turnCame();
    // A game of ours seen to its end: the lobby's bots may be offered at the level chosen last.
    if (game && game.result && me()) rememberFinishedGame();
  }

  function renderHead() {
    if (fatal) return;
    const m = me();
    const statusText = t(`conn.${status}`);
    replace(head,
      h('h1', { class: 'game-title' },
        h('span', { text: t('game.title') }),
        h('small', { class: 'muted game-id', text: id.slice(0, 8) })),
      h('div', { class: 'seat-badge' },
        m ? [armySwatch(m, 16), h('span', { text: t('game.you_play', { player: t(`player.${m}`) }) })]
          : h('span', { text: game ? t('game.spectating') : '' })),
      h('span', { class: ['conn-badge', `conn-${status}`], role: 'status', title: statusText },
        h('span', { class: 'dot', 'aria-hidden': 'true' }), statusText));
    const unread = chat.unread ? t('chat.unread_title', { n: chat.unread }) : '';
    const prefix = unread + (myTurn() && titleAlertOn() ? `● ${t('game.your_turn')} — ` : '');
    document.title = `${prefix}${t('game.title')} — Djambi Online`;
  }

  function renderBanner() {
    if (fatal) return;
    if (!game) {
      replace(bannerBody, h('div', { class: 'turn-banner', text: t('common.loading') }));
      return;
    }
    const held = recap.behind();
    keepFocus(bannerBody, () => replace(bannerBody, ...bannerContent({
      id, g: game, me: me(), online: online(), now: now(), started: started(), command, holdResult: held,
      voteLevel, setVoteLevel: (l) => { voteLevel = l; },
      join: joinTheRematch, joining: rematchJoining,
    })));
    ticker.tick();
    if (scrollToResult && game.result && !held) {
      scrollToResult = false;
      // Below the sticky top bar.
      banner.scrollIntoView({ behavior: 'smooth', block: 'start' });
    }
  }

  function renderPrompt() {
    if (!fatal) entry.renderPrompt();
  }

  function renderPlayers() {
    if (!game || fatal) return;
    const n = now();
    replace(players, playersPanel(game, me(), {
      online: online(),
      extra: (s) => {
        const away = awayText(s, n);
        const clock = seatClock(game, s.player);
        if (!away && !clock) return null;
        return h('span', { class: 'seat-extra' }, away ? h('span', { class: 'tag tag-away', text: away }) : null, clock);
      },
    }));
    ticker.tick();
  }

  function renderActions() {
    if (fatal) return;
    if (!game) {
      replace(actions);
      return;
    }
    keepFocus(actions, () => replace(actions, ...actionsContent({
      id, g: game, me: me(), online: online(), started: started(),
      confirm: entry.confirm,
      setConfirm: (on) => entry.setConfirm(on),
      command, resign, redraw: renderActions,
    })));
  }

  function renderHistoryBox() {
    if (!game || fatal) return;
    renderHistory(historyBox, { g: game, viewing, unavailable: historyUnavailable, show });
  }

  renderAll();
  if (invite) {
    // An invite link: take the seat under a name first, unless it is ours already or taken.
    root.hidden = true;
    openInvite(main, id, invite, held, (claimed) => {
      if (claimed) saveSeat(id, claimed);
      seat = claimed;
      root.hidden = false;
      connect();
      renderAll();
    });
  } else {
    connect();
  }

  return {
    unmount() {
      ticker.stop();
      if (socket) socket.close();
      socket = null;
    },
    relabel() {
      board.svg.setAttribute('aria-label', t('game.board'));
      actions.setAttribute('aria-label', t('game.actions'));
      chat.render();
      tabs.relabel();
      recap.relabel();
      renderAll();
    },
  };
}

