// Plain sentences for game events, built from the core's effects (PROTOCOL §3.5), e.g.
// "Red's Assassin kills Blue's Chief in the maze and leaves to e6 — Blue is eliminated and Blue's
// army passes to Red". Pure: takes the translate function, so it runs under Node too.

import { capitalize, listOf } from '../i18n.js';
import { MAZE } from './dpn.js';

/** @typedef {import('../i18n.js').Translate} Translate */
/** @typedef {{army: string, role: string}} EffectPiece */

/**
 * "Red's Assassin" / "l'Assassin rouge" / "l'Assassino rosso".
 * @param {Translate} t
 * @param {EffectPiece} p
 */
export function pieceName(t, p) {
  return t('narr.piece', {
    player: t(`player.${p.army}`),
    adj: t(`adj_piece.${p.army}`),
    role: t(`role.${p.role}`),
    role_the: t(`role_the.${p.role}`),
  });
}

/**
 * "Blue's army" / "the Blue and Green armies".
 * @param {Translate} t
 * @param {string[]} armies
 */
export function armiesName(t, armies) {
  if (armies.length === 1) {
    const a = armies[0];
    return t('narr.army_one', { player: t(`player.${a}`), adj: t(`adj_army.${a}`) });
  }
  return t('narr.army_many', { list: listOf(t, armies.map((a) => t(`adj_army.${a}`))) });
}

/** @param {Translate} t @param {string} sq */
function where(t, sq) {
  return sq === MAZE ? t('narr.in_maze') : t('narr.on', { sq });
}

/**
 * The main clause of a turn: what the moving piece did.
 * @param {Translate} t
 * @param {any[]} fx
 * @param {Set<any>} used  effects the clause tells, so consequences skip them
 * @param {string | undefined} player  who played the turn (its event's `player`)
 */
function mainClause(t, fx, used, player) {
  const find = (/** @type {string} */ type) => fx.find((e) => e.type === type);
  const passed = find('passed');
  if (passed) {
    used.add(passed);
    return t('narr.pass', { player: t(`player.${passed.player}`) });
  }
  const moved = find('moved');
  if (!moved) return '';
  used.add(moved);
  const killed = find('killed');
  const exited = find('exited_maze');
  const displaced = find('displaced');
  const corpse = find('corpse_moved');
  for (const e of [killed, exited, displaced, corpse]) if (e) used.add(e);
  const p = {
    piece: pieceName(t, moved.piece),
    from: moved.from,
    to: moved.to,
    exit: exited ? exited.to : '',
    victim: killed ? pieceName(t, killed.piece) : displaced ? pieceName(t, displaced.piece) : '',
    where: killed ? where(t, killed.at) : '',
    place: displaced ? displaced.to : corpse ? corpse.to : '',
  };
  // A piece of an army its player controls (a dead player's army, taken: R9) is moved by that
  // player: "Yellow moves Blue's Reporter…", never as if Blue had played.
  const by = player && player !== moved.piece.army ? 'narr.by.' : 'narr.';
  const say = (/** @type {string} */ key) => t(by + key, { ...p, player: by === 'narr.' ? '' : t(`player.${player}`) });
  switch (moved.piece.role) {
    case 'Chief':
    case 'Militant':
      if (killed) return say('kill_bury');
      if (moved.to === MAZE) return say('enter_maze');
      break;
    case 'Assassin':
      if (killed && exited) return say('assassin_maze');
      if (killed) return say('assassin');
      break;
    case 'Reporter':
      if (killed) return say('reporter');
      break;
    case 'Diplomat':
      if (displaced && exited) return say('diplomat_maze');
      if (displaced && displaced.to === MAZE) return say('diplomat_to_maze');
      if (displaced) return say('diplomat');
      break;
    case 'Necromobile':
      if (corpse && exited) return say('necromobile_maze');
      if (corpse) return say('necromobile');
      break;
  }
  return say('move');
}

/**
 * The consequences of a turn or resignation: power, eliminations, control, the end of the game.
 * @param {Translate} t
 * @param {any[]} fx
 * @param {Set<any>} used
 * @param {string | null} resigned  the player who resigned, if this is a resignation
 * @param {Set<string> | null} present  the armies with a piece on the board after it, if known
 */
