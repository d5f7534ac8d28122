import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { constants } from '@numa/contract';
import { useChatsUi } from '../state/ui';

/** A key press in a field the user types into (shortcuts other than the documented ones stay out). */
export const isTyping = (el: EventTarget | null) =>
  el instanceof HTMLElement &&
  !!el.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="textbox"]');

/**
 * The message search box above the chat list (issue 22 §1). Deliberately small (it is part of the
 * chats' first load): a native search field; what it asks for goes to the chat screen's state once
 * the user pauses typing, and the results list (SearchResults) is a chunk of its own. `/` (when not
 * typing) or Ctrl+K / ⌘K focuses it; Escape clears it.
 */
export function SearchBox() {
  const { t } = useTranslation();
  const setSearch = useChatsUi((s) => s.setSearch);
  const [text, setText] = useState(() => useChatsUi.getState().search);
  const ref = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const q = text.trim();
    const id = window.setTimeout(() => setSearch(q), q ? 250 : 0);
    return () => window.clearTimeout(id);
  }, [text, setSearch]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey) return;
      const ctrlK = (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k';
      const slash = e.key === '/' && !e.ctrlKey && !e.metaKey && !isTyping(e.target);
      if (!ctrlK && !slash) return;
      e.preventDefault();
      ref.current?.focus();
      ref.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div role="search" className="chats-search">
      <input
        ref={ref}
        type="search"
        className="chats-search-input"
        value={text}
        maxLength={constants.searchQueryMax}
        placeholder={t('chats.search.placeholder')}
        aria-label={t('chats.search.label')}
        aria-keyshortcuts="/ Control+K"
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && text) {
            e.preventDefault();
            e.stopPropagation();
            setText('');
            setSearch('');
          }
        }}
      />
    </div>
  );
}
