import { memo, Suspense, useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { lazyNamed } from '../../../components/lazy';
import { Loading } from '../../../components/Spinner';
import { currentLang } from '../../../lib/i18n';
import { useRowsVirtualizer } from '../../../lib/useRowsVirtualizer';
import { useContactName } from '../extensions';
import { dateLabel } from '../logic/dates';
import { formatFullNumber } from '../logic/number';
import { unreadText } from '../logic/unread';
import type { ChatEntry } from '../state/chatList';
import { useChatList } from '../state/hooks';
import { previewText, type ChatService } from '../state/service';
import { useChatsUi } from '../state/ui';
import { Avatar } from './Avatar';
import { useNow } from './useNow';

const ChatMenu = lazyNamed(() => import('./ChatMenu'), 'ChatMenu');

export const CHAT_ROW_HEIGHT = 72;
const chatRowHeight = () => CHAT_ROW_HEIGHT;

interface RowProps {
  chat: ChatEntry;
  index: number;
  count: number;
  selected: boolean;
  unread: number;
  showOwn: boolean;
  now: number;
  /** Where the virtual list puts the row (a number, so the memoised row is not rendered again for a new style object). */
  top: number;
  onOpen(key: string): void;
  onMenu(key: string, x: number, y: number): void;
}

const ChatRow = memo(function ChatRow({
  chat,
  index,
  count,
  selected,
  unread,
  showOwn,
  now,
  top,
  onOpen,
  onMenu,
}: RowProps) {
  const { t } = useTranslation();
  const name = useContactName(chat.otherFullNumber);
  const title = name ?? formatFullNumber(chat.otherFullNumber);
  const preview = previewText(chat);
  const words = { yesterday: t('chats.time.yesterday') };
  return (
    <div
      role="listitem"
      aria-setsize={count}
      aria-posinset={index + 1}
      className="chat-row-wrap"
      style={{ transform: `translateY(${top}px)`, height: CHAT_ROW_HEIGHT }}
    >
      <Button
        className={`chat-row ${selected ? 'selected' : ''} ${unread > 0 ? 'has-unread' : ''}`}
        data-index={index}
        data-key={chat.key}
        aria-current={selected ? 'true' : undefined}
        onPress={() => onOpen(chat.key)}
        onKeyDown={(e) => {
          if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
            e.preventDefault();
            const r = (e.target as HTMLElement).getBoundingClientRect();
            onMenu(chat.key, r.left + 24, r.top + r.height / 2);
          } else {
            e.continuePropagation();
          }
        }}
      >
        <Avatar name={name} number={chat.otherFullNumber} />
        <span className="chat-row-body">
          <span className="chat-row-top">
            <span className="chat-row-title">{title}</span>
            <span className="chat-row-time">{dateLabel(chat.date, now, currentLang(), words)}</span>
          </span>
          <span className="chat-row-bottom">
            <span className="chat-row-preview">
              {chat.direction === 'out' && preview ? (
                <span className="muted">{t('chats.list.you')}</span>
              ) : null}
              {chat.type === 'verificationCode' && (
                <span className="chat-tag">{t('chats.message.verificationCode')}</span>
              )}
              {preview}
            </span>
            {unread > 0 && (
              <span
                className="chat-unread"
                aria-label={t('chats.list.unread', { count: unread, shown: unreadText(unread) })}
              >
                {unreadText(unread)}
              </span>
            )}
          </span>
          {showOwn && (
            <span className="chat-row-own">
              {t('chats.list.via', { number: formatFullNumber(chat.ownFullNumber) })}
            </span>
          )}
        </span>
      </Button>
    </div>
  );
});

/**
 * The chat list (spec 000 §2): newest first, virtualised (only the rows in view exist, so 10,000 chats
 * scroll as smoothly as 10). Right-click — or the context-menu key / Shift+F10 — opens the delete menu.
 */
export function ChatList({
  service,
  showOwn,
  onOpen,
}: {
  service: ChatService;
  showOwn: boolean;
  onOpen(key: string): void;
}) {
  const { t } = useTranslation();
  const snap = useChatList(service);
  const selectedKey = useChatsUi((s) => s.selectedKey);
  const setModal = useChatsUi((s) => s.setModal);
  const now = useNow();
  const scrollRef = useRef<HTMLDivElement>(null);
  const anchorRef = useRef<HTMLDivElement>(null);
  const [menu, setMenu] = useState<{ key: string; x: number; y: number } | null>(null);
  const chats = snap.chats;

  const virtualizer = useRowsVirtualizer(chats, scrollRef, chatRowHeight, 6);

  const openMenu = useCallback((key: string, x: number, y: number) => setMenu({ key, x, y }), []);

  // keep the anchor under the pointer for the menu's popover
  useEffect(() => {
    if (menu && anchorRef.current) {
      anchorRef.current.style.left = `${menu.x}px`;
      anchorRef.current.style.top = `${menu.y}px`;
    }
  }, [menu]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // Alt+↑ / Alt+↓ are the app's next / previous conversation (lib/shortcuts.ts)
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
    const focused = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('[data-index]');
    const at = focused ? Number(focused.dataset.index) : -1;
    const next =
      e.key === 'Home'
        ? 0
        : e.key === 'End'
          ? chats.length - 1
          : Math.max(0, Math.min(chats.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)));
    if (next < 0 || next === at) return;
    e.preventDefault();
    virtualizer.scrollToIndex(next, { align: 'auto' });
    requestAnimationFrame(() =>
      scrollRef.current?.querySelector<HTMLElement>(`[data-index="${next}"]`)?.focus(),
    );
  };

  if (snap.status === 'loading' && chats.length === 0) return <Loading label={t('chats.list.loading')} />;
  if (snap.status === 'error' && chats.length === 0) {
    return (
      <div className="error-state" role="alert">
        <p>{t('chats.list.loadFailed')}</p>
        <Button className="button" onPress={() => void service.loadList()}>
          {t('app.retry')}
        </Button>
      </div>
    );
  }
  if (chats.length === 0) {
    return (
      <div className="empty-state chat-list-empty">
        <p>
          <strong>{t('chats.list.empty')}</strong>
        </p>
        <p>{t('chats.list.emptyHint')}</p>
      </div>
    );
  }

  return (
    <>
      <div
        ref={scrollRef}
        className="chat-list"
        role="list"
        aria-label={t('chats.list.label')}
        onKeyDown={onKeyDown}
        onContextMenu={(e) => {
          const row = (e.target as HTMLElement).closest<HTMLElement>('[data-key]');
          if (!row?.dataset.key) return;
          e.preventDefault();
          openMenu(row.dataset.key, e.clientX, e.clientY);
        }}
      >
        <div className="chat-list-inner" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => {
            const chat = chats[v.index]!;
            return (
              <ChatRow
                key={chat.key}
                chat={chat}
                index={v.index}
                count={chats.length}
                selected={chat.key === selectedKey}
                unread={snap.unread[chat.key] ?? 0}
                showOwn={showOwn}
                now={now}
                top={v.start}
                onOpen={onOpen}
                onMenu={openMenu}
              />
            );
          })}
        </div>
      </div>
      <div ref={anchorRef} className="context-anchor" aria-hidden="true" />
      {menu && (
        <Suspense fallback={null}>
          <ChatMenu
            anchorRef={anchorRef}
            onClose={() => setMenu(null)}
            onDelete={() => setModal({ kind: 'delete', key: menu.key })}
          />
        </Suspense>
      )}
    </>
  );
}
