// The game page (`/game/{id}`): the board, entering turns from the server's legal turns, the turn
// list, resign and draws, the chat; it resumes its seat after a reload and catches up after drops.

import { h, replace, toast, confirmDialog, copyText } from './dom.js';
import { t } from './i18n.js';
import { GameSocket, forgetSeat, getGame, loadHistory, loadInvites, loadSeat, parseInvite, recordUrl, saveSeat } from './protocol.js';
import { BoardView } from './board.js';
import { parseDpn, previewBoard } from './dpn.js';
import * as P from './picker.js';
import { addHistory, applyEvent, applyPresence, isAlive, normalizeGame, positions, syncSeats, touchedSquares, travels } from './model.js';
import { narrate } from './narrate.js';
import { historyList, scrollToCurrent } from './turns.js';
import { turnPrompt } from './prompt.js';
import { ChatPanel } from './chat.js';
import { describeSquare, gameOverCard, orphanedArmies, hostageArmy, rulesSummary, who, playersPanel, turnBanner } from './panels.js';
import { errorText } from './errors.js';
import { savedName } from './prefs.js';
import { showClaim } from './claim.js';
import { armySwatch } from './pieces.js';
import { icon } from './icons.js';

const CONFIRM_KEY = 'djambi.confirm';

/**
 * @param {HTMLElement} main
 * @param {{id: string}} params
 */
