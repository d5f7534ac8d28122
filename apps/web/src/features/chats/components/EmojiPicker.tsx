import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  Button,
  Dialog,
  DialogTrigger,
  Input,
  Popover,
  SearchField,
  Tooltip,
  TooltipTrigger,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { CompactEmoji } from 'emojibase';
import { Spinner } from '../../../components/Spinner';
import { storage } from '../../../lib/storage';
import { useRowsVirtualizer } from '../../../lib/useRowsVirtualizer';
import {
  emojiGroupKeys,
  emojiGroups,
  emojiRows,
  searchEmoji,
  toEmojiItems,
  type EmojiItem,
  type EmojiRow,
} from '../logic/emoji';
import { SmileIcon } from './icons';

const COLUMNS = 8;
const RECENT_KEY = 'numa.chats.recentEmoji';
const RECENT_MAX = 24;
const emojiRowHeight = (row: EmojiRow | undefined) => (row?.kind === 'header' ? 30 : 38);

/** The emojibase dataset in the interface language (a chunk of its own, loaded on first open). */
const loaders: Record<'en' | 'zh', () => Promise<{ default: CompactEmoji[] }>> = {
  en: () => import('emojibase-data/en/compact.json'),
  zh: () => import('emojibase-data/zh/compact.json'),
};
const cache = new Map<string, EmojiItem[]>();

function readRecent(): string[] {
  try {
    const v = JSON.parse(storage.get(RECENT_KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

function EmojiPanel({ onPick }: { onPick(emoji: string): void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const [items, setItems] = useState<EmojiItem[] | null>(() => cache.get(lang) ?? null);
  const [failed, setFailed] = useState(false);
  const [query, setQuery] = useState('');
  const [recent, setRecent] = useState(readRecent);
  const scrollRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (cache.has(lang)) {
      setItems(cache.get(lang)!);
      return;
    }
    let live = true;
    loaders[lang]().then(
      (m) => {
        const list = toEmojiItems(m.default);
        cache.set(lang, list);
        if (live) setItems(list);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [lang]);

  const rows = useMemo(() => {
    if (!items) return [];
    if (query.trim()) return emojiRows([{ group: 'results', items: searchEmoji(items, query) }], COLUMNS);
    const byUnicode = new Map(items.map((e) => [e.unicode, e]));
    const recentItems = recent.map((u) => byUnicode.get(u)).filter((e): e is EmojiItem => !!e);
    return emojiRows(
      [
        { group: 'recent', items: recentItems },
        ...emojiGroups.map((g) => ({ group: g, items: items.filter((e) => e.group === g) })),
      ],
      COLUMNS,
    );
  }, [items, query, recent]);

  const virtualizer = useRowsVirtualizer(rows, scrollRef, emojiRowHeight, 4);

  const pick = (e: EmojiItem) => {
    onPick(e.unicode);
    const next = [e.unicode, ...recent.filter((u) => u !== e.unicode)].slice(0, RECENT_MAX);
    storage.set(RECENT_KEY, JSON.stringify(next));
    setRecent(next);
  };

  // arrow keys move across the grid (rows of 8)
  const onKeyDown = (ev: KeyboardEvent<HTMLDivElement>) => {
    const delta = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -COLUMNS, ArrowDown: COLUMNS }[ev.key];
    const cell = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('[data-row]');
    if (!delta || !cell) return;
    ev.preventDefault();
    const row = Number(cell.dataset.row);
    const col = Number(cell.dataset.col);
    let targetRow = row;
    let targetCol = col;
    if (Math.abs(delta) === 1) targetCol += delta;
    else {
      const step = delta > 0 ? 1 : -1;
      do targetRow += step;
      while (rows[targetRow]?.kind === 'header');
    }
    const r = rows[targetRow];
    if (!r || r.kind !== 'emojis') return;
    targetCol = Math.max(0, Math.min(r.items.length - 1, targetCol));
    virtualizer.scrollToIndex(targetRow, { align: 'auto' });
    requestAnimationFrame(() =>
      scrollRef.current
        ?.querySelector<HTMLElement>(`[data-row="${targetRow}"][data-col="${targetCol}"]`)
        ?.focus(),
    );
  };

  const groupTitle = (g: number | 'recent' | 'results') =>
    g === 'recent'
      ? t('chats.emoji.recent')
      : g === 'results'
        ? t('chats.emoji.results')
        : t(`chats.emoji.groups.${emojiGroupKeys[g]}`);

  return (
    <div className="emoji-panel">
      <SearchField
        className="emoji-search"
        value={query}
        onChange={setQuery}
        aria-label={t('chats.emoji.search')}
        autoFocus
      >
        <Input className="input" placeholder={t('chats.emoji.search')} />
      </SearchField>
      {failed ? (
        <p className="emoji-note" role="alert">
          {t('chats.emoji.loadFailed')}
        </p>
      ) : !items ? (
        <p className="emoji-note">
          <Spinner size={16} /> {t('chats.emoji.loading')}
        </p>
      ) : rows.length === 0 ? (
        <p className="emoji-note">{t('chats.emoji.noResults')}</p>
      ) : (
        <div ref={scrollRef} className="emoji-scroll" onKeyDown={onKeyDown}>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => {
              const row = rows[v.index]!;
              return (
                <div
                  key={v.key}
                  className="emoji-row"
                  style={{ transform: `translateY(${v.start}px)`, height: v.size }}
                >
                  {row.kind === 'header' ? (
                    <div className="emoji-group" role="heading" aria-level={3}>
                      {groupTitle(row.group)}
                    </div>
                  ) : (
                    row.items.map((e, col) => (
                      <Button
                        key={e.unicode}
                        className="emoji-cell"
                        aria-label={e.label}
                        data-row={v.index}
                        data-col={col}
                        onPress={() => pick(e)}
                      >
                        {e.unicode}
                      </Button>
                    ))
                  )}
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}

/**
 * The emoji picker (spec 000 §2): search in the interface language (emojibase's English or Chinese
 * names and tags), recently used first, the Unicode groups below. Picking keeps it open for more.
 */
export function EmojiPicker({ onPick, isDisabled }: { onPick(emoji: string): void; isDisabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <DialogTrigger>
      <TooltipTrigger delay={500}>
        <Button
          className="icon-button composer-tool"
          aria-label={t('chats.input.emoji')}
          isDisabled={isDisabled ?? false}
        >
          <SmileIcon />
        </Button>
        <Tooltip className="chat-tooltip" offset={6}>
          {t('chats.input.emoji')}
        </Tooltip>
      </TooltipTrigger>
      <Popover placement="top start" offset={8} className="popover emoji-popover">
        <Dialog className="emoji-dialog" aria-label={t('chats.emoji.label')}>
          <EmojiPanel onPick={onPick} />
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}
