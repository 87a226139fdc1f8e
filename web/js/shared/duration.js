// Time left (a correspondence deadline, a turn's time) in one format on every page, in the
// page's language: "12:34" under an hour (minutes and seconds, as a clock), "23 h 59 min" under a
// day, "2 d 3 h" beyond. Pure: the dictionary's `t` is passed in, so unit tests run it in Node.

/**
 * @param {number} ms  milliseconds left (below zero reads as none)
 * @param {(key: string, vars?: Record<string, any>) => string} t
 * @returns {string}
 */
export function timeLeftText(ms, t) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return h ? t('clock.days', { d, h }) : t('clock.days_only', { d });
  return m ? t('clock.hours', { h, m }) : t('clock.hours_only', { h });
}
