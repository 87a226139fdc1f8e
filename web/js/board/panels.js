// The game page's information panels: whose turn it is and the turns to come, the players (who
// rules, who controls which army, who is connected, who is out) and the game-over ranking.

import { h } from '../dom.js';
import { t, listOf } from '../i18n.js';
import { armySwatch, eyeIcon } from './pieces.js';
import { ARMIES, MAZE, ROLE_NAMES } from './dpn.js';
import { pieceName } from './narrate.js';
import { armiesOf, comingTurns, controllerOf, rulerOf } from './model.js';
import { icon } from './icons.js';

const CROWN = '♛';

/**
 * Describes a square for tooltips, taps and screen readers: what stands there and what it does.
 * @param {string} sq @param {any} cell
 */
export function describeSquare(sq, cell) {
  if (!cell) return sq === MAZE ? t('pieces.maze_empty') : t('pieces.empty', { sq });
  if ('corpse' in cell) return t('pieces.corpse', { sq });
  const role = ROLE_NAMES[/** @type {keyof typeof ROLE_NAMES} */ (cell.role)];
  return t('pieces.tooltip', { sq, piece: pieceName(t, { army: cell.army, role }), help: t(`role_help.${role}`) });
}

/**
 * The ruleset in force, in one line (R12.6): "Standard rules" or the options that differ.
 * @param {{own_kills?: boolean, diplomat_to_maze?: boolean, turn_limit?: number | null} | undefined} rules
 */
export function rulesSummary(rules) {
  const r = rules || {};
  const parts = [];
  if (r.own_kills) parts.push(t('lobby.own_kills'));
  if (r.diplomat_to_maze === false) parts.push(t('game.no_diplomat_to_maze'));
  if (r.turn_limit) parts.push(t('game.turn_limit', { n: r.turn_limit }));
  return parts.length ? t('game.rules_with', { list: parts.join(' · ') }) : t('game.rules_standard');
}

/**
 * The armies nobody controls in a position (R9.4): drawn faded.
 * @param {import('./dpn.js').Position} pos
 */
export function orphanedArmies(pos) {
  return ARMIES.filter((a) => pos.control[a] === null);
}

/**
 * The hostage army of a 3-player game (R11), or null.
 * @param {import('./dpn.js').Position} pos
 */
export function hostageArmy(pos) {
  return ARMIES.find((a) => pos.control[a] === 'h') || null;
}

/**
 * A player for sentences: "Red (Ann)", "Red (bot)" for a bot's seat without a name, or "Red".
 * @param {any} g @param {string} player
 */
export function who(g, player) {
  const s = g.seats.find((/** @type {any} */ x) => x.player === player);
  if (s && s.name) return `${t(`player.${player}`)} (${s.name})`;
  if (s && s.bot) return `${t(`player.${player}`)} (${t('game.bot_short')})`;
  return t(`player.${player}`);
}

/**
 * A bot level for people ("easy", "facile"…).
 * @param {string} level
 */
export function botLevelName(level) {
  const key = `game.bot_levels.${level}`;
  const name = t(key);
  return name === key ? level : name;
}

/**
 * A coloured chip naming a player: swatch, colour and name.
 * @param {any} g @param {string} player @param {{you?: boolean}} [o]
 */
export function playerChip(g, player, o = {}) {
  const seat = g.seats.find((/** @type {any} */ x) => x.player === player);
  const name = seat && seat.name ? seat.name : null;
  return h('span', { class: `chip army-${player}` },
    armySwatch(player, 14),
    h('span', { class: 'chip-colour', text: t(`player.${player}`) }),
    name ? h('span', { class: 'chip-name', text: name }) : null,
    o.you ? h('span', { class: 'chip-you', text: t('game.you_short') }) : null);
}

/**
 * The banner above the board: whose turn, bonus turns, the turns to come.
 * @param {any} g @param {string | null} me
 * @param {Node | null} [extra]  shown beside whose turn it is (the game page's clock)
 */
