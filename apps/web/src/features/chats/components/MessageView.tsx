import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants } from '@numa/contract';
import { Loading, Spinner } from '../../../components/Spinner';
import { currentLang } from '../../../lib/i18n';
import { useRowsVirtualizer } from '../../../lib/useRowsVirtualizer';
import { dateLabel } from '../logic/dates';
import { buildRows, type Row } from '../logic/rows';
import { isNearBottom } from '../logic/unread';
import type { Convo, ConvoMessage } from '../state/convo';
import { useConvo } from '../state/hooks';
import type { ChatService } from '../state/service';
import { useChatsUi } from '../state/ui';
import { ArrowDownIcon } from './icons';
import { MessageBubble } from './MessageBubble';
import { useNow } from './useNow';

/** A row's height before it is measured: a separator, a picture, or a text by its length. */
const estimate = (row: Row<ConvoMessage> | undefined) => {
  if (!row || row.kind === 'separator') return 40;
  const m = row.message;
  if (m.media || m.previewUrl) return 236;
  return 48 + Math.floor(m.text.length / 48) * 21;
};

/**
 * A conversation's messages (spec 000 §2, §4): virtualised with measured rows (5,000 messages keep only
 * the visible ones in the page), time separators over 5 minutes, older pages as the user scrolls up
 * (the scroll handler debounced 500 ms), and the view kept at the bottom when it was there.
 */
