// The line under the board while a player enters a turn: what to choose now ("Choose where your
// Assassin leaves the maze to"), the choices so far, and the buttons that fit (send, take back,
// kill nobody, pass).

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { ROLE_NAMES } from './dpn.js';
import { pieceName } from './narrate.js';
import * as P from './picker.js';

/** @param {string} letter */
const roleName = (letter) => ROLE_NAMES[/** @type {keyof typeof ROLE_NAMES} */ (letter)];

/**
 * @param {import('./picker.js').PickerState} picker
 * @param {import('./dpn.js').Board} board  the position the turn is entered on
 * @param {{send: (turn?: string) => void, none: () => void, back: () => void}} on
 */
export function turnPrompt(picker, board, on) {
  const st = P.stage(picker);
  const from = P.chosen(picker, 'from');
  const to = P.chosen(picker, 'to');
  const mover = from ? board[from] : null;
  const target = to ? board[to] : null;
  const role = t(`role.${mover && !('corpse' in mover) ? roleName(mover.role) : 'Militant'}`);
  let text = '';
  /** @type {HTMLElement[]} */
  const buttons = [];
  switch (st.field) {
    case 'none':
      text = t('game.no_moves');
      break;
    case 'from':
      text = t('game.prompt_from');
      if (st.canPass) buttons.push(h('button', { type: 'button', class: 'btn btn-primary', text: t('game.pass'), onclick: () => on.send('pass') }));
      break;
    case 'to':
      text = t('game.prompt_to', { role });
      break;
    case 'victim':
      text = t('game.prompt_victim', { role });
      if (st.allowNone) buttons.push(h('button', { type: 'button', class: 'btn kill-nobody', text: t('game.kill_nobody'), onclick: () => on.none() }));
      break;
    case 'exit':
      text = t('game.prompt_exit', { role });
      break;
    case 'place':
      // A Diplomat sets a living piece down; everyone else lays a corpse.
      if (mover && !('corpse' in mover) && mover.role === 'D' && target && !('corpse' in target)) {
        text = t('game.prompt_place_piece', { piece: pieceName(t, { army: target.army, role: roleName(target.role) }) });
      } else {
        text = t('game.prompt_place_corpse');
      }
      break;
    case 'done':
      text = t('game.prompt_done');
      buttons.push(h('button', { type: 'button', class: 'btn btn-primary send-turn', text: t('game.send', { turn: st.turn || '' }), onclick: () => on.send() }));
      break;
    default:
      break;
  }
  if (picker.path.length) {
    buttons.push(h('button', { type: 'button', class: 'btn take-back', title: t('game.take_back_keys'), text: t('game.take_back'), onclick: () => on.back() }));
  }
  const path = picker.path.map((c) => c.value ?? '—');
  return h('div', { class: ['prompt-row', 'mine', `stage-${st.field}`] },
    h('span', { class: 'prompt-text', text }),
    path.length ? h('code', { class: 'prompt-path', 'aria-label': t('game.so_far'), text: path.join(' → ') }) : null,
    h('span', { class: 'prompt-buttons' }, ...buttons));
}

/**
 * What a click that chose nothing should say instead of describing the square, if anything: a
 * second click on a Reporter's landing square asks how to kill nobody (it no longer does so by
 * itself).
 * @param {import('./picker.js').PickerState} picker @param {string} sq
 * @returns {string}
 */
export function clickNote(picker, sq) {
  const st = P.stage(picker);
  if (st.field === 'victim' && sq === P.chosen(picker, 'to')) {
    return t(st.allowNone ? 'game.victim_or_none' : 'game.victim_needed');
  }
  return '';
}