export function mount(main, { id }) {
  const invite = parseInvite(location.hash);
  if (invite) {
    saveSeat(id, invite);
    history.replaceState(null, '', location.pathname + location.search);
  }
  let seat = loadSeat(id);
  /** @type {any} */
  let game = null;
  /** @type {{role: string, player?: string} | null} */
  let you = null;
  let status = 'connecting';
  let picker = P.createPicker({});
  let sending = false;
  /** @type {number | null} index of the event whose position is shown; null: the live position */
  let viewing = null;
  let confirmTurns = true;
  try { confirmTurns = localStorage.getItem(CONFIRM_KEY) !== '0'; } catch { /* ignore */ }
  /** @type {GameSocket | null} */
  let socket = null;
  let fatal = '';

  const me = () => (you && you.role === 'player' && you.player ? you.player : null);
  const started = () => Boolean(game && game.status !== 'open');
  const myTurn = () => Boolean(game && !game.result && started() && me() && game.to_move === me());
  let historyPending = false;
  let historyUnavailable = false;
  /** What the last click that chose nothing pointed at. */
  let info = '';
  let existenceChecked = false;

  const root = h('div', { class: 'game-page' });
  const head = h('div', { class: 'game-head' });
  const banner = h('div', { class: 'banner-slot' });
  const board = new BoardView({
    onSquare: (sq, how) => clickSquare(sq, how.keyboard),
    onBack: () => takeBack(),
    onCursor: (sq) => { live.textContent = describeSquare(sq, board.board[sq]) + optionNote(sq); },
    describe: describeSquare,
    label: t('game.board'),
  });
  const boardFrame = h('div', { class: 'board-frame' }, board.svg);
  const prompt = h('div', { class: 'prompt', 'aria-live': 'polite' });
  const live = h('div', { class: 'visually-hidden', 'aria-live': 'polite' });
  const players = h('div', { class: 'players-slot' });
  const actions = h('section', { class: 'panel actions', 'aria-label': t('game.actions') });
  const historyBox = h('section', { class: 'panel history-panel', 'aria-labelledby': 'history-title' });
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
  });
  root.append(head,
    h('div', { class: 'game-layout' },
      h('div', { class: 'board-col' }, banner, boardFrame, prompt, live),
      h('div', { class: 'side-col' }, players, actions, historyBox, chat.element)));
  main.append(root);

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
        newTurnState();
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
        newTurnState();
        renderAll();
      },
      onEvent(msg) {
        if (!game) return;
        const ev = msg.event;
        // The legal turns of the new version come in their own message, to the seat to move.
        game.legal = {};
        const wasOver = Boolean(game.result);
        applyEvent(game, msg.v, ev);
        if (['turn', 'resign', 'draw_agreed', 'started', 'seat_to_bot', 'seat_to_human', 'taken_back'].includes(ev.kind)) {
          newTurnState();
          live.textContent = narrate(t, ev);
        }
        const over = !wasOver && Boolean(game.result);
        renderAll(viewing === null && (ev.kind === 'turn' || ev.kind === 'resign') ? travels(ev) : []);
        // The end of the game is news: bring the result into view.
        if (over) banner.scrollIntoView({ behavior: 'smooth', block: 'start' });
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
          newTurnState();
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
            if (e && (e.code === 'not_found' || e.code === 'bad_request')) {
              fatal = t('game.not_found');
              if (socket) socket.close();
              renderAll();
            }
          });
        }
        chat.setOnline(s === 'online');
        renderHead();
        renderPrompt();
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
          fatal = t('errors.replaced');
          if (socket) socket.close();
          renderAll();
        } else if (msg.code === 'not_found') {
          fatal = t('game.not_found');
          if (socket) socket.close();
          renderAll();
        } else {
          toast(errorText(msg), 'error');
        }
      },
      onReconnected() {
        // Missed events and chat came with the hello (`since`, `chat_since`): redraw.
        renderAll();
      },
    });
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
    renderBoard();
    renderHistory();
  }

  function newTurnState() {
    sending = false;
    info = '';
    picker = P.createPicker(myTurn() ? game.legal : {});
  }

  // ---- entering a turn ----

  /** @param {string} sq @param {boolean} [keyboard] */
  function clickSquare(sq, keyboard = false) {
    if (!game) return;
    if (viewing === null && myTurn() && !sending && status === 'online') {
      // Keyboard players confirm a complete turn with Enter, as they chose it.
      if (keyboard && P.stage(picker).field === 'done') {
        send();
        return;
      }
      const next = P.click(picker, sq);
      if (next) {
        picker = next;
        info = '';
        afterPick();
        return;
      }
    }
    // A click that enters nothing says what stands there (the tooltip, for touch screens).
    info = describeSquare(sq, board.board[sq]);
    renderPrompt();
  }

  function takeBack() {
    if (viewing !== null) {
      viewing = null;
      renderAll();
      return;
    }
    if (!picker.path.length || sending) return;
    picker = P.back(picker);
    afterPick();
  }

  /** @param {string | null} value */
  function pickNone(value) {
    const next = P.choose(picker, value);
    if (next) {
      picker = next;
      afterPick();
    }
  }

  function afterPick() {
    const st = P.stage(picker);
    if (st.field === 'done' && !confirmTurns) {
      send();
      return;
    }
    renderBoard();
    renderPrompt();
  }

  async function send(text = P.stage(picker).turn) {
    if (!text || !socket || sending) return;
    sending = true;
    renderBoard();
    renderPrompt();
    try {
      await socket.command('move', { turn: text });
      // The turn event redraws everything; if it came first, nothing is left to do.
    } catch (e) {
      sending = false;
      picker = P.createPicker(myTurn() ? game.legal : {});
      toast(errorText(e), 'error');
      renderBoard();
      renderPrompt();
    }
  }

  /** @param {string} sq */
  function optionNote(sq) {
    const st = P.stage(picker);
    if (!myTurn() || viewing !== null) return '';
    if (st.field === 'from' && P.movableSquares(picker).includes(sq)) return ` — ${t('game.can_move')}`;
    if (st.options.includes(sq)) return ` — ${t(`game.can_choose_${st.field}`)}`;
    return '';
  }

  // ---- drawing ----

  /** @param {{from: string, to: string, flash?: boolean}[]} [animate] */
  function renderAll(animate = []) {
    if (fatal) {
      document.title = `${t('game.not_found')} — Djambi Online`;
      replace(root, h('section', { class: 'card narrow error-card', role: 'alert' },
        h('h1', { text: t('game.not_found') }),
        h('p', {}, h('a', { href: '/', class: 'btn btn-primary', text: t('notfound.back') }))));
      return;
    }
    for (const panel of [actions, historyBox, chat.element]) panel.hidden = !game;
    renderHead();
    renderBanner();
    renderBoard(animate);
    renderPrompt();
    renderPlayers();
    renderActions();
    renderHistory();
  }

  function renderHead() {
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
    if (game) {
      const prefix = myTurn() ? `● ${t('game.your_turn')} — ` : '';
      document.title = `${prefix}${t('game.title')} — Djambi Online`;
    } else {
      document.title = `${t('game.title')} — Djambi Online`;
    }
  }

  function renderBanner() {
    if (fatal) {
      replace(banner, h('div', { class: 'card error-card', role: 'alert' }, h('p', { text: fatal }), h('a', { href: '/', class: 'btn', text: t('notfound.back') })));
      return;
    }
    if (!game) {
      replace(banner, h('div', { class: 'turn-banner', text: t('common.loading') }));
      return;
    }
    const parts = [];
    if (game.status === 'cancelled') {
      parts.push(h('div', { class: 'card game-over cancelled', role: 'status' },
        h('h2', { text: t(game.cancelled === 'creator' ? 'game.cancelled_creator' : 'game.cancelled_expired') }),
        h('a', { class: 'btn btn-primary', href: '/', text: t('game.new_game') })));
    } else if (game.result) {
      parts.push(gameOverCard(game, me(), [
        h('a', { class: 'btn btn-primary', href: `/game/${id}/replay`, text: t('game.replay') }),
        h('a', { class: 'btn', href: recordUrl(id), download: `djambi-${id}.json`, text: t('game.download') }),
        h('a', { class: 'btn btn-ghost', href: '/', text: t('game.new_game') }),
      ]));
    } else if (!started()) {
      const free = game.seats.filter((/** @type {any} */ s) => !s.claimed);
      // The creator's browser still has the invite links: offer them for the free seats.
      const invites = loadInvites(id).filter((i) => free.some((/** @type {any} */ s) => s.player === i.player));
      parts.push(h('div', { class: 'turn-banner waiting', role: 'status' },
        h('div', { class: 'turn-now' }, h('strong', { class: 'turn-title', text: t('game.waiting_players') })),
        h('div', { class: 'turn-next' },
          h('span', { class: 'muted', text: t('game.free_seats', { n: free.length }) }),
          ...free.map((/** @type {any} */ s) => armySwatch(s.player, 14))),
        game.open ? h('p', { class: 'muted small', text: t('game.open_hint') }) : null,
        invites.length ? h('ul', { class: 'waiting-invites' }, ...invites.map((i) => h('li', {},
          armySwatch(i.player, 14), h('span', { text: t(`player.${i.player}`) }),
          h('button', {
            type: 'button', class: 'btn btn-small copy-invite', dataset: { player: i.player },
            onclick: async () => toast((await copyText(i.invite_url)) ? t('common.copied') : t('common.copy_failed')),
          }, t('game.copy_invite'))))) : null));
    } else {
      parts.push(turnBanner(game, me()));
    }
    const offer = game.draw_offer;
    if (offer && !game.result) {
      const m = me();
      const accepted = Array.isArray(offer.accepted) ? offer.accepted : [offer.by];
      const canAnswer = m && isAlive(game, m) && !accepted.includes(m);
      parts.push(h('div', { class: 'draw-offer', role: 'status' },
        h('span', { text: offer.by === m ? t('game.you_offered') : t('game.draw_offered_by', { who: who(game, offer.by) }) }),
        canAnswer ? h('span', { class: 'draw-actions' },
          h('button', { type: 'button', class: 'btn btn-small btn-primary accept-draw', text: t('game.accept'), onclick: () => command('accept_draw') }),
          h('button', { type: 'button', class: 'btn btn-small decline-draw', text: t('game.decline'), onclick: () => command('decline_draw') })) : null));
    }
    replace(banner, ...parts);
  }

  function renderBoard(animate = /** @type {{from: string, to: string, flash?: boolean}[]} */ ([])) {
    if (!game) return;
    boardFrame.classList.toggle('viewing', viewing !== null);
    boardFrame.classList.toggle('my-turn', myTurn() && viewing === null);
    if (viewing !== null) {
      const ev = viewing >= 0 ? game.events[viewing] : null;
      const pos = parseDpn(ev ? ev.dpn : game.start);
      board.draw(pos.board, { last: ev ? touchedSquares(ev) : [], dim: orphanedArmies(pos), hostage: hostageArmy(pos) }, []);
      return;
    }
    const pos = parseDpn(game.dpn);
    const all = positions(game);
    const lastEv = all.length ? all[all.length - 1].event : null;
    /** @type {import('./board.js').Marks} */
    const marks = { last: touchedSquares(lastEv), dim: orphanedArmies(pos), hostage: hostageArmy(pos) };
    let shown = pos.board;
    if (myTurn()) {
      const st = P.stage(picker);
      const from = P.chosen(picker, 'from');
      const to = P.chosen(picker, 'to');
      if (st.field === 'from') {
        marks.movable = P.movableSquares(picker);
      } else if (from) {
        if (st.field !== 'done') marks.selected = from;
        if (st.field === 'done' && st.parts) {
          shown = previewBoard(pos.board, st.parts);
          marks.changed = [...new Set([st.parts.from, st.parts.to, st.parts.victim, st.parts.exit, st.parts.place].filter((x) => x !== null))]
            .map(String);
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

  function renderPrompt() {
    renderPromptRow();
    if (info) prompt.append(h('p', { class: 'square-info', text: info }));
  }

  function renderPromptRow() {
    if (!game) {
      replace(prompt);
      return;
    }
    const m = me();
    if (viewing !== null) {
      const ev = viewing >= 0 ? game.events[viewing] : null;
      replace(prompt, h('div', { class: 'prompt-row viewing' },
        h('span', { text: ev ? t('game.viewing_after', { n: ev.kind === 'turn' ? ev.number : '·' }) : t('game.viewing_start') }),
        h('button', { type: 'button', class: 'btn btn-small btn-primary back-live', text: t('game.back_live'), onclick: () => { viewing = null; renderAll(); } })));
      return;
    }
    if (game.result) {
      replace(prompt);
      return;
    }
    if (status !== 'online') {
      replace(prompt, h('div', { class: 'prompt-row offline' }, h('span', { text: t('game.offline_prompt') })));
      return;
    }
    if (!myTurn()) {
      let text;
      if (!started()) text = t('game.waiting_players_help');
      else if (m && !isAlive(game, m)) text = t('game.you_are_out');
      else if (game.to_move) text = t(m ? 'game.waiting_for' : 'game.watching_turn', { who: who(game, game.to_move) });
      else text = '';
      replace(prompt, h('div', { class: 'prompt-row' }, h('span', { text })));
      return;
    }
    if (sending) {
      replace(prompt, h('div', { class: 'prompt-row' }, h('span', { text: t('game.sending') })));
      return;
    }
    replace(prompt, turnPrompt(picker, parseDpn(game.dpn).board, {
      send: (turn) => send(turn), none: () => pickNone(null), back: () => takeBack(),
    }));
  }

  function renderPlayers() {
    if (!game) return;
    replace(players, playersPanel(game, me()));
  }

  function renderActions() {
    if (!game) {
      replace(actions);
      return;
    }
    const m = me();
    const alive = m !== null && isAlive(game, m);
    const online = status === 'online';
    const offerPending = Boolean(game.draw_offer);
    replace(actions,
      alive ? h('div', { class: 'action-row' },
        h('button', { type: 'button', class: 'btn btn-danger resign', disabled: !online, text: t('game.resign'), onclick: resign }),
        h('button', { type: 'button', class: 'btn offer-draw', disabled: !online || offerPending, text: t('game.offer_draw'), onclick: () => command('offer_draw') })) : null,
      m && !game.result ? h('label', { class: 'check small' },
        h('input', {
          type: 'checkbox', checked: confirmTurns, class: 'confirm-toggle',
          onchange: (/** @type {Event} */ e) => {
            confirmTurns = /** @type {HTMLInputElement} */ (e.target).checked;
            try { localStorage.setItem(CONFIRM_KEY, confirmTurns ? '1' : '0'); } catch { /* ignore */ }
          },
        }),
        h('span', { text: t('game.confirm_turns') })) : null,
      h('p', { class: 'muted small rules-line', text: rulesSummary(game.rules) }),
      h('div', { class: 'action-row links' },
        h('a', { class: 'btn btn-ghost btn-small', href: `/game/${id}/replay`, text: t('game.replay') }),
        h('a', { class: 'btn btn-ghost btn-small', href: recordUrl(id), download: `djambi-${id}.json`, text: t('game.download') }),
        h('button', {
          type: 'button', class: 'btn btn-ghost btn-small', text: t('game.copy_watch_link'),
          onclick: async () => toast((await copyText(`${location.origin}/game/${id}`)) ? t('common.copied') : t('common.copy_failed')),
        })));
  }

  function renderHistory() {
    if (!game) return;
    if (!game.historyLoaded) {
      // Without the events, list the turns as text (no positions to show, no sentences).
      replace(historyBox,
        h('div', { class: 'panel-head' }, h('h2', { id: 'history-title', class: 'panel-title', text: t('game.turns') })),
        historyUnavailable
          ? h('div', { class: 'history-scroll' }, h('ol', { class: 'history plain' }, ...game.turns.map((/** @type {any} */ x) =>
            h('li', { class: 'history-row' }, h('span', { class: 'num', text: String(x.number) }), ' ', armySwatch(x.player, 12), ' ', h('code', { class: 'notation', text: x.turn })))))
          : h('p', { class: 'muted', text: t('common.loading') }));
      return;
    }
    const all = positions(game);
    const lastIndex = all.length ? all[all.length - 1].index : -1;
    const selected = viewing === null ? lastIndex : viewing;
    const list = historyList({
      events: game.events, selected, live: viewing === null,
      onSelect: (i) => {
        viewing = i === lastIndex ? null : i;
        renderBoard();
        renderPrompt();
        renderHistory();
      },
    });
    const step = (/** @type {number} */ d) => {
      const idx = [-1, ...all.map((e) => e.index)];
      const k = idx.indexOf(selected);
      const next = idx[Math.min(idx.length - 1, Math.max(0, k + d))];
      viewing = next === lastIndex ? null : next;
      renderBoard();
      renderPrompt();
      renderHistory();
    };
    const scroller = h('div', { class: 'history-scroll' }, list);
    replace(historyBox,
      h('div', { class: 'panel-head' },
        h('h2', { id: 'history-title', class: 'panel-title', text: t('game.turns') }),
        h('span', { class: 'step-buttons' },
          h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': t('replay.prev'), title: t('replay.prev'), onclick: () => step(-1) }, icon('prev')),
          h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': t('replay.next'), title: t('replay.next'), onclick: () => step(1) }, icon('next')))),
      scroller);
    requestAnimationFrame(() => scrollToCurrent(list));
  }

  /** @param {string} type */
  async function command(type) {
    if (!socket) return;
    try {
      await socket.command(type);
    } catch (e) {
      if (/** @type {any} */ (e).code === 'no_draw_offer' && game) {
        game.draw_offer = null;
        renderBanner();
        renderActions();
      }
      toast(errorText(e), 'error');
    }
  }

  async function resign() {
    const ok = await confirmDialog({
      title: t('game.resign_title'), body: t('game.resign_body'), ok: t('game.resign_ok'), cancel: t('common.cancel'), danger: true,
    });
    if (ok) command('resign');
  }

  renderAll();
  if (invite && seat) {
    // A fresh invite link: take the seat under a name first (the game starts when all are taken).
    root.hidden = true;
    showClaim(main, id, seat, (claimed) => {
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
      if (socket) socket.close();
      socket = null;
    },
    relabel() {
      board.svg.setAttribute('aria-label', t('game.board'));
      chat.render();
      renderAll();
    },
  };
}
