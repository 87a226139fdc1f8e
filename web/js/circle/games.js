// A circle's games: those waiting for players and being played first, each with its seats (the
// members who took them, bots, guests), "Take a seat" for a member without one in a game that
// waits for players (no invite link to send), "Play" where this browser holds the seat; then the
// finished games with their places, "rated" or not, and links to the replay and its analysis.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { armySwatch } from '../board/pieces.js';
import { loadSeat } from '../shared/tokens.js';

/**
 * Whether `member` may take a seat in `g`: it waits for players, has a free seat, and the member
 * has none in it.
 * @param {any} g  a CircleGame
 * @param {string} member
 */
export function mayTakeSeat(g, member) {
  return g.status === 'open' && !g.seats.some((/** @type {any} */ s) => s.member === member)
    && g.seats.some((/** @type {any} */ s) => !s.claimed && !s.name);
}

/**
 * One seat as a line: the army, who plays it, and (once over) its place and how it ended.
 * @param {any} g @param {any} s @param {Map<string, any>} members
 */
function seatLine(g, s, members) {
  const m = s.member ? members.get(s.member) : null;
  /** @type {(Node | string)[]} */
  const who = [];
  if (s.bot) who.push(t('circle.seat_bot', { level: t(`create.level_${s.bot}`) }));
  else if (s.name) who.push(h('span', { class: 'seat-name', text: s.name }));
  else who.push(h('span', { class: 'muted', text: t('circle.seat_free') }));
  if (s.member && m && m.status !== 'member') who.push(h('span', { class: 'tag tag-muted', text: t(`circle.status_${m.status}`) }));
  if (!s.member && !s.bot && s.name) who.push(h('span', { class: 'tag tag-muted', text: t('circle.guest') }));
  const place = g.places[s.player];
  return h('li', { class: ['circle-seat', s.end && `end-${s.end}`], dataset: { player: s.player } },
    armySwatch(s.player, 12), ' ', ...who,
    place ? h('span', { class: 'place', text: ` · ${t('circle.place', { n: place })}${s.end ? ` (${t(`circle.end_${s.end}`)})` : ''}` }) : null);
}

/**
 * The list.
 * @param {any} view  the CircleView
 * @param {{onTake: (id: string) => void, busy: string | null}} o
 * @returns {HTMLElement}
 */
export function gamesList(view, { onTake, busy }) {
  if (!view.games.length) return h('p', { class: 'muted', text: t('circle.games_none') });
  const members = new Map(view.members.map((/** @type {any} */ m) => [m.id, m]));
  const order = ['open', 'live', 'finished', 'cancelled'];
  const games = [...view.games].sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status));
  return h('ul', { class: 'circle-games' }, ...games.map((/** @type {any} */ g) => {
    const seat = loadSeat(g.id);
    const actions = [];
    if (seat && (g.status === 'open' || g.status === 'live')) {
      actions.push(h('a', { class: 'btn btn-primary btn-small', href: `/game/${g.id}`, text: t('circle.play') }));
    } else if (mayTakeSeat(g, view.you)) {
      actions.push(h('button', {
        type: 'button', class: 'btn btn-primary btn-small take-seat', disabled: busy === g.id,
        text: t('circle.take_seat'), onclick: () => onTake(g.id),
      }));
    }
    if (g.status === 'finished') {
      actions.push(h('a', { class: 'btn btn-small', href: `/game/${g.id}/replay`, text: t('circle.replay') }));
      actions.push(h('a', { class: 'btn btn-small btn-ghost', href: `/game/${g.id}/replay#analysis`, text: t('circle.analysis') }));
    } else if (g.status !== 'cancelled' && !seat) {
      actions.push(h('a', { class: 'btn btn-small btn-ghost', href: `/game/${g.id}`, text: t('circle.watch') }));
    }
    return h('li', { class: ['circle-game', `status-${g.status}`], dataset: { game: g.id } },
      h('div', { class: 'circle-game-head' },
        h('span', { class: 'game-kind', text: t(`circle.game_${g.status}`) }),
        g.status === 'finished' ? h('span', { class: ['tag', !g.rated && 'tag-muted'], text: g.rated ? t('circle.rated') : t('circle.unrated') }) : null,
        h('span', { class: 'muted small', text: t('circle.game_id', { id: g.id.slice(0, 8) }) })),
      h('ul', { class: 'circle-seats' }, ...g.seats.map((/** @type {any} */ s) => seatLine(g, s, members))),
      actions.length ? h('div', { class: 'game-actions' }, ...actions) : null);
  }));
}
