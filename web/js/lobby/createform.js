// The lobby's "New game" form: players, who plays each seat (a person, or a bot of a level), the
// bots' think time, the time control and what a timeout does, the ruleset options. It keeps its
// options while the page lives and hands `onSubmit` the `CreateGame` body (gameopts.js).

import { h, replace, toast } from '../dom.js';
import { language, t } from '../i18n.js';
import { armySwatch } from '../board/pieces.js';
import { keepFocus } from '../shared/focus.js';
import { fieldError } from '../errors.js';
import { clearInvalid, markInvalid } from '../shared/invalid.js';
import { ARMIES } from '../board/dpn.js';
import {
  BOT_LEVELS, CUSTOM_LIMITS, CUSTOM_LIVE, LIVE_PRESETS, MOVETIME_PRESETS, PER_TURN_PRESETS, SERVER_MOVETIME_MS,
  createBody, defaultOnTimeout, defaultOptions, liveKey, seatsOf,
} from '../shared/gameopts.js';

/**
 * A think time as people say it: "0.5 s", "1 s (default)".
 * @param {number} ms
 */
export function movetimeLabel(ms) {
  const text = t('create.seconds', { n: (ms / 1000).toLocaleString(language()) });
  return ms === SERVER_MOVETIME_MS ? t('create.default_choice', { what: text }) : text;
}

/**
 * A live preset as people say it: "10 min + 5 s".
 * @param {{initial_s: number, increment_s: number}} c
 */
export function liveLabel(c) {
  return t('create.live_preset', { min: c.initial_s / 60, inc: c.increment_s });
}

/**
 * A correspondence deadline as people say it: "1 hour", "3 days".
 * @param {number} s  seconds
 */
export function perTurnLabel(s) {
  if (s % 86_400 === 0) return s === 86_400 ? t('create.one_day') : t('create.n_days', { n: s / 86_400 });
  return s === 3600 ? t('create.one_hour') : t('create.n_hours', { n: s / 3600 });
}

/**
 * The form control (by its `name`) that a field of the request body is about, if the form has
 * one: `names.r` is the name of Red, `clock.per_turn_s` the deadline per turn.
 * @param {string} field  the path the server named
 * @param {string} time  the form's time control
 * @returns {string | null}
 */
export function controlOf(field, time) {
  const [head, tail] = field.split('.');
  if (head === 'names' && tail) return `name-${tail}`;
  if (head === 'bots' && tail) return `seat-${tail}`;
  if (head === 'clock') return tail === 'per_turn_s' || (!tail && time === 'correspondence') ? 'per_turn' : 'live';
  if (head === 'bot_movetime_ms') return 'bot_movetime';
  if (head === 'turn_limit' || (head === 'rules' && tail === 'turn_limit')) return 'turn_limit';
  if (head === 'hostage' || head === 'on_timeout') return head;
  return null;
}

/**
 * The create form.
 * @param {{onSubmit: (body: Record<string, any>) => Promise<void>}} o  called with the body; the
 *   form shows itself busy until it settles
 * @returns {{el: HTMLElement, relabel: () => void, showError: (e: any) => boolean}}
 */
