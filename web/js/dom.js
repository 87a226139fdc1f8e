// A tiny element builder. Strings become text nodes, never markup: user text (names, chat) can
// therefore be passed straight in.

/**
 * @typedef {Node | string | number | null | undefined | false} Child
 * @typedef {Record<string, any>} Attrs
 */

/**
 * Builds an element: `h('button', {class: 'x', onclick: f}, 'Text')`.
 * Attributes: `class`, `text` (textContent), `on<event>` (listeners), `dataset`, `style` (object),
 * booleans (set when true), anything else with setAttribute.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = Array.isArray(v) ? v.filter(Boolean).join(' ') : v;
    else if (k === 'text') e.textContent = String(v);
    else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k === 'style' && typeof v === 'object') Object.assign(e.style, v);
    else if (v === true) e.setAttribute(k, '');
    else if (k === 'value' && 'value' in e) /** @type {any} */ (e).value = v;
    else e.setAttribute(k, String(v));
  }
  append(e, children);
  return e;
}

/**
 * Builds an SVG element: `svg('line', {x1: 0, y1: 0, x2: 9, y2: 9, class: 'x'})`. Attributes are
 * set as given (`text` is the element's text); children are appended.
 * @param {string} tag
 * @param {Record<string, string | number | null | undefined>} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, ...children) {
  const e = /** @type {SVGElement} */ (document.createElementNS('http://www.w3.org/2000/svg', tag));
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === 'text') e.textContent = String(v);
    else e.setAttribute(k, String(v));
  }
  append(e, children);
  return e;
}

/**
 * @param {Element} parent
 * @param {(Child | Child[])[]} children
 */
export function append(parent, children) {
  for (const c of children.flat(3)) {
    if (c === null || c === undefined || c === false) continue;
    parent.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/**
 * Replaces an element's children.
 * @param {Element} parent
 * @param {...(Child | Child[])} children
 */
export function replace(parent, ...children) {
  parent.replaceChildren();
  append(parent, children);
}

/**
 * A short message at the bottom of the screen, read out by screen readers.
 * @param {string} text
 * @param {'info'|'error'|'ok'} [kind]
 */
export function toast(text, kind = 'info') {
  const box = document.getElementById('toasts');
  if (!box) return;
  const el = h('div', { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
  box.append(el);
  setTimeout(() => el.classList.add('leaving'), 4200);
  setTimeout(() => el.remove(), 4700);
}

/**
 * Copies text to the clipboard, with a fallback for insecure origins.
 * @param {string} text
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = h('textarea', { style: { position: 'fixed', opacity: '0' } });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch { /* ignore */ }
    ta.remove();
    return ok;
  }
}

/**
 * Asks a yes/no question in a modal dialog.
 * @param {{title: string, body: string, ok: string, cancel: string, danger?: boolean}} q
 * @returns {Promise<boolean>}
 */
export function confirmDialog(q) {
  return new Promise((resolve) => {
    const dlg = h('dialog', { class: 'dialog', 'aria-labelledby': 'dlg-title' },
      h('h2', { id: 'dlg-title', text: q.title }),
      h('p', { text: q.body }),
      h('form', { method: 'dialog', class: 'dialog-actions' },
        h('button', { value: 'cancel', class: 'btn', autofocus: true, text: q.cancel }),
        h('button', { value: 'ok', class: q.danger ? 'btn btn-danger' : 'btn btn-primary', text: q.ok }),
      ),
    );
    dlg.addEventListener('close', () => {
      resolve(dlg.returnValue === 'ok');
      dlg.remove();
    });
    document.body.append(dlg);
    dlg.showModal();
  });
}
