// A circle's page (`/circle/{id}`, docs/CIRCLES.md) — the friends' lobby: its games (take a seat
// with one click, play, watch, replays and analyses), a new game, the standings, the head-to-head
// grid and everyone's rating over time, and its people (invite link, members, leaving, renaming,
// pushes, exports). Read with the member key this browser keeps (shared/circles.js). And the
// join page (`/circle/{id}/join#INVITE`), where a friend picks a name and becomes a member.

import { h, replace, toast } from '../dom.js';
import { language, t } from '../i18n.js';
import { circleCsv, claimSeat, createGame, departCircle, getCircle, joinCircle, reinviteCircle, renameCircle } from '../api.js';
import { errorText, fieldError } from '../errors.js';
import { navigate } from '../nav.js';
import { rememberName, savedName } from '../prefs.js';
import { forgetCircle, inviteOf, loadCircle, saveCircle } from '../shared/circles.js';
import { saveAdmin, saveInvites, saveSeat } from '../shared/tokens.js';
import { circlePushOn, setCirclePush, syncPush } from '../shared/push.js';
import { standingsTable } from '../circle/standings.js';
import { headToHeadGrid } from '../circle/headtohead.js';
import { ratingChart } from '../circle/chart.js';
import { gamesList } from '../circle/games.js';
import { createCard } from '../circle/createcard.js';
import { manageCard } from '../circle/manage.js';
import { keepFocus } from '../shared/focus.js';

/** How often the page is read again while visible (games start and end). */
const REFRESH_MS = 8000;

/**
 * @param {HTMLElement} main
 * @param {{id: string, join?: string}} params
 * @returns {{unmount?: () => void, relabel: () => void}}
 */
export function mount(main, params) {
  return params.join ? mountJoin(main, params.id) : mountCircle(main, params.id);
}

/**
 * The join page: the invite from the link's fragment, a name, "Join".
 * @param {HTMLElement} main @param {string} id
 */
function mountJoin(main, id) {
  const invite = inviteOf(location.hash);
  let busy = false;
  let error = '';
  let nameError = '';
  const root = h('section', { class: 'card narrow circle-join', 'aria-labelledby': 'circle-join-title' });
  main.append(root);
  const input = h('input', { type: 'text', class: 'join-name', maxlength: 32, value: savedName() || '', autocomplete: 'nickname', required: true });

  function render() {
    document.title = `${t('circle.join_title')} — Djambi Online`;
    const held = loadCircle(id);
    const head = h('h1', { id: 'circle-join-title', text: t('circle.join_title') });
    if (held) {
      replace(root, head, h('p', { text: t('circle.join_already', { name: held.name || '' }) }),
        h('p', {}, h('a', { class: 'btn btn-primary', href: `/circle/${id}`, text: t('circle.open') })));
      return;
    }
    if (!invite) {
      replace(root, head, h('p', { class: 'error-text', role: 'alert', text: t('circle.join_no_invite') }),
        h('p', {}, h('a', { class: 'btn', href: '/', text: t('transfer.to_lobby') })));
      return;
    }
    keepFocus(root, () => replace(root, head,
      h('p', { text: t('circle.join_intro') }),
      h('form', {
        class: 'join-form',
        onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); join(); },
      },
      h('label', { class: 'field' }, h('span', { text: t('circle.your_name') }), input,
        nameError ? h('span', { class: 'error-text small', role: 'alert', text: nameError }) : null),
      h('p', { class: 'muted small', text: t('circle.key_note') }),
      error ? h('p', { class: 'error-text', role: 'alert', text: error }) : null,
      h('button', { type: 'submit', class: 'btn btn-primary join-circle', disabled: busy, text: t('circle.join') }))));
  }

  async function join() {
    if (busy || !invite) return;
    busy = true;
    error = nameError = '';
    render();
    const name = input.value.trim();
    try {
      const joined = await joinCircle(id, invite, name);
      rememberName(name);
      saveCircle({ id, member: joined.member.id, key: joined.member.key, name: joined.name, me: name, invite: `${location.origin}/circle/${id}/join#${invite}` });
      toast(t('circle.joined', { name: joined.name }), 'ok');
      // The invite leaves the address bar and this page's history entry.
      history.replaceState(null, '', `/circle/${id}/join`);
      navigate(`/circle/${id}`);
      return;
    } catch (e) {
      const err = /** @type {any} */ (e);
      if (err.code === 'name_taken' || (err.code === 'bad_request' && fieldError(err).field === 'name')) nameError = errorText(err, 'circle.errors');
      else error = errorText(err, 'circle.errors');
    }
    busy = false;
    if (root.isConnected) render();
  }

  render();
  return { relabel: render };
}

