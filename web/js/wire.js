// Protocol 2 on the wire (PROTOCOL §3.3–§3.5) → the shapes the rest of the client works with: the
// compact forms are expanded here, once, so no other module knows about them.
//   order "bygr" → ['b', 'y', 'g', 'r']; eliminated "b" → ['b']; ranking ["r", "yg"] →
//   [['r'], ['y', 'g']]; control "rbhg" → {r: 'r', b: 'b', y: 'h', g: 'g'}; ruler, result and
//   clock left out → null, bonus → 0, eliminated → []; a piece "Mr" → {army: 'r', role: 'Militant'};
//   legal {"a1": {"b2": "|xc3@d4d5"}} → {"a1-b2": ["", "xc3@d4", "xc3@d5"]}.

/** The version of the protocol this client speaks (sent in `hello`). */
export const PROTOCOL_VERSION = 2;

const ARMIES = ['r', 'b', 'y', 'g'];

/** @type {Record<string, string>} */
const ROLES = { C: 'Chief', A: 'Assassin', R: 'Reporter', D: 'Diplomat', N: 'Necromobile', M: 'Militant' };

/** @param {unknown} s */
const letters = (s) => (typeof s === 'string' ? s.split('') : Array.isArray(s) ? s : []);

/**
 * A piece from its two-letter code (role, army); anything else is returned unchanged.
 * @param {any} p
 */
export function pieceFromCode(p) {
  if (typeof p !== 'string' || p.length !== 2 || !(p[0] in ROLES)) return p;
  return { army: p[1], role: ROLES[p[0]] };
}

/**
 * A turn's effects with their pieces as objects.
 * @param {any[] | undefined} effects
 */
export function effectsFromWire(effects) {
  if (!Array.isArray(effects)) return effects;
  return effects.map((e) => {
    const out = { ...e };
    if ('piece' in out) out.piece = pieceFromCode(out.piece);
    if ('by' in out && typeof out.by === 'string' && out.by.length === 2) out.by = pieceFromCode(out.by);
    return out;
  });
}

/**
 * The state fields of a game or an event (those with a `dpn`), expanded.
 * @param {any} o
 */
export function stateFromWire(o) {
  if (!o || typeof o !== 'object') return o;
  const s = { ...o };
  if ('effects' in s) s.effects = effectsFromWire(s.effects);
  if (typeof s.dpn !== 'string') return s;
  s.order = letters(s.order);
  s.eliminated = letters(s.eliminated);
  s.ranking = Array.isArray(s.ranking) ? s.ranking.map(letters) : [];
  if (typeof s.control === 'string') {
    /** @type {Record<string, string>} */
    const control = {};
    ARMIES.forEach((a, i) => { control[a] = s.control[i]; });
    s.control = control;
  }
  for (const k of ['ruler', 'result', 'clock']) if (!(k in s)) s[k] = null;
  if (typeof s.bonus !== 'number') s.bonus = 0;
  return s;
}

/**
 * A game view (a snapshot's `game`, `GET /api/games/{id}`), its events included.
 * @param {any} game
 */
export function gameFromWire(game) {
  const g = stateFromWire(game);
  if (g && Array.isArray(g.events)) g.events = g.events.map(stateFromWire);
  return g;
}

/**
 * The compact legal turns as a map from "from-to" to the suffixes of its turns.
 * @param {any} turns
 * @returns {Record<string, string[]>}
 */
export function legalFromWire(turns) {
  /** @type {Record<string, string[]>} */
  const out = {};
  if (!turns || typeof turns !== 'object') return out;
  for (const [from, tos] of Object.entries(turns)) {
    if (!tos || typeof tos !== 'object') continue;
    for (const [to, spec] of Object.entries(tos)) {
      const suffixes = [];
      for (const alt of String(spec).split('|')) {
        const at = alt.indexOf('@');
        if (at < 0) {
          suffixes.push(alt);
          continue;
        }
        const head = alt.slice(0, at);
        const squares = alt.slice(at + 1);
        for (let i = 0; i + 1 < squares.length; i += 2) suffixes.push(`${head}@${squares.slice(i, i + 2)}`);
      }
      out[`${from}-${to}`] = suffixes;
    }
  }
  return out;
}
