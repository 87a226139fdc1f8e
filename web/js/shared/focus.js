// Redrawing a part of a page without losing the keyboard's place in it.

/**
 * Runs `draw` (which replaces the children of `root`), then puts the focus back on the field of
 * the same name (and value, for radio buttons) if one inside `root` had it.
 * @param {HTMLElement} root
 * @param {() => void} draw
 */
export function keepFocus(root, draw) {
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const inside = Boolean(active && active !== root && root.contains(active));
  const name = inside && active ? active.getAttribute('name') : null;
  const cls = inside && active ? active.getAttribute('class') : null;
  const value = inside && active && 'value' in active ? String(/** @type {HTMLInputElement} */ (active).value) : null;
  draw();
  if (!inside) return;
  /** @type {HTMLElement[]} */
  let same = [];
  if (name) same = [...root.querySelectorAll(`[name="${CSS.escape(name)}"]`)].map((x) => /** @type {HTMLElement} */ (x));
  else if (cls) same = [...root.querySelectorAll(active?.tagName || '*')].map((x) => /** @type {HTMLElement} */ (x)).filter((x) => x.getAttribute('class') === cls);
  const target = same.find((x) => 'value' in x && String(/** @type {HTMLInputElement} */ (x).value) === value) || same[0];
  if (target) target.focus();
}