/**
 * The circle's page.
 * @param {HTMLElement} main @param {string} id
 */
function mountCircle(main, id) {
  /** @type {any} */
  let view = null;
  let error = '';
  let lost = false;
  /** @type {string | null} */
  let taking = null;
  /** What the people's card shows, as last drawn. */
  let drawn = '';
  const root = h('div', { class: 'circle-page' });
  const head = h('header', { class: 'circle-head' });
  const games = h('section', { class: 'card circle-games-card', 'aria-labelledby': 'circle-games-title' });
  const standings = h('section', { class: 'card circle-standings', 'aria-labelledby': 'circle-standings-title' });
  const h2h = h('section', { class: 'card circle-h2h', 'aria-labelledby': 'circle-h2h-title' });
  const chart = h('section', { class: 'card circle-chart', 'aria-labelledby': 'circle-chart-title' });
  const side = h('div', { class: 'circle-side' });
  const create = createCard({ onCreate: newGame });
  root.append(head, h('div', { class: 'circle-grid' },
    h('div', { class: 'circle-main' }, games, standings, chart, h2h), side));
  main.append(root);

  function held() {
    return loadCircle(id);
  }

  function render() {
    const me = held();
    document.title = `${view ? view.name : (me && me.name) || t('circle.title')} — Djambi Online`;
    if (!me || lost) {
      replace(head, h('h1', { text: (me && me.name) || t('circle.title') }));
      replace(games,
        h('h2', { id: 'circle-games-title', text: lost ? t('circle.key_refused') : t('circle.not_member') }),
        h('p', { text: t('circle.lost_key') }),
        lost ? h('button', { type: 'button', class: 'btn forget-circle', text: t('circle.forget'), onclick: () => { forgetCircle(id); navigate('/'); } }) : null,
        h('p', {}, h('a', { class: 'btn', href: '/', text: t('transfer.to_lobby') })));
      for (const el of [standings, h2h, chart, side]) el.replaceChildren();
      return;
    }
    replace(head,
      h('p', { class: 'muted small', text: t('circle.kicker') }),
      h('h1', { class: 'circle-name', text: view ? view.name : me.name || t('circle.title') }),
      view ? h('p', { class: 'muted', text: t('circle.you_are', { name: (view.members.find((/** @type {any} */ m) => m.id === view.you) || {}).name || '' }) }) : null,
      error ? h('p', { class: 'error-text', role: 'alert', text: error }) : null);
    if (!view) {
      replace(games, h('p', { class: 'muted', text: t('common.loading') }));
      return;
    }
    keepFocus(games, () => replace(games,
      h('div', { class: 'card-head' },
        h('h2', { id: 'circle-games-title', text: t('circle.games') }),
        h('button', { type: 'button', class: 'btn btn-small btn-ghost', text: t('common.refresh'), onclick: load })),
      gamesList(view, { onTake: take, busy: taking })));
    replace(standings,
      h('h2', { id: 'circle-standings-title', text: t('circle.standings') }),
      standingsTable(view, language()),
      h('p', { class: 'muted small', text: t('circle.rating_note') }));
    replace(chart, h('h2', { id: 'circle-chart-title', text: t('circle.chart') }), ratingChart(view));
    replace(h2h, h('h2', { id: 'circle-h2h-title', text: t('circle.h2h') }), headToHeadGrid(view));
    // The people's card is drawn again only when what it shows changed (a refresh must not
    // wipe a name being typed).
    const sig = JSON.stringify([view.name, view.creator, view.members.map((/** @type {any} */ m) => [m.id, m.name, m.status]), me.invite, circlePushOn(id), language()]);
    if (sig !== drawn || !side.firstChild) {
      drawn = sig;
      keepFocus(side, () => replace(side, create.el,
        manageCard(view, { invite: me.invite || null, push: circlePushOn(id) }, {
          rename, reinvite, depart, exportAs, push,
        })));
    }
  }

  async function load() {
    const me = held();
    if (!me) return render();
    try {
      view = await getCircle(id, me.key);
      error = '';
      lost = false;
      const you = view.members.find((/** @type {any} */ m) => m.id === view.you);
      saveCircle({ id, member: me.member, key: me.key, name: view.name, me: you ? you.name : me.me });
    } catch (e) {
      const err = /** @type {any} */ (e);
      if (err.code === 'bad_key') lost = true;
      else error = errorText(err, 'circle.errors');
    }
    if (root.isConnected) render();
  }

  /** "Take a seat": a free seat of the game for this member; then the game, played here. @param {string} game */
  async function take(game) {
    const me = held();
    if (!me || taking) return;
    taking = game;
    render();
    try {
      const seat = await claimSeat(game, { member: { circle: id, id: me.member, key: me.key } });
      saveSeat(game, { player: seat.player, token: seat.token });
      syncPush();
      navigate(`/game/${game}`);
    } catch (e) {
      toast(errorText(e, 'circle.errors'), 'error');
      taking = null;
      load();
    }
  }

  /** @param {Record<string, any>} body @param {boolean} play */
  async function newGame(body, play) {
    const me = held();
    if (!me) return;
    try {
      const created = await createGame({ ...body, circle: { id, key: me.key } });
      saveInvites(created.id, created.seats);
      if (created.admin_token) saveAdmin(created.id, created.admin_token);
      toast(t('circle.game_created'), 'ok');
      if (play) {
        await take(created.id);
        return;
      }
      await load();
    } catch (e) {
      toast(errorText(e, 'circle.errors'), 'error');
    }
  }

  /** @param {string} name */
  async function rename(name) {
    const me = held();
    if (!me) return;
    try {
      await renameCircle(id, me.key, name);
      toast(t('circle.renamed'), 'ok');
      await load();
    } catch (e) {
      toast(errorText(e, 'circle.errors'), 'error');
    }
  }

  async function reinvite() {
    const me = held();
    if (!me) return;
    try {
      const { invite_url: invite } = await reinviteCircle(id, me.key);
      saveCircle({ ...me, invite });
      toast(t('circle.invite_renewed'), 'ok');
      render();
    } catch (e) {
      toast(errorText(e, 'circle.errors'), 'error');
    }
  }

  /** @param {string} member */
  async function depart(member) {
    const me = held();
    if (!me) return;
    try {
      await departCircle(id, me.key, member);
      if (member === me.member) {
        await setCirclePush(id, me.key, false);
        forgetCircle(id);
        toast(t('circle.left', { name: view ? view.name : '' }), 'ok');
        navigate('/');
        return;
      }
      await load();
    } catch (e) {
      toast(errorText(e, 'circle.errors'), 'error');
    }
  }

  /** @param {'json' | 'standings' | 'games'} what */
  async function exportAs(what) {
    const me = held();
    if (!me || !view) return;
    try {
      const text = what === 'json' ? JSON.stringify(await getCircle(id, me.key), null, 2) : await circleCsv(id, me.key, what);
      const type = what === 'json' ? 'application/json' : 'text/csv';
      const url = URL.createObjectURL(new Blob([text], { type }));
      const a = h('a', { href: url, download: `circle-${id.slice(0, 8)}-${what}.${what === 'json' ? 'json' : 'csv'}` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      toast(errorText(e, 'circle.errors'), 'error');
    }
  }

  /** @param {boolean} on */
  async function push(on) {
    const me = held();
    if (!me) return;
    const state = await setCirclePush(id, me.key, on);
    if (on && state !== 'on') toast(t(`circle.push_${state}`), 'error');
    render();
  }

  render();
  load();
  const timer = setInterval(() => { if (!document.hidden) load(); }, REFRESH_MS);
  return {
    unmount() { clearInterval(timer); },
    relabel() { create.relabel(); render(); },
  };
}
