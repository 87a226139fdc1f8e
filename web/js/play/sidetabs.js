// The turn list and the chat on the game page: side by side in the column beside the board on
// wide screens, two tabs (WAI-ARIA tabs: arrow keys, one tab stop) on narrow ones, where both
// below the board would push each other out of sight.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';

/** Below this width the two panels are tabs (app.css has the same number). */
export const TABS_QUERY = '(max-width: 1099px)';

export class SideTabs {
  /**
   * @param {{turns: HTMLElement, chat: HTMLElement, onShow: (which: 'turns' | 'chat') => void}} o
   *   the two panels; `onShow` is told when a tab is chosen
   */
  constructor(o) {
    this.o = o;
    /** @type {'turns' | 'chat'} */
    this.selected = 'turns';
    this.unread = 0;
    this.media = window.matchMedia(TABS_QUERY);
    o.turns.id = 'turns-panel';
    o.chat.id = 'chat-panel';
    this.tabs = {
      turns: this.tab('turns', 'game.turns'),
      chat: this.tab('chat', 'chat.title'),
    };
    this.element = h('div', { class: 'side-tabs', role: 'tablist' }, this.tabs.turns, this.tabs.chat);
    this.media.addEventListener('change', () => this.apply());
    this.relabel();
  }

  /** @param {'turns' | 'chat'} which @param {string} key */
  tab(which, key) {
    return h('button', {
      type: 'button', role: 'tab', id: `${which}-tab`, class: 'side-tab', 'aria-controls': `${which}-panel`, dataset: { which, key },
      onclick: () => this.select(which, false),
      onkeydown: (/** @type {KeyboardEvent} */ e) => {
        if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) return;
        e.preventDefault();
        const next = e.key === 'Home' ? 'turns' : e.key === 'End' ? 'chat' : (which === 'turns' ? 'chat' : 'turns');
        this.select(next, true);
      },
    });
  }

  /** Whether the panels are tabs now (a narrow screen). */
  tabbed() {
    return this.media.matches;
  }

  /** Whether the chat panel is shown (its tab chosen, or no tabs). */
  chatShown() {
    return !this.tabbed() || this.selected === 'chat';
  }

  /** @param {'turns' | 'chat'} which @param {boolean} focus */
  select(which, focus) {
    this.selected = which;
    this.apply();
    if (focus) this.tabs[which].focus();
    this.o.onShow(which);
  }

  /** The chat's unread count on its tab. @param {number} n */
  setUnread(n) {
    this.unread = n;
    this.relabel();
  }

  /** Redraws the tabs' words and count (the buttons stay, and so the focus). */
  relabel() {
    this.element.setAttribute('aria-label', t('chat.tabs'));
    for (const b of Object.values(this.tabs)) {
      const count = b.dataset.which === 'chat' && this.unread
        ? h('span', { class: 'badge unread-badge', 'aria-label': t('chat.unread', { n: this.unread }), text: String(this.unread) })
        : null;
      replace(b, h('span', { text: t(b.dataset.key || '') }), count);
    }
    this.apply();
  }

  /** Shows the chosen panel, or both on a wide screen; the tab roles only where there are tabs. */
  apply() {
    const tabbed = this.tabbed();
    this.element.hidden = !tabbed;
    for (const which of /** @type {const} */ (['turns', 'chat'])) {
      const panel = this.o[which];
      const on = this.selected === which;
      this.tabs[which].setAttribute('aria-selected', String(on));
      this.tabs[which].tabIndex = on ? 0 : -1;
      panel.classList.toggle('tab-hidden', tabbed && !on);
      if (tabbed) {
        panel.setAttribute('role', 'tabpanel');
        panel.setAttribute('aria-labelledby', `${which}-tab`);
      } else {
        panel.removeAttribute('role');
        panel.setAttribute('aria-labelledby', which === 'turns' ? 'history-title' : 'chat-title');
      }
    }
  }
}
