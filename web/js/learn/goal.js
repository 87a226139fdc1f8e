// Whether a turn tried in a lesson meets the step's goal, judged from the server's answer only:
// the turn it played and its effects (PROTOCOL §2.1, pieces as codes), or the core's reason for
// refusing it. Pure: no DOM, unit-tested under Node.
//
// A goal is a list of alternatives; one is enough. An alternative is an object whose every key
// must hold:
//   from, to, victim, exit, place  the turn's choices (a list: any of these squares);
//   effects   a list of partial effects, each matching some effect of the turn
//             (`{"type": "killed", "at": "d5"}`; a piece code may hold `?`, any role or army:
//             `"?b"` is any Blue piece; a list of squares means any of them);
//   refused   text the core's reason contains (`"(R3.5)"`): the goal is to see the rule refuse
//             the turn.
//
// A step may also list `misses`: wrong answers it knows, each `{"if": alternative, "say": key}`,
// so that the feedback names what differs from the goal (a Reporter that stopped beside its
// target but killed nobody is told so, not told to stop beside it). The first that holds gives
// the words' key; a wrong answer none describes gets the step's `wrong`.

import { parseTurn } from '../board/picker.js';

/**
 * @typedef {object} Outcome
 * @property {string} [turn]      the turn played (canonical), when the server accepted it
 * @property {any[]} [effects]    its effects as sent (pieces as codes)
 * @property {string} [refused]   the core's reason, when the server refused it
 */

/**
 * Whether one wanted value matches what happened: equal strings, a piece code with `?`
 * wildcards, any of a list (for a single value), every one of a list (for a list).
 * @param {any} want @param {any} got
 * @returns {boolean}
 */
export function valueMatches(want, got) {
  if (Array.isArray(want)) {
    if (Array.isArray(got)) return want.every((w) => got.some((g) => valueMatches(w, g)));
    return want.some((w) => valueMatches(w, got));
  }
  if (want !== null && typeof want === 'object') {
    return got !== null && typeof got === 'object' && Object.entries(want).every(([k, v]) => valueMatches(v, got[k]));
  }
  if (typeof want === 'string' && typeof got === 'string' && want.includes('?') && want.length === got.length) {
    return [...want].every((c, i) => c === '?' || c === got[i]);
  }
  return want === got;
}

/**
 * Whether an outcome meets one alternative of a goal.
 * @param {Record<string, any>} alt @param {Outcome} outcome
 */
export function meetsAlternative(alt, outcome) {
  if ('refused' in alt) return typeof outcome.refused === 'string' && outcome.refused.includes(String(alt.refused));
  if (typeof outcome.turn !== 'string') return false;
  const parts = /** @type {Record<string, any> | null} */ (parseTurn(outcome.turn));
  if (!parts) return false;
  for (const [key, want] of Object.entries(alt)) {
    if (key === 'effects') {
      const fx = Array.isArray(outcome.effects) ? outcome.effects : [];
      if (!Array.isArray(want) || !want.every((w) => fx.some((e) => valueMatches(w, e)))) return false;
    } else if (['from', 'to', 'victim', 'exit', 'place'].includes(key)) {
      if (!valueMatches(want, parts[key])) return false;
    } else {
      return false; // an unknown requirement never holds (the lessons' test catches typos)
    }
  }
  return true;
}

/**
 * Whether an outcome meets a goal (any alternative).
 * @param {Record<string, any>[]} goal @param {Outcome} outcome
 */
export function meetsGoal(goal, outcome) {
  return Array.isArray(goal) && goal.some((alt) => meetsAlternative(alt, outcome));
}

/**
 * Whether a goal asks to see a turn refused (the step then lets any piece go anywhere).
 * @param {Record<string, any>[]} goal
 */
export function wantsRefusal(goal) {
  return Array.isArray(goal) && goal.some((alt) => 'refused' in alt);
}

/**
 * The rule clauses a reason cites, e.g. ["R3.3", "R3.4"] for "(R3.3, R3.4)".
 * @param {string} reason
 * @returns {string[]}
 */
export function citedRules(reason) {
  return [...String(reason).matchAll(/\bR\d+(?:\.\d+)?[a-z]?\b/g)].map((m) => m[0]);
}

/**
 * The key of the step's words that answers an outcome: `done` when it meets the goal, else the
 * first of the step's `misses` that describes it, else `wrong`.
 * @param {{goal: Record<string, any>[], misses?: {if: Record<string, any>, say: string}[]}} step
 * @param {Outcome} outcome
 * @returns {string}
 */
export function feedbackKey(step, outcome) {
  if (meetsGoal(step.goal, outcome)) return 'done';
  for (const miss of step.misses || []) {
    if (meetsAlternative(miss.if, outcome)) return miss.say;
  }
  return 'wrong';
}
