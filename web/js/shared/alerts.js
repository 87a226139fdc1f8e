// Telling a player what happens: sounds made with WebAudio (no sound file) — a move, a kill,
// their turn, their clock running low, a chat message — and a mark in the tab's title, each of
// which can be turned off (remembered in localStorage), and a system notification when the tab
// is hidden (unless the notification settings turn "your turn" off). Sounds are off until the
// person turns them on, and only one open tab of the site plays them (the Web Locks API elects
// it; the others stay quiet). Browsers allow sound and notification prompts only after a
// person's gesture, so the audio is unlocked on the first click or key and permission is asked
// from a button, never on load.

import { loadNotifySettings } from './notifysettings.js';
import { activeRegistration } from '../serviceworker.js';

const SOUND_KEY = 'djambi.sound';
const TITLE_KEY = 'djambi.titleAlert';

/** Whether sounds are on (off until the person turns them on). */
export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === '1'; } catch { return false; }
}

/**
 * Turns the sounds on or off, for this browser.
 * @param {boolean} on
 */
export function setSound(on) {
  try { localStorage.setItem(SOUND_KEY, on ? '1' : '0'); } catch { /* ignore */ }
  if (on) electSoundTab();
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

/**
 * Whether this tab plays the site's sounds: the one tab holding the `djambi-sounds` lock (the
 * first one open; when it closes the next one waiting gets it). Without the Web Locks API every
 * tab plays.
 */
let soundTab = typeof navigator === 'undefined' || !('locks' in navigator);
let electing = false;

/** Queues this tab for the sounds' lock (once): it plays them while it holds it, until it closes. */
function electSoundTab() {
  if (electing || soundTab || typeof navigator === 'undefined' || !('locks' in navigator)) return;
  electing = true;
  navigator.locks.request('djambi-sounds', () => {
    soundTab = true;
    // Held for the tab's life: the lock is released when the tab goes away.
    return new Promise(() => {});
  }).catch(() => { electing = false; });
}

/** Whether this tab is the one that plays the sounds (for tests and the settings). */
export function playsSounds() {
  return soundTab;
}

/**
 * The notes of each sound: [delay s, frequency Hz, length s, wave, loudness], made with
 * oscillators (a kill ends lower and darker than a move; a low clock ticks three times).
 * @type {Record<string, [number, number, number, OscillatorType, number][]>}
 */
const SOUNDS = {
  move: [[0, 520, 0.07, 'triangle', 0.16], [0.05, 390, 0.09, 'triangle', 0.12]],
  kill: [[0, 300, 0.12, 'sawtooth', 0.12], [0.08, 180, 0.22, 'triangle', 0.18]],
  turn: [[0, 659.25, 0.32, 'sine', 0.18], [0.14, 987.77, 0.32, 'sine', 0.18]],
  clock: [[0, 880, 0.06, 'square', 0.08], [0.25, 880, 0.06, 'square', 0.08], [0.5, 1175, 0.09, 'square', 0.1]],
  chat: [[0, 1318.5, 0.09, 'sine', 0.12], [0.07, 1760, 0.12, 'sine', 0.1]],
};

/** The kinds of sound, in the order the settings name them. */
export const SOUND_KINDS = /** @type {const} */ (['move', 'kill', 'turn', 'clock', 'chat']);

/**
 * Plays one of the site's sounds, if sounds are on and this is the tab that plays them. Returns
 * whether it played.
 * @param {typeof SOUND_KINDS[number]} kind
 */
export function playSound(kind) {
  if (!soundOn()) return false;
  electSoundTab();
  if (!soundTab) return false;
  unlock();
  if (!audio) return false;
  const start = audio.currentTime + 0.02;
  for (const [delay, freq, length, wave, loud] of SOUNDS[kind] || []) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    const at = start + delay;
    osc.type = wave;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(loud, at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    osc.connect(gain).connect(audio.destination);
    osc.start(at);
    osc.stop(at + length + 0.02);
  }
  try { document.dispatchEvent(new CustomEvent('djambi:sound', { detail: kind })); } catch { /* ignore */ }
  return true;
}

/**
 * The sound of a game event: a kill (a piece killed, or a Chief encircled) or a move; none for a
 * pass or anything that is not a turn.
 * @param {any} event
 * @returns {'kill' | 'move' | null}
 */
export function turnSoundOf(event) {
  if (!event || event.kind !== 'turn' || event.turn === 'pass') return null;
  const fx = Array.isArray(event.effects) ? event.effects : [];
  return fx.some((/** @type {any} */ e) => e.type === 'killed' || e.type === 'encircled') ? 'kill' : 'move';
}

/** Plays a turn's sound (turnSoundOf), if any. @param {any} event */
export function playTurnSound(event) {
  const kind = turnSoundOf(event);
  return kind ? playSound(kind) : false;
}

/** Plays the turn chime (two soft rising notes), when sounds are on. Returns whether it played. */
export function chime() {
  return playSound('turn');
}

// A tab whose person turned sounds on queues for the lock as soon as it opens.
if (soundOn()) electSoundTab();

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
