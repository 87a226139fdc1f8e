// The game page (`/game/{id}`), wired from its parts in play/: the page's state (play/state.js),
// what it shows — board and turn entry, banner, players, actions, turn list and chat
// (play/view.js) — the socket's glue that keeps the game (play/connection.js) and the commands
// sent over it (play/commands.js). It resumes its seat after a reload, or takes the seat of an
// invite link first; a seat held here gets its push notifications (push.js).

import { loadSeat, parseInvite, saveSeat } from '../shared/tokens.js';
import { openInvite } from '../play/claim.js';
import { PageState } from '../play/state.js';
import { TableCommands } from '../play/commands.js';
import { GameView } from '../play/view.js';
import { GameConnection } from '../play/connection.js';
import { syncPush } from '../shared/push.js';
import { gameExists } from '../api.js';
import { t } from '../i18n.js';

/**
 * Mounts the game page.
 * @param {HTMLElement} main
 * @param {{id: string}} params
 */
export function mount(main, { id }) {
  const invite = parseInvite(location.hash);
  const held = loadSeat(id);
  // The token leaves the visible URL at once (it would be shared with a screenshot or a copy).
  if (invite) history.replaceState(null, '', location.pathname + location.search);
  const state = new PageState(id, invite ? null : held);
  // A command's answer redraws what it changed (the view is there by the time one is sent).
  const commands = new TableCommands(state, {
    banner: () => view.renderBanner(),
    actions: () => view.renderActions(),
  });
  const view = new GameView(main, state, commands);
  const connection = new GameConnection(state, view, commands);

  view.renderAll();
  // An invite link shows its own card first, not the game behind it.
  view.root.hidden = Boolean(invite);
  let left = false;
  const open = () => {
    if (left) return;
    if (invite) {
      // An invite link: take the seat under a name first, unless it is ours already or taken.
      openInvite(main, id, invite, held, (claimed) => {
        if (claimed) saveSeat(id, claimed);
        state.seat = claimed;
        view.root.hidden = false;
        connection.connect();
        view.renderAll();
        // A seat just taken: its notifications reach this browser too (if it allowed them).
        if (claimed) syncPush();
      });
    } else {
      connection.connect();
      if (held) syncPush();
    }
  };
  // A game that is not there is said so at once, without a socket refused or a 404 (expected
  // answers, not errors for the browser to log).
  gameExists(id).then((exists) => {
    if (left) return;
    if (exists) open();
    else {
      view.root.hidden = false;
      connection.fail(t('game.not_found'));
    }
  });

  return {
    unmount() {
      left = true;
      view.ticker.stop();
      connection.close();
    },
    relabel() {
      view.relabel();
    },
  };
}
