// The lobby (`/`): play against three bots in one click, create a game and hand out its invite
// links, find your own games, join, watch and replay the games the server lists, or import a
// game record, or go to your circles of friends. The page composes its cards: createform.js,
// manage.js (the creator's view), yourgames.js, circlescard.js, notifycard.js, gamelists.js,
// importcard.js.

import { h, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { createGame, claimSeat } from '../api.js';
import { saveAdmin, saveInvites, saveSeat } from '../shared/tokens.js';
import { pieceIcon } from '../board/pieces.js';
import { ARMIES } from '../board/dpn.js';
import { navigate } from '../nav.js';
import { errorText } from '../errors.js';
import { hasFinishedGame, rememberBotLevel, savedBotLevel, savedName } from '../prefs.js';
import { BOT_LEVELS, botGameBody, quickBotLevel } from '../shared/gameopts.js';
import { createForm } from '../lobby/createform.js';
import { manageCard } from '../lobby/manage.js';
import { yourGamesCard } from '../lobby/yourgames.js';
import { gameListsCard } from '../lobby/gamelists.js';
import { importCard } from '../lobby/importcard.js';
import { notifyCard } from '../lobby/notifycard.js';
import { circlesCard } from '../lobby/circlescard.js';
import { keepFocus } from '../shared/focus.js';

/** How often the public lists (and the creator's card) are fetched again. */
const LISTS_REFRESH_MS = 8000;

/**
 * Keeps what creating a game gave this browser: the creator's token and the invite links.
 * @param {any} created  a CreatedGame
 */
function keepCreated(created) {
  saveInvites(created.id, created.seats);
  if (created.admin_token) saveAdmin(created.id, created.admin_token);
}

/**
 * Mounts the lobby in `main`.
 * @param {HTMLElement} main
 * @returns {{unmount: () => void, relabel: () => void}}
 */
export function mount(main) {
  let botLevel = quickBotLevel({ finished: hasFinishedGame(), saved: savedBotLevel() });
  let quickBusy = false;

  const form = createForm({ onSubmit: create });
  /** @type {ReturnType<typeof manageCard> | null} */
  let manage = null;
  const yours = yourGamesCard({ onManage: (id) => showManage(id) });
  const lists = gameListsCard();
  const importer = importCard();
  const notify = notifyCard();
  const circles = circlesCard();
  const left = h('div', { class: 'lobby-main' });
  const hero = h('section', { class: 'hero' });
  const root = h('div', { class: 'lobby' }, hero, h('div', { class: 'lobby-grid' }, left, h('div', { class: 'lobby-side' }, yours.el, circles.el, lists.el, notify.el, importer.el)));
  main.append(root);

  function renderHero() {
    document.title = `Djambi Online — ${t('lobby.tagline_short')}`;
    keepFocus(hero, () => replace(hero,
      h('div', { class: 'hero-text' },
        h('h1', { text: t('lobby.title') }),
        h('p', { class: 'tagline', text: t('lobby.tagline') }),
        levelChoice(),
        h('div', { class: 'hero-actions' },
          h('button', {
            type: 'button', class: 'btn btn-gold play-bots', disabled: quickBusy,
            text: quickBusy ? t('lobby.bots_starting') : t('lobby.play_bots'), onclick: playBots,
          }),
          // A first-timer learns by playing (the lessons); the rules are the reference, a link below.
          h('a', { href: '/learn', class: 'btn btn-ghost learn-link', text: t('lobby.learn_rules') }),
          h('a', { href: '/rules', class: 'btn btn-ghost rules-link', text: t('lobby.rules_reference') })),
        h('p', { class: 'hero-note', text: t('lobby.play_bots_help') }),
        h('p', { class: 'hero-note bots-limit', text: t('lobby.play_bots_limit') })),
      h('div', { class: 'hero-pieces', 'aria-hidden': 'true' },
        ...['C', 'A', 'R', 'D', 'N', 'M'].map((r, i) => pieceIcon(r, ARMIES[i % 4], 46)), pieceIcon(null, 'r', 46))));
  }

  /** The bots' level for "Play against 3 bots", each level with what it plays like. */
  function levelChoice() {
    return h('fieldset', { class: 'bot-levels' },
      h('legend', { text: t('lobby.bots_level') }),
      h('div', { class: 'level-options' },
        ...BOT_LEVELS.map((l) => h('label', { class: 'level-option', dataset: { level: l } },
          h('input', {
            type: 'radio', name: 'quick-level', value: l, checked: l === botLevel,
            onchange: () => {
              botLevel = l;
              rememberBotLevel(l);
            },
          }),
          h('span', { class: 'level-text' },
            h('strong', { class: 'level-name', text: t(`create.level_${l}`) }),
            h('span', { class: 'level-desc', text: t(`create.level_desc_${l}`) }))))));
  }

  function renderLeft() {
    replace(left, manage ? manage.el : form.el);
  }

  /** Shows the creator's card of a game instead of the create form. @param {string} id */
  function showManage(id) {
    manage = manageCard(id, {
      onClose: () => { manage = null; renderLeft(); },
      onChanged: () => { yours.refresh(); lists.refresh(); },
    });
    renderLeft();
    manage.el.scrollIntoView({ block: 'nearest' });
  }

  /** The create form's submit. @param {Record<string, any>} body */
  async function create(body) {
    try {
      const created = await createGame(body);
      keepCreated(created);
      toast(t('lobby.created_toast'), 'ok');
      showManage(created.id);
    } catch (e) {
      if (!form.showError(e)) toast(errorText(e), 'error');
    } finally {
      yours.refresh();
      lists.refresh();
    }
  }

  /** "Play against 3 bots": a game where you play Red, claimed at once, then opened. */
  async function playBots() {
    if (quickBusy) return;
    quickBusy = true;
    renderHero();
    try {
      const name = savedName() || t('lobby.guest_name');
      rememberBotLevel(botLevel);
      const created = await createGame(botGameBody(name, botLevel));
      keepCreated(created);
      const red = created.seats.find((/** @type {any} */ s) => s.player === 'r');
      const seat = await claimSeat(created.id, { name, token: red.token });
      saveSeat(created.id, { player: seat.player, token: seat.token });
      navigate(`/game/${created.id}`);
    } catch (e) {
      toast(errorText(e), 'error');
      quickBusy = false;
      if (root.isConnected) renderHero();
    }
  }

  renderHero();
  renderLeft();
  lists.refresh();
  const timer = setInterval(() => {
    if (document.hidden) return;
    lists.refresh();
    if (manage) manage.refresh();
  }, LISTS_REFRESH_MS);

  return {
    unmount() {
      clearInterval(timer);
      yours.stop();
    },
    relabel() {
      renderHero();
      form.relabel();
      if (manage) manage.relabel();
      yours.relabel();
      lists.relabel();
      importer.relabel();
      notify.relabel();
      circles.relabel();
      renderLeft();
    },
  };
}
