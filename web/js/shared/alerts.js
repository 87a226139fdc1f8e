// Telling a player that its turn has come: a short chime made with WebAudio (no sound file)
// and a mark in the tab's title, each of which can be turned off (remembered in localStorage),
// and a system notification when the tab is hidden (unless the notification settings turn
// "your turn" off). Browsers allow sound and notification prompts only after a person's gesture,
// so the audio is unlocked on the first click or key and permission is asked from a button,
// never on load.

import { loadNotifySettings } from './notifysettings.js';
import { activeRegistration } from '../serviceworker.js';

const SOUND_KEY = 'djambi.sound';
const TITLE_KEY = 'djambi.titleAlert';

/** Whether the turn chime is on (the default). */
export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) !== '0'; } catch { return true; }
}

/**
 * Turns the chime on or off, for this browser.
 * @param {boolean} on
 */
export function setSound(on) {
  try { localStorage.setItem(SOUND_KEY, on ? '1' : '0'); } catch { /* ignore */ }
}

/** Whether the tab's title is marked while it is this browser's turn (the default). */
export function titleAlertOn() {
  try { return localStorage.getItem(TITLE_KEY) !== '0'; } catch { return true; }
}

/**
 * Turns the title's mark on or off, for this browser.
 * @param {boolean} on
 */
export function setTitleAlert(on) {
  try { localStorage.setItem(TITLE_KEY, on ? '1' : '0'); } catch { /* ignore */ }
}

/** @type {AudioContext | null} */
let audio = null;

/** The audio context, made (or resumed) inside a gesture so that it may play later. */
function unlock() {
  const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
  if (!Ctx) return;
  try {
    if (!audio) audio = new Ctx();
    if (audio.state === 'suspended') audio.resume().catch(() => { /* still locked */ });
  } catch { /* no audio */ }
}

let listening = false;

/** Unlocks the audio on the page's first click or key press (once). */
export function unlockAudioOnGesture() {
  if (listening) return;
  listening = true;
  const once = () => {
    unlock();
    document.removeEventListener('pointerdown', once, true);
    document.removeEventListener('keydown', once, true);
  };
  document.addEventListener('pointerdown', once, true);
  document.addEventListener('keydown', once, true);
}

/** Plays the turn chime (two soft rising notes), unless muted. Returns whether it played. */
export function chime() {
  if (!soundOn()) return false;
  unlock();
  if (!audio) return false;
  const start = audio.currentTime + 0.02;
  for (const [i, freq] of [[0, 659.25], [1, 987.77]]) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    const at = start + i * 0.14;
    osc.type = 'sine';
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.32);
    osc.connect(gain).connect(audio.destination);
    osc.start(at);
    osc.stop(at + 0.34);
  }
  return true;
}

/**
 * The state of notifications for this site: 'unsupported', 'default' (not asked yet),
 * 'granted' or 'denied'.
 * @returns {'unsupported' | NotificationPermission}
 */
export function notificationState() {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/**
 * Asks for permission to notify (call it from a click).
 * @returns {Promise<'unsupported' | NotificationPermission>}
 */
export async function askNotifications() {
  if (typeof Notification === 'undefined') return 'unsupported';
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

/**
 * Shows a system notification if the tab is hidden, notifications are allowed and this kind is
 * on in the settings. Through the service worker when one is active (a click on it then focuses
 * this game's tab, as for a push message), else from the page. Resolves to whether one was shown.
 * @param {{game: string, kind: string, title: string, body: string}} n
 */
export async function notifyIfHidden({ game, kind, title, body }) {
  if (!document.hidden || notificationState() !== 'granted') return false;
  const settings = /** @type {Record<string, boolean>} */ (await loadNotifySettings());
  if (settings[kind] === false) return false;
  const options = { body, tag: `${game}:${kind}`, icon: '/icons/icon-192.png', data: { game } };
  try {
    const reg = await activeRegistration();
    if (reg) {
      await reg.showNotification(title, options);
      return true;
    }
    const n = new Notification(title, options);
    n.onclick = () => {
      window.focus();
      n.close();
    };
    return true;
  } catch {
    return false;
  }
}