export function createForm({ onSubmit }) {
  const form = defaultOptions();
  let busy = false;
  let rulesOpen = false;
  const el = h('section', { class: 'card create', 'aria-labelledby': 'create-title' });
  /** What the server said of a field (by control name), shown until the field changes. */
  /** @type {Record<string, string>} */
  const invalid = {};
  // Capture: the field's own handler may redraw the form, which must not bring the note back.
  for (const type of ['input', 'change']) {
    el.addEventListener(type, (e) => {
      const control = /** @type {HTMLElement} */ (e.target);
      const name = control.getAttribute && control.getAttribute('name');
      if (name && name in invalid) {
        delete invalid[name];
        clearInvalid(control);
      }
    }, true);
  }

  /** Redraws the form, keeping the focus on the field that had it. */
  function render() {
    keepFocus(el, () => replace(el,
      h('h2', { id: 'create-title', text: t('lobby.create_title') }),
      // The form checks its fields itself and says what is wrong next to each (novalidate).
      h('form', { novalidate: true, onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); submit(); } },
        playersField(), seatsField(), botFields(), timeField(), rulesField(),
        checkbox('open', t('lobby.open'), t('lobby.open_help')),
        checkbox('listed', t('lobby.listed'), t('lobby.listed_help')),
        checkbox('players_chat_public', t('lobby.players_chat_public'), t('lobby.players_chat_public_help')),
        checkbox('hints', t('lobby.hints'), t('lobby.hints_help')),
        h('button', { type: 'submit', class: 'btn btn-primary btn-wide', disabled: busy, text: busy ? t('lobby.creating') : t('lobby.create') }))));
    markFields();
  }

  /** Shows the server's reasons next to their fields (the form is drawn anew each time). */
  function markFields() {
    for (const [name, text] of Object.entries(invalid)) {
      const control = /** @type {HTMLElement | null} */ (el.querySelector(`[name="${name}"]`));
      if (!control) continue;
      markInvalid(control, text, /** @type {HTMLElement} */ (control.closest('.name-row, .field') || control));
    }
  }

  /**
   * A refused creation: its reason next to the field it names, and that field focused. False
   * when the reason names no field of the form (the caller says it otherwise).
   * @param {any} e
   */
  function showError(e) {
    const { field, text } = fieldError(e);
    const name = field && text ? controlOf(field, form.time) : null;
    const control = name ? /** @type {HTMLElement | null} */ (el.querySelector(`[name="${name}"]`)) : null;
    if (!name || !control) return false;
    invalid[name] = text;
    markFields();
    control.focus();
    return true;
  }

  /** @param {string} name @param {string} value @param {(v: string) => void} set @param {...HTMLOptionElement} options */
  function select(name, value, set, ...options) {
    for (const o of options) o.selected = o.value === value;
    return h('select', {
      name,
      onchange: (/** @type {Event} */ e) => { set(/** @type {HTMLSelectElement} */ (e.target).value); render(); },
    }, ...options);
  }

  function playersField() {
    return [
      h('fieldset', { class: 'segmented' },
        h('legend', { text: t('lobby.players') }),
        ...[4, 3].map((n) => h('label', { class: 'seg' },
          h('input', {
            type: 'radio', name: 'players', value: String(n), checked: form.players === n,
            onchange: () => { form.players = /** @type {3 | 4} */ (n); render(); },
          }),
          h('span', { text: t(n === 4 ? 'lobby.players_4' : 'lobby.players_3') })))),
      h('label', { class: 'field inline', hidden: form.players !== 3 },
        h('span', { text: t('lobby.hostage') }),
        select('hostage', form.hostage, (v) => { form.hostage = v; },
          ...ARMIES.map((a) => h('option', { value: a, text: t(`player.${a}`) })))),
    ];
  }

  function seatsField() {
    return h('fieldset', { class: 'names seats' },
      h('legend', { text: t('create.seats') }),
      ...seatsOf(form).map((a) => {
        const kind = form.seats[a];
        const player = t(`player.${a}`);
        return h('div', { class: ['name-row', kind !== 'person' && 'is-bot'], dataset: { player: a } },
          armySwatch(a, 18),
          kind === 'person'
            ? h('input', {
              type: 'text', name: `name-${a}`, maxlength: '32', autocomplete: 'off', value: form.names[a],
              'aria-label': t('create.name_of', { player }),
              placeholder: t('lobby.name_placeholder', { player }),
              oninput: (/** @type {Event} */ e) => { form.names[a] = /** @type {HTMLInputElement} */ (e.target).value; },
            })
            : h('span', { class: 'bot-name' },
              h('span', { text: t('create.bot_seat', { player, level: t(`create.level_${kind}`) }) }),
              h('small', { class: 'level-desc', text: t(`create.level_desc_${kind}`) })),
          h('label', { class: 'seat-kind' },
            h('span', { class: 'visually-hidden', text: t('create.who_plays', { player }) }),
            select(`seat-${a}`, kind, (v) => { form.seats[a] = /** @type {any} */ (v); },
              h('option', { value: 'person', text: t('create.person') }),
              ...BOT_LEVELS.map((l) => h('option', { value: l, text: t('create.bot_level', { level: t(`create.level_${l}`) }) })))));
      }));
  }

  /** With a bot at the table: how long bots think, and the turn limit (bots can play on alone). */
  function botFields() {
    const anyBot = seatsOf(form).some((a) => form.seats[a] !== 'person');
    if (!anyBot) return null;
    return h('div', { class: 'bot-fields' },
      h('label', { class: 'field inline' },
        h('span', { text: t('create.bot_time') }),
        select('bot_movetime', form.movetime, (v) => { form.movetime = v; },
          ...MOVETIME_PRESETS.map((ms) => h('option', { value: String(ms), text: movetimeLabel(ms) })))),
      turnLimitField(true));
  }

  function timeField() {
    const kinds = /** @type {const} */ (['casual', 'live', 'correspondence']);
    const fallback = t(`create.timeout_${defaultOnTimeout(form.time)}`);
    return h('fieldset', { class: 'time-control' },
      h('legend', { text: t('create.time') }),
      h('div', { class: 'segmented' },
        ...kinds.map((k) => h('label', { class: 'seg' },
          h('input', { type: 'radio', name: 'time', value: k, checked: form.time === k, onchange: () => { form.time = k; render(); } }),
          h('span', { text: t(`create.time_${k}`) })))),
      h('p', { class: 'muted small time-help', text: t(`create.time_${form.time}_help`) }),
      form.time === 'live' ? h('label', { class: 'field inline' },
        h('span', { text: t('create.live_clock') }),
        select('live', form.live, (v) => { form.live = v; },
          ...LIVE_PRESETS.map((c) => h('option', { value: liveKey(c), text: liveLabel(c) })),
          h('option', { value: CUSTOM_LIVE, text: t('create.live_custom') }))) : null,
      form.time === 'live' && form.live === CUSTOM_LIVE ? customFields() : null,
      form.time === 'correspondence' ? h('label', { class: 'field inline' },
        h('span', { text: t('create.per_turn') }),
        select('per_turn', String(form.per_turn_s), (v) => { form.per_turn_s = Number(v); },
          ...PER_TURN_PRESETS.map((s) => h('option', { value: String(s), text: perTurnLabel(s) })))) : null,
      form.time !== 'casual' ? h('label', { class: 'field inline' },
        h('span', { text: t('create.on_timeout') }),
        select('on_timeout', form.on_timeout, (v) => { form.on_timeout = /** @type {any} */ (v); },
          h('option', { value: '', text: t('create.server_default', { what: fallback }) }),
          h('option', { value: 'resign', text: t('create.timeout_resign') }),
          h('option', { value: 'bot', text: t('create.timeout_bot') }))) : null);
  }

  /** A live clock set by hand: minutes for the whole game, seconds added after each turn. */
  function customFields() {
    /** @param {'custom_min' | 'custom_inc'} key @param {string} label @param {number} min @param {number} max */
    const number = (key, label, min, max) => h('label', { class: 'field inline' },
      h('span', { text: label }),
      h('input', {
        type: 'number', name: key, min: String(min), max: String(max), step: '1', inputmode: 'numeric', value: form[key],
        oninput: (/** @type {Event} */ e) => { form[key] = /** @type {HTMLInputElement} */ (e.target).value; },
      }));
    const { min_minutes, max_minutes, max_increment_s } = CUSTOM_LIMITS;
    return h('div', { class: 'custom-clock' },
      number('custom_min', t('create.custom_minutes', { min: min_minutes, max: max_minutes }), min_minutes, max_minutes),
      number('custom_inc', t('create.custom_increment', { max: max_increment_s }), 0, max_increment_s));
  }

  function rulesField() {
    const anyBot = seatsOf(form).some((a) => form.seats[a] !== 'person');
    return h('details', {
      class: 'options', open: rulesOpen,
      ontoggle: (/** @type {Event} */ e) => { rulesOpen = /** @type {HTMLDetailsElement} */ (e.target).open; },
    },
      h('summary', { text: t('lobby.rules_title') }),
      checkbox('own_kills', t('lobby.own_kills'), t('lobby.own_kills_help')),
      checkbox('diplomat_to_maze', t('lobby.diplomat_to_maze'), t('lobby.diplomat_to_maze_help')),
      anyBot ? null : turnLimitField(false));
  }

  /**
   * The turn limit; at a table with bots, with what the server does without one.
   * @param {boolean} bots
   */
  function turnLimitField(bots) {
    return h('label', { class: ['field', 'turn-limit', bots && 'with-bots'] },
      h('span', { text: t('lobby.turn_limit') }),
      h('input', {
        type: 'number', name: 'turn_limit', min: '1', step: '1', inputmode: 'numeric', value: form.turn_limit,
        placeholder: t('lobby.turn_limit_none'),
        oninput: (/** @type {Event} */ e) => { form.turn_limit = /** @type {HTMLInputElement} */ (e.target).value; },
      }),
      h('small', { text: t('lobby.turn_limit_help') }),
      bots ? h('small', { class: 'bots-limit', text: t('lobby.turn_limit_bots') }) : null);
  }

  /** Whether the creator set "listed" themselves (else it follows "open"). */
  let listedSet = false;

  /** @param {'own_kills'|'diplomat_to_maze'|'open'|'listed'|'players_chat_public'|'hints'} key @param {string} label @param {string} help */
  function checkbox(key, label, help) {
    return h('label', { class: 'check' },
      h('input', {
        type: 'checkbox', name: key, checked: form[key],
        onchange: (/** @type {Event} */ e) => {
          form[key] = /** @type {HTMLInputElement} */ (e.target).checked;
          if (key === 'listed') listedSet = true;
          if (key === 'open' && !listedSet) {
            form.listed = form.open;
            render();
          }
        },
      }),
      h('span', {}, h('strong', { text: label }), h('small', { text: help })));
  }

  async function submit() {
    if (busy) return;
    const made = createBody(form);
    if ('error' in made) {
      const control = made.field ? /** @type {HTMLElement | null} */ (el.querySelector(`[name="${made.field}"]`)) : null;
      if (made.field && control) {
        invalid[made.field] = t(made.error);
        markFields();
        control.focus();
      } else {
        toast(t(made.error), 'error');
      }
      return;
    }
    busy = true;
    for (const name of Object.keys(invalid)) delete invalid[name];
    render();
    try {
      await onSubmit(made.body);
    } finally {
      busy = false;
      if (el.isConnected) render();
    }
  }

  render();
  return { el, relabel: render, showError };
}