export function turnBanner(g, me, extra = null) {
  const ruler = rulerOf(g);
  if (g.result) return h('div', { class: 'turn-banner over' });
  const toMove = g.to_move;
  const mine = me !== null && toMove === me;
  const coming = comingTurns(g).slice(1, 9);
  return h('div', { class: ['turn-banner', mine ? 'mine' : '', toMove ? `army-${toMove}` : ''], role: 'status' },
    h('div', { class: 'turn-now' },
      toMove ? armySwatch(toMove, 22) : null,
      h('strong', { class: 'turn-title', text: mine ? t('game.your_turn') : toMove ? t('game.to_move', { who: who(g, toMove) }) : '' }),
      g.bonus > 0 ? h('span', { class: 'tag tag-bonus', text: `${CROWN} ${t('game.bonus_turn')}` }) : null,
      extra),
    h('div', { class: 'turn-next' },
      h('span', { class: 'muted', text: t('game.next') }),
      h('ol', { class: 'order', 'aria-label': t('game.order') },
        ...coming.map((c) => h('li', {
          class: ['order-chip', `army-${c.player}`, c.bonus ? 'bonus' : ''],
          title: c.bonus ? t('game.bonus_of', { player: t(`player.${c.player}`) }) : t(`player.${c.player}`),
        }, armySwatch(c.player, 12), c.bonus ? h('span', { class: 'crown', 'aria-hidden': 'true', text: CROWN }) : null,
        h('span', { class: 'visually-hidden', text: c.bonus ? t('game.bonus_of', { player: t(`player.${c.player}`) }) : t(`player.${c.player}`) })))),
      h('span', { class: 'ruler' },
        ruler ? [h('span', { class: 'crown', 'aria-hidden': 'true', text: CROWN }), t('game.ruler', { player: t(`player.${ruler}`) })] : t('game.no_ruler'))));
}

/**
 * The players panel. A seat played by a bot says so, with the bot's level.
 * @param {any} g @param {string | null} me
 * @param {{online?: boolean, extra?: (seat: any) => (Node | null)}} [o]  `online: false` while the
 *   viewer's own connection is down, so nobody's connection is known (the dots go grey);
 *   `extra` adds to a seat's row (the game page's clocks and absences)
 */
