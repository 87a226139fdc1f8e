// Will friends be able to open the invite links? The server writes them with its public URL
// (`--public-url`), else with the address the browser used (PROTOCOL §2, README "Playing with
// friends"). Links to localhost work only on the server's own computer. Pure: no DOM.

/**
 * Whether a host name is this computer only (localhost, 127.0.0.0/8, ::1).
 * @param {string} host  a URL's hostname (IPv6 in brackets or not)
 */
export function isLoopbackHost(host) {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h) || h === '::1' || h === '0:0:0:0:0:0:0:1';
}

/**
 * What to tell the creator about an invite link seen from a page:
 * - `elsewhere`: the link points at localhost but the page was opened from another address, so
 *   the link works for nobody but the server's computer (start it with `--public-url`);
 * - `local`: page and link are both on this computer: friends on other devices cannot open it
 *   (`--bind 0.0.0.0` or `--public-url`);
 * - null: the link names an address others may reach.
 * @param {string} link      an invite URL
 * @param {{hostname: string, origin: string}} page  the page's location
 * @returns {{kind: 'elsewhere' | 'local', linkHost: string, pageOrigin: string} | null}
 */
export function linkWarning(link, page) {
  let url;
  try { url = new URL(link); } catch { return null; }
  if (!isLoopbackHost(url.hostname)) return null;
  const kind = isLoopbackHost(page.hostname) ? 'local' : 'elsewhere';
  return { kind, linkHost: url.host, pageOrigin: page.origin };
}
