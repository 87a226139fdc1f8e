// Errors as sentences for people: the protocol's machine codes (PROTOCOL §1, §3.2) looked up in
// the dictionary, else the server's own message. A `bad_request` carries its reason in its
// message, often after the path of the field it is about (`names.r: the name "Host" is taken or
// reserved`): `fieldError` splits the two, so a form can show the reason next to that field.

import { t } from './i18n.js';

/** The wrapper the server's JSON parser puts around its reason, not meant for people. */
const PARSER_PREFIX = /^Failed to deserialize the JSON body into the target type: /;
/** `path.of.field: reason` (lowercase paths with dots, as the server's validation writes them). */
const FIELD = /^([a-z_]+(?:\.[a-z_0-9]+)*): (.+)$/s;
/** The parser's position note at the end of its reason. */
const AT_LINE = / at line \d+ column \d+$/;

/**
 * The server's reason for refusing a request, and the field it names if it names one.
 * @param {any} e  an ApiError, a socket error message, or anything thrown
 * @returns {{field: string | null, text: string}}
 */
export function fieldError(e) {
  const message = String((e && e.message) || '').replace(PARSER_PREFIX, '').replace(AT_LINE, '').trim();
  const m = FIELD.exec(message);
  return m ? { field: m[1], text: m[2] } : { field: null, text: message };
}

/**
 * An error as a sentence for people. `prefix` names a dictionary section to look in first
 * (e.g. `create.errors`, where the creator's actions say `bad_token` in their own words).
 * A refused request says why in the server's words: its reason is worth more than "the server
 * did not understand".
 * @param {any} e  an ApiError, a socket error message, or anything thrown
 * @param {string} [prefix]
 * @returns {string}
 */
export function errorText(e, prefix) {
  const code = e && e.code ? String(e.code) : 'internal';
  if (code === 'bad_request' && e.message) {
    const { field, text } = fieldError(e);
    if (text) return field ? `${field}: ${text}` : text;
  }
  for (const section of [prefix, 'errors']) {
    if (!section) continue;
    const key = `${section}.${code}`;
    const known = t(key);
    if (known !== key) return known;
  }
  return (e && e.message) || t('errors.internal');
}
