import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { RailTab } from '@numa/contract';
import { shortcutOf, shortcutsFor, type ShortcutId } from '../lib/shortcuts';
import { useUi } from '../stores/ui';
import { tabs } from './visibility';

/** Calls `fn` with the element once it is in the page (a tab's screen renders after its chunk loads). */
function whenThere(selector: string, fn: (el: HTMLElement) => void, onMissing?: () => void, frames = 90) {
  const el = document.querySelector<HTMLElement>(selector);
  if (el) fn(el);
  else if (frames > 0) requestAnimationFrame(() => whenThere(selector, fn, onMissing, frames - 1));
  else onMissing?.();
}

/**
 * The keyboard shortcuts of the signed-in app (issue 22 §4, registry in lib/shortcuts.ts): one
 * listener on the document. What they act on is found by `data-shortcut` (the search box, New SMS,
 * the message box) and the chat list's rows, so no screen is loaded before it is needed. Where a
 * shortcut moves the focus or the view, `announce` says where to, in the polite live region.
 */
export function useShortcuts(openHelp: () => void, announce: (text: string) => void) {
  const { t } = useTranslation();
  const navigate = useUi((s) => s.navigate);
  const latest = useRef({ t, navigate, openHelp, announce });
  latest.current = { t, navigate, openHelp, announce };

  useEffect(() => {
    const list = shortcutsFor(tabs);
    const toChats = () => {
      if (useUi.getState().tab !== 'chats') latest.current.navigate('chats');
    };
    const focusOn = (selector: string, said: string) =>
      whenThere(selector, (el) => {
        el.focus();
        if (el instanceof HTMLInputElement) el.select();
        latest.current.announce(said);
      });
    const stepChat = (by: 1 | -1) => {
      if (useUi.getState().tab !== 'chats') return;
      const current = document.querySelector<HTMLElement>('.chat-row[aria-current="true"]');
      const rows = [...document.querySelectorAll<HTMLElement>('.chat-row[data-index]')];
      if (!rows.length) return;
      const at = current ? Number(current.dataset.index) + by : by > 0 ? 0 : rows.length - 1;
      const next = document.querySelector<HTMLElement>(`.chat-row[data-index="${at}"]`);
      if (!next) return;
      next.scrollIntoView({ block: 'nearest' });
      next.click();
      next.focus();
      const title = next.querySelector('.chat-row-title')?.textContent ?? '';
      latest.current.announce(latest.current.t('app.shortcutChat', { chat: title }));
    };
    const run = (id: ShortcutId) => {
      const { t: tr } = latest.current;
      switch (id) {
        case 'help':
          latest.current.openHelp();
          return;
        case 'search':
          toChats();
          focusOn('[data-shortcut="search"]', tr('chats.search.label'));
          return;
        case 'newMessage':
          toChats();
          whenThere('[data-shortcut="newMessage"]', (el) => {
            if (el.hasAttribute('disabled') || el.getAttribute('aria-disabled') === 'true') return;
            el.click();
            latest.current.announce(tr('chats.profile.newSms'));
          });
          return;
        case 'composer':
          if (useUi.getState().tab !== 'chats') return;
          whenThere(
            '[data-shortcut="composer"]',
            (el) => {
              el.focus();
              latest.current.announce(tr('chats.input.label'));
            },
            () => latest.current.announce(tr('app.shortcutNoChat')),
            2,
          );
          return;
        case 'nextChat':
          stepChat(1);
          return;
        case 'previousChat':
          stepChat(-1);
          return;
        default: {
          const tab = id.slice('tab.'.length) as RailTab;
          latest.current.navigate(tab);
          latest.current.announce(tr(`tabs.${tab}`));
        }
      }
    };
    const onKey = (e: KeyboardEvent) => {
      const s = shortcutOf(e, list);
      if (!s) return;
      e.preventDefault();
      run(s.id);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
