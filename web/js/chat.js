// The chat panel: public messages for everyone at the table, and whispers between two players.
// Every message is shown with textContent only.

import { h, replace, toast } from './dom.js';
import { t } from './i18n.js';
import { armySwatch, eyeIcon } from './pieces.js';

const MAX_LEN = 500;

export class ChatPanel {
  /**
   * @param {object} o
   * @param {() => string | null} o.me          the viewer's seat, null for a spectator
   * @param {() => any[]} o.seats               the game's seats
   * @param {(text: string, to: string | null) => Promise<any>} o.onSend
   */
  constructor(o) {
    this.o = o;
    /** @type {any[]} */
    this.messages = [];
    this.online = true;
    this.to = '';
    this.list = h('ol', { class: 'chat-list', 'aria-live': 'polite', 'aria-relevant': 'additions' });
    this.element = h('section', { class: 'panel chat', 'aria-labelledby': 'chat-title' });
    this.render();
  }

  /** @param {any[]} msgs */
  setMessages(msgs) {
    this.messages = [];
    for (const m of msgs) this.insert(m);
    this.drawList();
  }

  /** @param {any} m */
  insert(m) {
    if (m.id !== undefined && m.id !== null && this.messages.some((x) => x.id === m.id)) return false;
    this.messages.push(m);
    this.messages.sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
    return true;
  }

  /** The highest message id seen, for `chat_since` after a reconnect. */
  lastId() {
    let max = null;
    for (const m of this.messages) if (typeof m.id === 'number' && (max === null || m.id > max)) max = m.id;
    return max;
  }

  /** @param {any} m */
  add(m) {
    if (this.insert(m)) this.drawList();
  }

  /** @param {boolean} online */
  setOnline(online) {
    if (online === this.online) return;
    this.online = online;
    this.render();
  }

  /** @param {string} player */
  nameOf(player) {
    const s = this.o.seats().find((x) => x.player === player);
    return s && s.name ? s.name : t(`player.${player}`);
  }

  drawList() {
    const me = this.o.me();
    const items = this.messages.map((m) => {
      const whisper = m.to !== null && m.to !== undefined;
      let tag = null;
      if (whisper) {
        tag = m.from === me
          ? t('chat.whisper_to', { name: this.nameOf(m.to) })
          : t('chat.whisper_from');
      }
      return h('li', { class: ['chat-msg', whisper ? 'whisper' : '', m.from === me ? 'mine' : ''], title: m.at || '' },
        h('span', { class: 'chat-from' }, m.from ? armySwatch(m.from, 12) : h('span', { class: 'spectator-mark', title: t('chat.spectator_tag') }, eyeIcon(13)),
          h('strong', { text: m.name || (m.from ? t(`player.${m.from}`) : t('chat.spectator_tag')) })),
        tag ? h('em', { class: 'chat-tag', text: tag }) : null,
        h('span', { class: 'chat-text', text: m.text }));
    });
    if (!items.length) items.push(h('li', { class: 'chat-empty muted', text: t('chat.empty') }));
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    replace(this.list, ...items);
    if (atBottom || this.messages.length < 3) this.list.scrollTop = this.list.scrollHeight;
  }

  render() {
    const me = this.o.me();
    const others = this.o.seats().filter((s) => s.player !== me);
    const input = h('input', {
      type: 'text', name: 'chat', maxlength: String(MAX_LEN), autocomplete: 'off',
      placeholder: me ? t('chat.placeholder') : t('chat.spectator'),
      disabled: !this.online, 'aria-label': t('chat.placeholder'),
    });
    // Whispers are between players; spectators talk in public.
    const select = !me ? null : h('select', {
      name: 'to', 'aria-label': t('chat.to'), disabled: !this.online,
      onchange: (/** @type {Event} */ e) => { this.to = /** @type {HTMLSelectElement} */ (e.target).value; },
    },
    h('option', { value: '', text: t('chat.everyone') }),
    ...others.map((s) => h('option', { value: s.player, selected: this.to === s.player, text: t('chat.whisper_option', { name: s.name || t(`player.${s.player}`), player: t(`player.${s.player}`) }) })));
    if (select) select.title = t('chat.to');
    const form = h('form', {
      class: 'chat-form',
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        input.value = '';
        try {
          await this.o.onSend(text, this.to || null);
        } catch (err) {
          input.value = text;
          toast(/** @type {any} */ (err).message || t('errors.internal'), 'error');
        }
        input.focus();
      },
    }, select, input, h('button', { type: 'submit', class: 'btn btn-small btn-primary', disabled: !this.online, text: t('chat.send') }));
    if (!select) form.classList.add('no-select');
    replace(this.element,
      h('h2', { id: 'chat-title', class: 'panel-title', text: t('chat.title') }),
      this.list,
      form);
    this.drawList();
  }
}
