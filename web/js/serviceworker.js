// The service worker (/sw.js, the whole site in its scope): it keeps the client's files for
// quick loads, shows the offline page when the server cannot be reached, and turns push
// messages into notifications. Registered by the entry module once the page is up.

/** Registers /sw.js, if the browser has service workers (a secure context is needed). */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => { /* the page works without it */ });
}

/**
 * This page's service worker registration, if one is active.
 * @returns {Promise<ServiceWorkerRegistration | null>}
 */
export async function activeRegistration() {
  if (!('serviceWorker' in navigator)) return null;
  try {
    const reg = await navigator.serviceWorker.getRegistration();
    return reg && reg.active ? reg : null;
  } catch {
    return null;
  }
}
