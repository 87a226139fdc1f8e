// "New game" on a circle's page: how many players, who plays each seat (a member of the circle,
// who takes it from this page, a guest with an invite link, or a bot of some level) and the
// clock; then the game is the circle's (POST /api/games with the member's key), its members may
// be told by a push, and this browser takes a seat in it if "I play" is ticked.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { BOT_LEVELS } from '../shared/gameopts.js';
import { armySwatch } from '../board/pieces.js';

/** The clocks offered: none, live presets, a day per turn. */
export const CLOCKS = [
  { key: 'none', clock: null },
  { key: 'live_5', clock: { initial_s: 300, increment_s: 3 } },
  { key: 'live_15', clock: { initial_s: 900, increment_s: 10 } },
  { key: 'day', clock: { per_turn_s: 86400 } },
];

/**
 * The body of `POST /api/games` for these choices (the circle's key added by the caller).
 * @param {{players: number, seats: Record<string, string>, clock: string}} o
 *   seats: army → 'person' or a bot level
 */
export function circleGameBody({ players, seats, clock }) {
  const armies = players === 3 ? ['r', 'b', 'y'] : ['r', 'b', 'y', 'g'];
  /** @type {Record<string, string>} */
  const bots = {};
  for (const a of armies) if (seats[a] && seats[a] !== 'person') bots[a] = seats[a];
  /** @type {Record<string, any>} */
  const body = { players };
  if (players === 3) body.hostage = 'g';
  if (Object.keys(bots).length) body.bots = bots;
  const c = CLOCKS.find((x) => x.key === clock);
  if (c && c.clock) body.clock = c.clock;
  return body;
}

/**
 * The card.
 * @param {{onCreate: (body: Record<string, any>, play: boolean) => Promise<void>}} o
 * @returns {{el: HTMLElement, relabel: () => void}}
 */
export function createCard({ onCreate }) {
  let players = 4;
  /** @type {Record<string, string>} */
  const seats = { r: 'person', b: 'person', y: 'person', g: 'person' };
  let clock = 'none';
  let play = true;
  let busy = false;
  const el = h('section', { class: 'card circle-create', 'aria-labelledby': 'circle-create-title' });

  function render() {
    const armies = players === 3 ? ['r', 'b', 'y'] : ['r', 'b', 'y', 'g'];
    el.replaceChildren(
      h('h2', { id: 'circle-create-title', text: t('circle.new_game') }),
      h('form', {
        class: 'circle-create-form',
        onsubmit: async (/** @type {Event} */ e) => {
          e.preventDefault();
          if (busy) return;
          busy = true;
          render();
          try {
            await onCreate(circleGameBody({ players, seats, clock }), play);
          } finally {
            busy = false;
            if (el.isConnected) render();
          }
        },
      },
      h('label', { class: 'field' }, h('span', { text: t('circle.players') }),
        h('select', {
          class: 'circle-players',
          onchange: (/** @type {Event} */ e) => { players = Number(/** @type {HTMLSelectElement} */ (e.target).value); render(); },
        }, ...[4, 3].map((n) => h('option', { value: String(n), selected: n === players, text: t('circle.players_n', { n }) })))),
      h('fieldset', { class: 'circle-seat-choices' },
        h('legend', { text: t('circle.who_plays') }),
        ...armies.map((a) => h('label', { class: 'name-row' },
          armySwatch(a, 14),
          h('span', { class: 'visually-hidden', text: t(`player.${a}`) }),
          h('select', {
            class: 'circle-seat-choice', dataset: { player: a }, 'aria-label': t('circle.seat_of', { player: t(`player.${a}`) }),
            onchange: (/** @type {Event} */ e) => { seats[a] = /** @type {HTMLSelectElement} */ (e.target).value; },
          },
          h('option', { value: 'person', selected: seats[a] === 'person', text: t('circle.seat_person') }),
          ...BOT_LEVELS.map((l) => h('option', { value: l, selected: seats[a] === l, text: t('circle.seat_bot', { level: t(`create.level_${l}`) }) })))))),
      h('label', { class: 'field' }, h('span', { text: t('circle.clock') }),
        h('select', {
          class: 'circle-clock',
          onchange: (/** @type {Event} */ e) => { clock = /** @type {HTMLSelectElement} */ (e.target).value; },
        }, ...CLOCKS.map((c) => h('option', { value: c.key, selected: c.key === clock, text: t(`circle.clock_${c.key}`) })))),
      h('label', { class: 'check' },
        h('input', { type: 'checkbox', class: 'circle-i-play', checked: play, onchange: (/** @type {Event} */ e) => { play = /** @type {HTMLInputElement} */ (e.target).checked; } }),
        h('span', { text: t('circle.i_play') })),
      h('p', { class: 'muted small', text: t('circle.new_game_help') }),
      h('button', { type: 'submit', class: 'btn btn-primary create-circle-game', disabled: busy, text: busy ? t('circle.creating') : t('circle.create_game') })));
  }

  render();
  return { el, relabel: render };
}
