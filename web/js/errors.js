// Errors as sentences for people: the protocol's machine codes (PROTOCOL §1, §3.2) looked up in
// the dictionary, else the server's own message.

import { t } from './i18n.js';

/**
 * An error as a sentence for people. `prefix` names a dictionary section to look in first
 * (e.g. `create.errors`, where the creator's actions say `bad_token` in their own words).
 * @param {any} e  an ApiError, a socket error message, or anything thrown
 * @param {string} [prefix]
 * @returns {string}
 */
export function errorText(e, prefix) {
  const code = e && e.code ? String(e.code) : 'internal';
  for (const section of [prefix, 'errors']) {
    if (!section) continue;
    const key = `${section}.${code}`;
    const known = t(key);
    if (known !== key) return known;
  }
  return (e && e.message) || t('errors.internal');
}
