// What this browser keeps of its circles (docs/CIRCLES.md) in localStorage: for each circle, the
// member it is in it (id and secret key), the member's name and the circle's name as last seen,
// and the invite link when this browser had it (it created the circle, or joined with it). The
// key is the membership: it never leaves this browser except in "Open my games on another
// device" (transfercode.js); a key lost with its browser is recovered only from another device
// that has it.

/** @param {string} id */
const circleKey = (id) => `djambi.circle.${id}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A member key as the server makes them (and the transfer link carries them). */
export const MEMBER_KEY = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * @typedef {object} HeldCircle
 * @property {string} id         the circle
 * @property {string} member     the member's id
 * @property {string} key        the member's secret key
 * @property {string} [name]     the circle's name, as last seen
 * @property {string} [me]       the member's name, as last seen
 * @property {string} [invite]   the invite link, if this browser has it
 */

/**
 * The membership this browser holds in a circle, if any.
 * @param {string} id
 * @returns {HeldCircle | null}
 */
export function loadCircle(id) {
  try {
    const c = JSON.parse(localStorage.getItem(circleKey(id)) || 'null');
    return c && typeof c.member === 'string' && typeof c.key === 'string' && MEMBER_KEY.test(c.key)
      ? { ...c, id } : null;
  } catch {
    return null;
  }
}

/**
 * Keeps (or updates) a membership.
 * @param {HeldCircle} c
 */
export function saveCircle(c) {
  if (!UUID.test(c.id) || !UUID.test(c.member) || !MEMBER_KEY.test(c.key)) return;
  const was = loadCircle(c.id);
  const keep = {
    member: c.member,
    key: c.key,
    name: c.name ?? was?.name ?? '',
    me: c.me ?? was?.me ?? '',
    invite: c.invite ?? (was && was.member === c.member ? was.invite : undefined),
  };
  try { localStorage.setItem(circleKey(c.id), JSON.stringify(keep)); } catch { /* ignore */ }
}

/** Forgets a circle (the member left, or was removed). @param {string} id */
export function forgetCircle(id) {
  try { localStorage.removeItem(circleKey(id)); } catch { /* ignore */ }
}

/**
 * Every circle this browser is in, by name.
 * @returns {HeldCircle[]}
 */
export function heldCircles() {
  /** @type {HeldCircle[]} */
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const m = /^djambi\.circle\.(.+)$/.exec(localStorage.key(i) || '');
      const c = m && UUID.test(m[1]) ? loadCircle(m[1]) : null;
      if (c) out.push(c);
    }
  } catch { /* no storage */ }
  return out.sort((a, b) => String(a.name || '').localeCompare(String(b.name || '')) || a.id.localeCompare(b.id));
}

/**
 * Keeps circles brought from another device (a membership already here for the same circle is
 * replaced by the one brought). Returns how many changed.
 * @param {{id: string, member: string, key: string}[]} circles
 */
export function keepCircles(circles) {
  let changed = 0;
  for (const c of circles) {
    const was = loadCircle(c.id);
    if (was && was.member === c.member && was.key === c.key) continue;
    saveCircle({ id: c.id, member: c.member, key: c.key });
    changed++;
  }
  return changed;
}

/** The `Authorization` header of a member's key. @param {string} key */
export const memberAuth = (key) => ({ Authorization: `Bearer ${key}` });

/**
 * The invite in a join link's fragment (`/circle/{id}/join#INVITE`), if it looks like one.
 * @param {string} hash
 * @returns {string | null}
 */
export function inviteOf(hash) {
  const s = String(hash).replace(/^#/, '');
  return MEMBER_KEY.test(s) ? s : null;
}
