// The rules help (`/rules`): a concise, illustrated digest of RULES.md. The illustrations are
// positions with the legal turns the core gives for them, drawn by the same board as the game.

import { h, replace } from './dom.js';
import { t } from './i18n.js';
import { BoardView } from './board.js';
import { parseBoard } from './dpn.js';
import { pieceIcon } from './pieces.js';
import { describeSquare } from './panels.js';

const START = 'CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy';

/**
 * Each figure: a board, the selected piece and the squares it may go to (from `djambi legal`).
 * @type {Record<string, {board: string, selected?: string, to?: string[], targets?: string[], kind?: any, last?: string[]}>}
 */
const FIGURES = {
  start: { board: START },
  Chief: {
    board: '9/7Cb1/9/2X2Mb3/9/9/2Cr6/9/9', selected: 'c3',
    to: ['a1', 'a3', 'a5', 'b2', 'b3', 'b4', 'c1', 'c2', 'c4', 'c5', 'd2', 'd3', 'd4', 'e1', 'e3', 'e5', 'f3', 'g3', 'h3', 'i3'],
    targets: ['f6'],
  },
  Militant: {
    board: '9/7Cb1/9/9/3Mb5/2Mr6/9/9/Cr8', selected: 'c4',
    to: ['a2', 'a4', 'a6', 'b3', 'b4', 'b5', 'c2', 'c3', 'c5', 'c6', 'd3', 'd4', 'e2', 'e4'],
    targets: ['d5'],
  },
  Assassin: {
    board: '9/7Cb1/9/5Db3/9/9/2Ar6/9/Cr8', selected: 'c3',
    to: ['a3', 'a5', 'b2', 'b3', 'b4', 'c1', 'c2', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9', 'd2', 'd3', 'd4', 'e1', 'e3', 'f3', 'g3', 'h3', 'i3'],
    targets: ['f6'],
  },
  Reporter: {
    board: '9/7Cb1/9/9/1Mb7/9/2Rr6/9/Cr8', selected: 'c3',
    to: ['a3', 'a5', 'b2', 'b3', 'b4', 'c1', 'c2', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9', 'd2', 'd3', 'd4', 'e1', 'e3', 'f3', 'f6', 'g3', 'g7', 'h3', 'i3'],
    targets: ['b5'], kind: 'victim',
  },
  Diplomat: {
    board: '9/7Cb1/9/5Ab3/9/9/2Dr6/9/Cr8', selected: 'c3',
    to: ['a3', 'a5', 'b2', 'b3', 'b4', 'c1', 'c2', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9', 'd2', 'd3', 'd4', 'e1', 'e3', 'f3', 'g3', 'h3', 'i3'],
    targets: ['f6'],
  },
  Necromobile: {
    board: '9/7Cb1/9/5X3/9/9/2Nr6/9/Cr8', selected: 'c3',
    to: ['a3', 'a5', 'b2', 'b3', 'b4', 'c1', 'c2', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9', 'd2', 'd3', 'd4', 'e1', 'e3', 'f3', 'g3', 'h3', 'i3'],
    targets: ['f6'],
  },
  maze: {
    board: '9/7Cb1/9/9/3AbCr4/9/9/9/9', selected: 'd5',
    to: ['a1', 'a5', 'a9', 'b2', 'b5', 'b8', 'c3', 'c5', 'c7', 'd4', 'd6', 'e1', 'e2', 'e3', 'e4', 'e6', 'e7', 'e8', 'e9', 'f4', 'f5', 'f6', 'g3', 'g5', 'g7', 'h2', 'h5', 'i1', 'i5'],
    kind: 'exit', targets: ['e5'],
  },
  corpses: {
    board: '9/9/9/9/9/9/XX7/CgX7/XX7', kind: 'victim', targets: ['a2'],
  },
};

/** @param {string} name */
function figure(name) {
  const f = FIGURES[name];
  const view = new BoardView({ describe: describeSquare, label: t(`rules.fig_${name}`) });
  view.setOrientation('g');
  const board = parseBoard(f.board);
  /** @type {import('./board.js').Marks} */
  const marks = {
    selected: f.selected || null,
    options: [...(f.to || []), ...(f.targets || [])],
    optionKind: f.kind === 'exit' ? 'exit' : 'to',
  };
  if (f.kind === 'victim') {
    marks.options = f.to || [];
    /** @type {any} */ (marks).victims = f.targets || [];
  }
  view.draw(board, marks);
  return h('figure', { class: 'rules-figure' }, view.svg, h('figcaption', { text: t(`rules.fig_${name}`) }));
}

/**
 * @param {string} key
 */
function paragraphs(key) {
  return t(key).split('\n\n').map((p) => h('p', { text: p }));
}

/** @param {HTMLElement} main */
export function mount(main) {
  const root = h('article', { class: 'rules-page' });
  main.append(root);

  function render() {
    document.title = `${t('rules.title')} — Djambi Online`;
    const roles = ['Chief', 'Militant', 'Assassin', 'Reporter', 'Diplomat', 'Necromobile'];
    const letters = { Chief: 'C', Militant: 'M', Assassin: 'A', Reporter: 'R', Diplomat: 'D', Necromobile: 'N' };
    replace(root,
      h('header', { class: 'rules-head' },
        h('h1', { text: t('rules.title') }),
        h('p', { class: 'tagline', text: t('rules.intro') })),
      h('nav', { class: 'rules-toc', 'aria-label': t('rules.contents') },
        h('ol', {}, ...['goal', 'board', 'moving', 'pieces', 'maze', 'elimination', 'three', 'end', 'here'].map((s) =>
          h('li', {}, h('a', { href: `#${s}`, onclick: (/** @type {Event} */ e) => { e.preventDefault(); document.getElementById(s)?.scrollIntoView({ behavior: 'smooth' }); }, text: t(`rules.${s}_title`) }))))),
      section('goal'),
      section('board', figure('start')),
      section('moving'),
      h('section', { id: 'pieces', class: 'rules-section' },
        h('h2', { text: t('rules.pieces_title') }),
        ...paragraphs('rules.pieces_body'),
        h('div', { class: 'piece-cards' }, ...roles.map((r) => h('div', { class: 'piece-card', id: `piece-${r}` },
          h('div', { class: 'piece-card-head' },
            pieceIcon(letters[/** @type {keyof typeof letters} */ (r)], 'r', 44), pieceIcon(letters[/** @type {keyof typeof letters} */ (r)], 'y', 44),
            h('h3', { text: t(`role.${r}`) })),
          h('p', { text: t(`rules.piece_${r}`) }),
          figure(r)))),
        h('div', { class: 'piece-card corpse-card' },
          h('div', { class: 'piece-card-head' }, pieceIcon(null, 'r', 44), h('h3', { text: t('rules.corpse_title') })),
          h('p', { text: t('rules.corpse_body') }))),
      section('maze', figure('maze')),
      section('elimination', figure('corpses')),
      section('three'),
      section('end'),
      section('here'));
  }

  /** @param {string} name @param {...HTMLElement} extra */
  function section(name, ...extra) {
    return h('section', { id: name, class: 'rules-section' },
      h('h2', { text: t(`rules.${name}_title`) }),
      ...paragraphs(`rules.${name}_body`),
      ...extra);
  }

  render();
  return { relabel: render };
}
