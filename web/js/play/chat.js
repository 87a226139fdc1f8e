// The chat panel: public messages for everyone at the table, whispers between two players
// (bots are not whispered to), and the spectators' room: spectators talk there, and a player
// reads it only after opening it (PROTOCOL §3.2). Every message is shown with textContent only. Messages that come
// while the panel is out of sight (another tab, scrolled away, the list not at its end, the
// browser tab hidden) are counted unread until it is read.

import { h, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { armySwatch, eyeIcon } from '../board/pieces.js';

const MAX_LEN = 500;

export class ChatPanel {
  /**
   * @param {object} o
   * @param {() => string | null} o.me          the viewer's seat, null for a spectator
   * @param {() => any[]} o.seats               the game's seats
   * @param {(text: string, to: string | null) => Promise<any>} o.onSend
   * @param {() => boolean} [o.shown]          whether the panel is shown (its tab chosen)
   * @param {(n: number) => void} [o.onUnread]  told the unread count when it changes
   * @param {(open: boolean) => void} [o.onRoom] a player opens or closes the spectators' room
   * @param {() => boolean} [o.playersPublic]   whether spectators read the players' chat
   */
  constructor(o) {
    this.o = o;
    this.unread = 0;
    this.badge = h('span', { class: 'badge unread-badge', hidden: true });
    /** @type {any[]} */
    this.messages = [];
    this.online = true;
    this.to = '';
    /** Whether this player opened the spectators' room (closed by default). */
    this.roomOpen = false;
    /** @type {HTMLInputElement | null} the message being written (kept when the panel redraws) */
    this.input = null;
    this.list = h('ol', { class: 'chat-list', 'aria-live': 'polite', 'aria-relevant': 'additions' });
    this.element = h('section', { class: 'panel chat', 'aria-labelledby': 'chat-title' });
    this.list.addEventListener('scroll', () => this.seen());
    document.addEventListener('visibilitychange', () => this.seen());
    if ('IntersectionObserver' in window) new IntersectionObserver(() => this.seen(), { threshold: 0.5 }).observe(this.list);
    this.render();
  }

  /** Whether the person can be reading the latest messages now. */
  reading() {
    if (document.hidden || !this.element.isConnected || (this.o.shown && !this.o.shown())) return false;
    const r = this.list.getBoundingClientRect();
    if (r.height === 0 || r.bottom < 40 || r.top > window.innerHeight - 40) return false;
    return this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
  }

  /** The panel came into sight (a tab chosen, scrolled to): what is there is read. */
  seen() {
    if (this.unread && this.reading()) this.setUnread(0);
  }

  /** @param {number} n */
  setUnread(n) {
    this.unread = n;
    this.badge.hidden = !n;
    this.badge.textContent = String(n);
    this.badge.setAttribute('aria-label', t('chat.unread', { n }));
    if (this.o.onUnread) this.o.onUnread(n);
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

  /**
   * A message came: shown, and counted unread unless it is ours or read at once. Returns whether
   * it is someone else's new message (its sound).
   * @param {any} m
   */
  add(m) {
    if (!this.insert(m)) return false;
    this.drawList();
    const mine = m.from && m.from === this.o.me();
    if (!mine && !this.reading()) this.setUnread(this.unread + 1);
    return !mine;
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
      const room = !m.from && me ? 'from-spectators' : '';
      return h('li', { class: ['chat-msg', whisper ? 'whisper' : '', m.from === me ? 'mine' : '', room], title: m.at || '' },
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
    // Bots do not read: no whispers to their seats.
    const others = this.o.seats().filter((s) => s.player !== me && !s.bot);
    if (this.to && !others.some((s) => s.player === this.to)) this.to = '';
    // A redraw (reconnection, a seat changing hands) keeps what is being written, and its focus.
    const old = this.input;
    const hadFocus = !!old && document.activeElement === old;
    const input = /** @type {HTMLInputElement} */ (h('input', {
      type: 'text', name: 'chat', maxlength: String(MAX_LEN), autocomplete: 'off',
      placeholder: me ? t('chat.placeholder') : t('chat.spectator'),
      disabled: !this.online, 'aria-label': me ? t('chat.placeholder') : t('chat.spectator'),
    }));
    if (old) input.value = old.value;
    this.input = input;
    // A player opens the spectators' room; a spectator is told where their words go.
    const room = me
      ? h('button', {
        type: 'button', class: ['btn', 'btn-small', 'btn-ghost', 'room-toggle'], 'aria-pressed': String(this.roomOpen),
        disabled: !this.online, text: this.roomOpen ? t('chat.room_close') : t('chat.room_open'),
        onclick: () => {
          this.roomOpen = !this.roomOpen;
          if (this.o.onRoom) this.o.onRoom(this.roomOpen);
          this.render();
        },
      })
      : null;
    const note = me
      ? (this.roomOpen ? t('chat.room_opened') : null)
      : (this.o.playersPublic && !this.o.playersPublic() ? t('chat.spectators_only_private') : t('chat.spectators_only'));
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
          // Given back to the field shown now (the panel may have been redrawn meanwhile).
          const shown = this.input || input;
          if (!shown.value) shown.value = text;
          toast(/** @type {any} */ (err).message || t('errors.internal'), 'error');
        }
        (this.input || input).focus();
      },
    }, select, input, h('button', { type: 'submit', class: 'btn btn-small btn-primary', disabled: !this.online, text: t('chat.send') }));
    if (!select) form.classList.add('no-select');
    replace(this.element,
      h('h2', { id: 'chat-title', class: 'panel-title' }, h('span', { text: t('chat.title') }), ' ', this.badge),
      room || note ? h('div', { class: 'chat-room' }, note ? h('p', { class: 'muted small chat-room-note', text: note }) : null, room) : null,
      this.list,
      form);
    if (hadFocus && !input.disabled) input.focus();
    this.drawList();
  }
}
