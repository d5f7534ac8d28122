import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { constants } from '@numa/contract';
import { useChatsUi } from '../state/ui';

/**
 * The message search box above the chat list (issue 22 §1). Deliberately small (it is part of the
 * chats' first load): a native search field; what it asks for goes to the chat screen's state once
 * the user pauses typing, and the results list (SearchResults) is a chunk of its own. `/` (when not
 * typing) or Ctrl+K / ⌘K focuses it (the app's keyboard shortcuts, lib/shortcuts.ts); Escape clears it.
 */
export function SearchBox() {
  const { t } = useTranslation();
  const setSearch = useChatsUi((s) => s.setSearch);
  const [text, setText] = useState(() => useChatsUi.getState().search);

  useEffect(() => {
    const q = text.trim();
    const id = window.setTimeout(() => setSearch(q), q ? 250 : 0);
    return () => window.clearTimeout(id);
  }, [text, setSearch]);

  return (
    <div role="search" className="chats-search">
      <input
        type="search"
        className="chats-search-input"
        value={text}
        maxLength={constants.searchQueryMax}
        placeholder={t('chats.search.placeholder')}
        aria-label={t('chats.search.label')}
        aria-keyshortcuts="/ Control+K Meta+K"
        data-shortcut="search"
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
