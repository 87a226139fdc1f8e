// Moving between the app's pages without reloading. The router (app.js) listens for the event
// this sends, so pages can navigate without importing the entry module (no import cycle).

/** The window event that asks the router to show the page of the current path. */
export const NAVIGATE_EVENT = 'djambi:navigate';

/**
 * Goes to a path inside the app without reloading the page.
 * @param {string} path
 */
export function navigate(path) {
  history.pushState(null, '', path);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
  window.scrollTo(0, 0);
}
