// What this browser keeps of its games in localStorage: each game's seat token, the invite
// links and admin token of the games it created, and the invite links it was given (#seat=…).

/** @param {string} id */
const seatKey = (id) => `djambi.seat.${id}`;

/**
 * @param {string} id
 * @returns {{player: string, token: string} | null}
 */
export function loadSeat(id) {
  try {
    const s = JSON.parse(localStorage.getItem(seatKey(id)) || 'null');
    return s && typeof s.token === 'string' && typeof s.player === 'string' ? s : null;
  } catch {
    return null;
  }
}

/** @param {string} id @param {{player: string, token: string}} seat */
export function saveSeat(id, seat) {
  try { localStorage.setItem(seatKey(id), JSON.stringify({ player: seat.player, token: seat.token })); } catch { /* ignore */ }
}

/** @param {string} id */
export function forgetSeat(id) {
  try { localStorage.removeItem(seatKey(id)); } catch { /* ignore */ }
}

/**
 * Keeps the invite links of a game this browser created, so the creator can still hand them out
 * from the game page while seats are free (the server shows them only once).
 * @param {string} id
 * @param {{player: string, name?: string | null, invite_url: string}[]} seats
 */
export function saveInvites(id, seats) {
  try {
    localStorage.setItem(`djambi.invites.${id}`, JSON.stringify(seats.map((s) => ({ player: s.player, name: s.name || null, invite_url: s.invite_url }))));
  } catch { /* ignore */ }
}

/**
 * @param {string} id
 * @returns {{player: string, name: string | null, invite_url: string}[]}
 */
export function loadInvites(id) {
  try {
    const v = JSON.parse(localStorage.getItem(`djambi.invites.${id}`) || '[]');
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/**
 * Keeps the creator's admin token of a game (CreatedGame.admin_token, shown only once).
 * @param {string} id @param {string} token
 */
export function saveAdmin(id, token) {
  try { localStorage.setItem(`djambi.admin.${id}`, token); } catch { /* ignore */ }
}

/**
 * The creator's admin token of a game, if this browser created it.
 * @param {string} id
 * @returns {string | null}
 */
export function loadAdmin(id) {
  try { return localStorage.getItem(`djambi.admin.${id}`); } catch { return null; }
}

/**
 * Forgets everything this browser keeps about a game: seat, admin token, invite links.
 * @param {string} id
 */
export function forgetGame(id) {
  try {
    for (const key of [seatKey(id), `djambi.admin.${id}`, `djambi.invites.${id}`]) localStorage.removeItem(key);
  } catch { /* ignore */ }
}

/**
 * The ids of the games this browser holds a seat token, an admin token or invite links for.
 * @returns {string[]}
 */
export function storedGameIds() {
  /** @type {Set<string>} */
  const ids = new Set();
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const m = /^djambi\.(?:seat|admin|invites)\.(.+)$/.exec(localStorage.key(i) || '');
      if (m) ids.add(m[1]);
    }
  } catch { /* no storage */ }
  return [...ids];
}

/**
 * Reads an invite fragment (`#seat=r&token=…`), if any.
 * @param {string} hash
 * @returns {{player: string, token: string} | null}
 */
export function parseInvite(hash) {
  const p = new URLSearchParams(String(hash).replace(/^#/, ''));
  const player = p.get('seat');
  const token = p.get('token');
  if (!player || !token || !/^[rbyg]$/.test(player)) return null;
  return { player, token };
}

/**
 * What this browser holds of each of these games: its seat and the creator's admin token
 * (invite links stay behind: the creator can make new ones from any device).
 * @param {string[]} ids
 * @returns {{id: string, seat: {player: string, token: string} | null, admin: string | null}[]}
 */
export function heldGames(ids) {
  return ids.map((id) => ({ id, seat: loadSeat(id), admin: loadAdmin(id) }))
    .filter((g) => g.seat || g.admin);
}

/**
 * Keeps games brought from another device; a seat or admin token of the same game already
 * here is replaced. Returns how many games changed.
 * @param {{id: string, seat: {player: string, token: string} | null, admin: string | null}[]} games
 */
export function keepGames(games) {
  let changed = 0;
  for (const g of games) {
    const seat = loadSeat(g.id);
    const sameSeat = !g.seat || (seat && seat.player === g.seat.player && seat.token === g.seat.token);
    const sameAdmin = !g.admin || loadAdmin(g.id) === g.admin;
    if (g.seat && !sameSeat) saveSeat(g.id, g.seat);
    if (g.admin && !sameAdmin) saveAdmin(g.id, g.admin);
    if (!sameSeat || !sameAdmin) changed++;
  }
  return changed;
}