function consequences(t, fx, used, resigned, present) {
  // Armies with no piece left on the board (a lesson's position without them) are not named.
  const shown = (/** @type {string[]} */ armies) => (present ? armies.filter((a) => present.has(a)) : armies);
  const eliminated = new Set(fx.filter((e) => e.type === 'eliminated').map((e) => e.player));
  const out = [];
  for (const e of fx) {
    if (used.has(e)) continue;
    const player = 'player' in e ? t(`player.${e.player}`) : '';
    switch (e.type) {
      case 'took_power':
        out.push(t('narr.took_power', { player }));
        break;
      case 'lost_power':
        if (!eliminated.has(e.player)) out.push(t('narr.lost_power', { player }));
        break;
      case 'eliminated':
        if (e.player !== resigned) out.push(t('narr.eliminated', { player }));
        break;
      case 'encircled':
        out.push(t('narr.encircled', { player, adj: t(`adj_piece.${e.player}`), sq: e.at }));
        break;
      case 'took_control': {
        const armies = shown(e.armies);
        if (armies.length) out.push(t('narr.took_control', { player, armies: armiesName(t, armies) }));
        break;
      }
      case 'orphaned': {
        const armies = shown(e.armies);
        if (armies.length) {
          out.push(t(armies.length === 1 ? 'narr.orphaned_one' : 'narr.orphaned_many', { armies: armiesName(t, armies) }));
        }
        break;
      }
      case 'game_over': {
        const o = e.outcome;
        if (o && typeof o === 'object' && 'winner' in o) {
          out.push(t('narr.wins', { player: t(`player.${o.winner}`) }));
        } else if (o && typeof o === 'object' && 'draw' in o) {
          out.push(t('narr.drawn', { players: listOf(t, o.draw.map((/** @type {string} */ a) => t(`player.${a}`))) }));
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/**
 * One sentence for an event of the game (PROTOCOL §3.5).
 * @param {Translate} t
 * @param {any} event
 * @param {{board?: Record<string, any>}} [o]  the board after it, when known: armies without a
 *   piece on it are not named as taken or orphaned (a lesson's position has no Yellow or Green
 *   pieces, yet the core hands their empty armies to a Chief that takes the maze)
 * @returns {string}
 */
export function narrate(t, event, o = {}) {
  const fx = Array.isArray(event.effects) ? event.effects : [];
  const used = new Set();
  let main = '';
  let resigned = null;
  switch (event.kind) {
    case 'turn':
      main = mainClause(t, fx, used, event.player);
      if (!main && event.turn === 'pass') main = t('narr.pass', { player: t(`player.${event.player}`) });
      break;
    case 'resign':
      resigned = event.player;
      for (const e of fx) if (e.type === 'resigned') used.add(e);
      main = t('narr.resign', { player: t(`player.${event.player}`) });
      break;
    case 'draw_offered':
      return capitalize(t('narr.draw_offered', { player: t(`player.${event.by}`) }));
    case 'draw_declined':
      return capitalize(t('narr.draw_declined', { player: t(`player.${event.by}`) }));
    case 'draw_accepted':
      return capitalize(t('narr.draw_accepted', { player: t(`player.${event.by}`) }));
    case 'draw_agreed': {
      const players = event.result && Array.isArray(event.result.draw) ? event.result.draw : [];
      return capitalize(t('narr.draw_agreed', { players: listOf(t, players.map((/** @type {string} */ a) => t(`player.${a}`))) }));
    }
    default:
      return lifeEvent(t, event);
  }
  const present = o.board
    ? new Set(Object.values(o.board).filter((c) => c && !('corpse' in c)).map((c) => c.army))
    : null;
  const rest = consequences(t, fx, used, resigned, present);
  const sentence = rest.length ? `${main}${t('narr.dash')}${listOf(t, rest)}` : main;
  return capitalize(sentence);
}

/**
 * A sentence for the events of the game's life beyond the rules (PROTOCOL §6.6): the start, bots
 * taking and giving back seats, votes, takebacks, timeouts, pauses and cancellation.
 * @param {Translate} t
 * @param {any} event
 * @returns {string}
 */
function lifeEvent(t, event) {
  const player = (/** @type {string} */ p) => t(`player.${p}`);
  const level = (/** @type {string | null | undefined} */ l) => t(`game.bot_levels.${l || 'medium'}`);
  switch (event.kind) {
    case 'started':
      return t('game.ev_started');
    case 'seat_to_bot': {
      const reason = ['timeout', 'vote'].includes(event.reason) ? event.reason : 'creator';
      return capitalize(t(`game.ev_seat_to_bot_${reason}`, { player: player(event.player), level: level(event.level) }));
    }
    case 'seat_to_human':
      return capitalize(t('game.ev_seat_to_human', { player: player(event.player) }));
    case 'vote_opened':
      return capitalize(event.action === 'resign'
        ? t('vote.ev_opened_resign', { by: player(event.by), target: player(event.target) })
        : t('vote.ev_opened_bot', { by: player(event.by), target: player(event.target), level: level(event.level) }));
    case 'vote_cast':
      return capitalize(t(event.yes ? 'vote.ev_yes' : 'vote.ev_no', { player: player(event.by) }));
    case 'vote_closed':
      return t(event.passed ? 'vote.ev_passed' : 'vote.ev_failed');
    case 'takeback_requested':
      return capitalize(t('takeback.ev_requested', { player: player(event.by) }));
    case 'takeback_answered':
      return capitalize(t(event.yes ? 'takeback.ev_agreed' : 'takeback.ev_refused', { player: player(event.by) }));
    case 'taken_back':
      return capitalize(t('takeback.ev_done', { player: player(event.player) }));
    case 'timeout':
      return capitalize(t('clock.ev_timeout', { player: player(event.player) }));
    case 'paused': {
      const s = Math.max(0, Math.round((Number(event.until) - Number(event.from)) / 1000)) || 0;
      return s < 120 ? t('clock.ev_paused_s', { s }) : t('clock.ev_paused_min', { m: Math.round(s / 60) });
    }
    case 'cancelled':
      return t(event.reason === 'creator' ? 'game.cancelled_creator' : 'game.cancelled_expired');
    default:
      return String(event.kind || '');
  }
}