export function MessageView({
  service,
  convo,
  label,
  onRetry,
}: {
  service: ChatService;
  convo: Convo;
  label: string;
  /** Stable across renders: every shown message holds it (MessageBubble is memoised). */
  onRetry(smsId: string): void;
}) {
  const { t } = useTranslation();
  const snap = useConvo(convo);
  const now = useNow();
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => buildRows(snap.messages), [snap.messages]);
  /** The sender's newest delivered message: "Delivered" shows under it alone (issue 21). */
  const lastDelivered = useMemo(() => {
    for (let i = snap.messages.length - 1; i >= 0; i--) {
      const m = snap.messages[i]!;
      if (m.direction === 'out' && m.delivered) return m.smsId;
    }
    return null;
  }, [snap.messages]);
  const [showJump, setShowJump] = useState(false);
  const scrollTimer = useRef<number | undefined>(undefined);
  const previous = useRef<{
    firstMessage?: string | undefined;
    firstMessageStart?: number | undefined;
    last?: string | undefined;
    count: number;
  }>({ count: 0 });
  const stick = useRef(true);
  /** A search result being opened here (issue 22 §1): loaded through, then scrolled to and marked. */
  const target = useChatsUi((s) => (s.target?.key === convo.key ? s.target : null));
  const [found, setFound] = useState<{ smsId: string; scrolled: boolean } | null>(null);
  const [missing, setMissing] = useState(false);

  const virtualizer = useRowsVirtualizer(rows, scrollRef, estimate, 8);

  const toBottom = useCallback(() => {
    if (rows.length > 0) virtualizer.scrollToEnd();
  }, [rows.length, virtualizer]);

  /*
   * Keep the place (decided: done here rather than with the virtualiser's end anchoring, which holds
   * the total size while older pages arrive and so stops the view at the top): a conversation opens at
   * its newest message; a new message keeps a view that was at the bottom there, and this tab's own
   * send brings the view down to it; older pages arriving above keep what the user looks at still.
   */
  useLayoutEffect(() => {
    const before = previous.current;
    const firstMessage = rows.find((r) => r.kind === 'message');
    const last = rows[rows.length - 1];
    const startOf = (key: string | undefined) => {
      const i = key === undefined ? -1 : rows.findIndex((r) => r.key === key);
      return i < 0 ? undefined : virtualizer.measurementsCache[i]?.start;
    };
    previous.current = {
      firstMessage: firstMessage?.key,
      firstMessageStart: startOf(firstMessage?.key),
      last: last?.key,
      count: rows.length,
    };
    if (!last) return;
    const appended = last.key !== before.last;
    const ownSend = appended && last.kind === 'message' && last.message.local === true;
    if (ownSend) {
      // a send of this tab counts as at the bottom, wherever the view was
      stick.current = true;
      service.nearBottom = true;
      setShowJump(false);
    }
    if (before.count === 0 || ownSend) {
      // opening, and this tab's own send: the virtualiser's settling loop, which follows the new row
      // through its measuring, a picture's preview replaced by the server's copy and its decoding
      // (one move instead left the sender's view short of a sent picture now and then under load)
      toBottom();
      return;
    }
    if (appended && stick.current) {
      // a message came in at the bottom the view was at: one move, not the virtualiser's settling
      // loop (it read the pane's size again in each step, on the path of every incoming text); the
      // list's height and the rows' resize observer keep the bottom as the new row is measured or
      // grows (a picture)
      const el = scrollRef.current;
      if (el) el.scrollTop = el.scrollHeight;
      return;
    }
    // older messages came in above: move by how far the first message shown before moved down
    const el = scrollRef.current;
    if (el && !appended && before.firstMessage && firstMessage?.key !== before.firstMessage) {
      const now = startOf(before.firstMessage);
      if (now !== undefined && before.firstMessageStart !== undefined)
        el.scrollTop += now - before.firstMessageStart;
    }
  }, [rows, toBottom, virtualizer, service]);

  useEffect(() => () => window.clearTimeout(scrollTimer.current), []);

  useEffect(() => {
    if (!target) return;
    let live = true;
    setMissing(false);
    void convo.loadThrough(target.smsId, target.date).then((ok) => {
      if (!live) return;
      useChatsUi.getState().clearTarget();
      if (ok) setFound({ smsId: target.smsId, scrolled: false });
      else setMissing(true);
    });
    return () => {
      live = false;
    };
  }, [target, convo]);

  // once the found message is among the rows shown: bring it to the middle, and focus it, which reads
  // it out to a screen reader
  useEffect(() => {
    if (!found || found.scrolled) return;
    const i = rows.findIndex((r) => r.kind === 'message' && r.message.smsId === found.smsId);
    if (i < 0) return;
    stick.current = false;
    service.nearBottom = false;
    setShowJump(true);
    virtualizer.scrollToIndex(i, { align: 'center' });
    setFound({ smsId: found.smsId, scrolled: true });
    const focus = (tries: number) =>
      requestAnimationFrame(() => {
        const el = scrollRef.current?.querySelector<HTMLElement>(
          `[data-sms-id="${CSS.escape(found.smsId)}"]`,
        );
        if (el) el.focus({ preventScroll: true });
        else if (tries > 0) focus(tries - 1);
      });
    focus(10);
  }, [found, rows, service, virtualizer]);

  /*
   * The view at the bottom stays pinned there, before the browser paints: when the pane got shorter or
   * taller (a banner, the window) and when a rendered row grew (a picture got its height, "Delivered"
   * moved to the newest message: issue 13 §3.1, issue 20 item 10), here; when the list's height
   * changed, in the layout effect below. The rows are watched themselves because the list's height
   * follows them only once the virtualiser has measured them again, which took up to 860 ms after a
   * picture loaded (the view stopped 49–189 px short of the picture meanwhile). Unless the user has
   * scrolled up; a send of this tab is always at the bottom (the layout effect above).
   */
  const pinner = useRef<{ observer: ResizeObserver; height: number } | null>(null);
  const pin = useCallback(() => {
    if (pinner.current) return pinner.current.observer;
    if (typeof ResizeObserver === 'undefined') return null;
    const state = { observer: null as unknown as ResizeObserver, height: -1 };
    state.observer = new ResizeObserver(() => {
      const el = scrollRef.current;
      if (!el) return;
      const paneChanged = state.height >= 0 && el.clientHeight !== state.height;
      state.height = el.clientHeight;
      if (stick.current || (paneChanged && service.nearBottom)) el.scrollTop = el.scrollHeight;
    });
    pinner.current = state;
    return state.observer;
  }, [service]);
  useEffect(
    () => () => {
      pinner.current?.observer.disconnect();
      pinner.current = null;
    },
    [pin],
  );
  const hasRows = rows.length > 0;
  useEffect(() => {
    const el = scrollRef.current;
    const observer = pin();
    if (!el || !hasRows || !observer) return;
    if (pinner.current) pinner.current.height = el.clientHeight;
    observer.observe(el);
    return () => observer.unobserve(el);
  }, [hasRows, pin]);
  /*
   * The list's height (the virtualiser's total, set in a render) pins the view when it changes, in
   * the commit, before the paint. A resize observer on the list did it before and missed a change now
   * and then: a row that grew (a picture decoded) was pinned first, with the list still at its old
   * height; the virtualiser then rendered the list 12 px taller than the row's bottom (the rows' gap
   * and the pane's padding), no resize callback followed, and the view stayed 12 px short of the
   * bottom (picture-scroll.spec.ts: 4 runs in 44).
   */
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [totalSize]);
  /** A rendered row: measured by the virtualiser, and watched for growth while it is in the page. */
  const rowRef = useCallback(
    (node: HTMLDivElement | null) => {
      virtualizer.measureElement(node);
      if (!node) return;
      const observer = pin();
      observer?.observe(node);
      return () => {
        observer?.unobserve(node);
        virtualizer.measureElement(null);
      };
    },
    [virtualizer, pin],
  );

  /** The pane's last scroll position: only a move up is the user leaving the bottom. */
  const lastTop = useRef(0);
  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const movedUp = el.scrollTop < lastTop.current - 1;
    lastTop.current = el.scrollTop;
    // A scroll event can come between a row growing below (a picture measured, the list's height
    // changed) and the resize observer that pins the view again: the view is then short of the
    // bottom without the user having moved. It stays pinned unless the view moved up.
    const near = isNearBottom(el.scrollHeight, el.scrollTop, el.clientHeight) || (stick.current && !movedUp);
    stick.current = near;
    // where the first message sits now that rows above it are measured (it is row 0 or 1)
    const first = previous.current.firstMessage;
    const at = rows[0]?.key === first ? 0 : rows[1]?.key === first ? 1 : -1;
    if (at >= 0) previous.current.firstMessageStart = virtualizer.measurementsCache[at]?.start;
    service.nearBottom = near;
    setShowJump(!near);
    window.clearTimeout(scrollTimer.current);
    scrollTimer.current = window.setTimeout(() => {
      const cur = scrollRef.current;
      if (cur && cur.scrollTop < constants.nearBottomPx && convo.getSnapshot().hasOlder)
        void convo.loadOlder();
    }, constants.scrollDebounceMs);
  };

  // a new conversation starts at its bottom
  useEffect(() => {
    stick.current = true;
    service.nearBottom = true;
    setShowJump(false);
  }, [convo, service]);

  if (snap.status === 'idle' || (snap.status === 'loading' && snap.messages.length === 0)) {
    return (
      <div className="msg-area">
        <Loading label={t('chats.conversation.loading')} />
      </div>
    );
  }
  if (snap.status === 'error') {
    return (
      <div className="msg-area">
        <div className="error-state" role="alert">
          <p>{t('chats.conversation.loadFailed')}</p>
          <Button className="button" onPress={() => void convo.load()}>
            {t('app.retry')}
          </Button>
        </div>
      </div>
    );
  }

  const words = { yesterday: t('chats.time.yesterday') };
  return (
    <div className="msg-area">
      <div
        ref={scrollRef}
        className="msg-scroll"
        role="log"
        aria-label={label}
        aria-live="polite"
        aria-relevant="additions"
        onScroll={onScroll}
        tabIndex={0}
      >
        {snap.messages.length === 0 ? (
          <div className="empty-state msg-empty">
            <p>{t('chats.conversation.empty')}</p>
          </div>
        ) : (
          <>
            <div className="msg-inner" style={{ height: totalSize }}>
              {virtualizer.getVirtualItems().map((v) => {
                const row = rows[v.index]!;
                const isFound = row.kind === 'message' && row.message.smsId === found?.smsId;
                return (
                  <div
                    key={v.key}
                    data-index={v.index}
                    ref={rowRef}
                    className={isFound ? 'msg-row msg-found' : 'msg-row'}
                    {...(isFound ? { 'data-sms-id': found.smsId, tabIndex: -1 } : {})}
                    style={{ transform: `translateY(${v.start}px)` }}
                  >
                    {row.kind === 'separator' ? (
                      <div className="msg-sep" role="separator">
                        <span>{dateLabel(row.date, now, currentLang(), words, true)}</span>
                      </div>
                    ) : (
                      <MessageBubble
                        message={row.message}
                        onRetry={onRetry}
                        lastDelivered={row.message.smsId === lastDelivered}
                      />
                    )}
                  </div>
                );
              })}
            </div>
          </>
        )}
      </div>
      <p className={missing ? 'msg-older' : 'sr-only'} role="status">
        {missing ? t('messaging.search.gone') : found?.scrolled ? t('messaging.search.foundHere') : ''}
      </p>
      {(snap.loadingOlder || snap.olderFailed) && (
        <div className="msg-older">
          {snap.loadingOlder ? (
            <>
              <Spinner size={14} /> {t('chats.conversation.older')}
            </>
          ) : (
            <>
              {t('chats.conversation.olderFailed')}{' '}
              <Button className="link-button" onPress={() => void convo.loadOlder()}>
                {t('app.retry')}
              </Button>
            </>
          )}
        </div>
      )}
      {showJump && (
        <Button className="msg-jump" onPress={toBottom}>
          <ArrowDownIcon />
          {t('chats.conversation.latest')}
        </Button>
      )}
    </div>
  );
}