export function playersPanel(g, me, o = {}) {
  const online = o.online !== false;
  const ruler = rulerOf(g);
  const rankOf = (/** @type {string} */ p) => {
    let rank = 1;
    for (const group of g.ranking || []) {
      if (group.includes(p)) return rank;
      rank += group.length;
    }
    return null;
  };
  const rows = g.seats.map((/** @type {any} */ s) => {
    const alive = s.alive !== false;
    const controls = armiesOf(g, s.player).filter((a) => a !== s.player);
    const rank = g.result ? rankOf(s.player) : null;
    const bot = s.bot ? botLevelName(s.bot) : null;
    const connText = bot ? t('game.played_by_bot', { level: bot })
      : !online ? t('game.conn_unknown') : s.connected ? t('game.connected') : t('game.not_connected');
    const name = s.name || (bot ? t('game.bot_name', { level: bot }) : s.claimed ? t(`player.${s.player}`) : t('game.free_seat'));
    return h('li', {
      class: ['player', `army-${s.player}`, alive ? 'alive' : 'out', s.player === me ? 'me' : '', bot ? 'bot' : ''],
      dataset: s.bot ? { player: s.player, bot: s.bot } : { player: s.player },
    },
      bot ? h('span', { class: 'conn bot', title: connText, role: 'img', 'aria-label': connText }, icon('bot', 14))
        : h('span', {
          class: ['conn', !online ? 'unknown' : s.connected ? 'on' : 'off'],
          title: connText, role: 'img', 'aria-label': connText,
        }),
      armySwatch(s.player, 18),
      h('span', { class: 'player-name' },
        h('strong', { text: name }),
        h('small', { class: 'muted', text: t(`player.${s.player}`) + (s.player === me ? ` · ${t('game.you_short')}` : '') })),
      h('span', { class: 'player-state' },
        // A bot's own seat is named after it ("Bot (easy)"); a person's seat says who plays it now.
        bot && s.name ? h('span', { class: 'tag tag-bot', text: t('game.bot_plays', { level: bot }) }) : null,
        o.extra ? o.extra(s) : null,
        ruler === s.player ? h('span', { class: 'tag tag-ruler', text: `${CROWN} ${t('game.ruler_tag')}` }) : null,
        !alive ? h('span', { class: 'tag tag-out', text: t('game.eliminated') }) : null,
        rank !== null ? h('span', { class: 'tag tag-rank', text: t('game.rank', { n: rank }) }) : null,
        controls.length ? h('span', { class: 'controls', title: t('game.controls', { armies: listOf(t, controls.map((a) => t(`player.${a}`))) }) },
          h('span', { class: 'muted', text: '+' }), ...controls.map((a) => armySwatch(a, 14)),
          h('span', { class: 'visually-hidden', text: t('game.controls', { armies: listOf(t, controls.map((a) => t(`player.${a}`))) }) })) : null));
  });
  // Armies without a seat: the hostage, or armies whose player is out and nobody controls.
  const extra = ARMIES.filter((a) => !g.seats.some((/** @type {any} */ s) => s.player === a)).map((a) => {
    const c = controllerOf(g, a);
    const text = c === 'h' ? t('game.hostage') : c ? t('game.controlled_by', { player: t(`player.${c}`) }) : t('game.orphaned');
    return h('li', { class: ['player', 'hostage', `army-${a}`] },
      h('span', { class: 'conn none' }), armySwatch(a, 18),
      h('span', { class: 'player-name' }, h('strong', { text: t(`player.${a}`) }), h('small', { class: 'muted', text })));
  });
  const orphans = g.result ? [] : ARMIES.filter((a) => g.seats.some((/** @type {any} */ s) => s.player === a) && controllerOf(g, a) === null);
  return h('section', { class: 'panel players', 'aria-labelledby': 'players-title' },
    h('div', { class: 'panel-head' },
      h('h2', { id: 'players-title', class: 'panel-title', text: t('game.players') }),
      h('span', { class: 'spectator-count', title: t('game.spectators') }, eyeIcon(15), ' ', t('game.watching', { n: g.spectators || 0 }))),
    h('ul', { class: 'player-list' }, ...rows, ...extra),
    orphans.length ? h('p', { class: 'muted small', text: t('game.orphaned_armies', { armies: listOf(t, orphans.map((a) => t(`player.${a}`))) }) }) : null);
}

/**
 * The game-over card: the result and the ranking.
 * @param {any} g @param {string | null} me
 * @param {HTMLElement[]} actions
 */
export function gameOverCard(g, me, actions) {
  const r = g.result;
  let title = t('game.over');
  if (r && r.winner) title = r.winner === me ? t('game.you_win') : t('game.wins', { who: who(g, r.winner) });
  else if (r && r.draw) title = t('game.drawn', { players: listOf(t, r.draw.map((/** @type {string} */ p) => t(`player.${p}`))) });
  let rank = 1;
  const groups = (g.ranking || []).map((/** @type {string[]} */ group) => {
    const li = h('li', { class: 'rank-row' },
      h('span', { class: `rank-num rank-${rank}`, text: String(rank) }),
      ...group.map((p) => playerChip(g, p, { you: p === me })));
    rank += group.length;
    return li;
  });
  return h('section', { class: 'game-over', 'aria-labelledby': 'over-title', role: 'status' },
    h('h2', { id: 'over-title', text: title }),
    h('ol', { class: 'ranking', 'aria-label': t('game.ranking') }, ...groups),
    h('div', { class: 'over-actions' }, ...actions));
}
