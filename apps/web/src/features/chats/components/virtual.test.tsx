import { act, render, renderHook, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatListItem, Message } from '@numa/contract';
import '../../../lib/i18n';
import { useRowsVirtualizer } from '../../../lib/useRowsVirtualizer';
import { buildRows } from '../logic/rows';
import { ChatListStore } from '../state/chatList';
import { Convo } from '../state/convo';
import type { ChatService } from '../state/service';
import { CHAT_ROW_HEIGHT, ChatList } from './ChatList';
import { MessageView } from './MessageView';

/*
 * jsdom lays nothing out: give the scroll containers a size (the virtualiser reads clientWidth and
 * clientHeight) so it renders what a 700 px high pane would, and each measured row 56 px (offsetHeight).
 */
const offsetHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight')!;
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 700 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 340 });
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get: () => 56 });
  // a scroller's content height: its sizer's (the virtual list's total size)
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return (
        Number.parseFloat(
          (this.querySelector<HTMLElement>('[style*="height"]')?.style.height ?? '0').replace('px', ''),
        ) || 0
      );
    },
  });
  Element.prototype.scrollTo = function (this: Element, opts?: ScrollToOptions | number) {
    if (typeof opts === 'object' && opts.top !== undefined) this.scrollTop = opts.top;
  } as Element['scrollTo'];
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});
afterAll(() => {
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
  delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
  delete (HTMLElement.prototype as { scrollHeight?: number }).scrollHeight;
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', offsetHeight);
});

const NOW = Date.now();

const rowHeight = () => 56;

/** The i-th of a conversation's 5,000 messages, 30 s apart up to now. */
const historyMessage = (i: number): Message => ({
  smsId: `s${i}`,
  date: NOW - (5000 - i) * 30_000,
  type: 'sms',
  text: `line ${i}`,
  media: '',
  direction: i % 3 ? 'in' : 'out',
  status: 0,
  highlightTarget: '',
  highlightText: '',
});

describe('virtualised chats (10,000 chats, 5,000 messages)', () => {
  it('renders only the visible chat rows of 10,000, and follows the scroll', async () => {
    const list = new ChatListStore({ load: () => ({ counts: {}, seenUntil: null }), save: () => {} });
    const items: ChatListItem[] = Array.from({ length: 10_000 }, (_, i) => ({
      ownFullNumber: '14155550101',
      ownTelCode: '1',
      ownNumber: '4155550101',
      otherFullNumber: String(12125550000 + i),
      otherTelCode: '1',
      otherNumber: String(2125550000 + i),
      date: NOW - i * 60_000,
      text: `message ${i}`,
      media: '',
      type: 'sms',
      smsId: `m${i}`,
      direction: i % 2 ? 'out' : 'in',
    }));
    list.applyList(items, NOW, { replace: true });
    const service = { list, loadList: async () => {} } as unknown as ChatService;
    const { container } = render(<ChatList service={service} showOwn={false} onOpen={() => {}} />);
    const rows = () => container.querySelectorAll('[role="listitem"]');
    expect(rows().length).toBeGreaterThan(5);
    expect(rows().length).toBeLessThan(30);
    expect(rows()[0]!.getAttribute('aria-setsize')).toBe('10000');
    expect((container.querySelector('.chat-list-inner') as HTMLElement).style.height).toBe(
      `${10_000 * CHAT_ROW_HEIGHT}px`,
    );

    // scroll to the middle: the rows there, and still only a screenful
    const scroller = container.querySelector('.chat-list') as HTMLElement;
    await act(async () => {
      scroller.scrollTop = 5000 * CHAT_ROW_HEIGHT;
      scroller.dispatchEvent(new Event('scroll'));
    });
    const positions = Array.from(rows()).map((r) => Number(r.getAttribute('aria-posinset')));
    expect(Math.min(...positions)).toBeGreaterThan(4990);
    expect(Math.max(...positions)).toBeLessThan(5030);
    expect(rows().length).toBeLessThan(30);
    // a new message moves its chat to the top and the view still holds only a screenful of rows
    // (speed is measured in bench/, never timed in a test)
    await act(async () => list.upsert({ ...items[9_999]!, date: NOW + 1000, smsId: 'new', text: 'newest' }));
    expect(list.getSnapshot().chats[0]!.text).toBe('newest');
    expect(rows().length).toBeLessThan(30);
    await act(async () => {
      scroller.scrollTop = 0;
      scroller.dispatchEvent(new Event('scroll'));
    });
    expect(rows()[0]!.textContent).toContain('newest');
  });

  it('renders only the visible messages of a 5,000-message conversation, starting at the newest', async () => {
    const messages = Array.from({ length: 5000 }, (_, i) => historyMessage(i));
    const convo = new Convo('14155550101', '14155550102', {
      fetchPage: async () => ({ dialogList: messages, nextStartTime: null }),
      emit: () => true,
      now: () => NOW,
    });
    await convo.load();
    const service = { nearBottom: true } as unknown as ChatService;
    const { container } = render(
      <MessageView service={service} convo={convo} label="Messages" onRetry={() => {}} />,
    );
    // jsdom fires no scroll event when the view scrolls itself to the bottom; a browser does
    const scroller = container.querySelector('.msg-scroll') as HTMLElement;
    // polled with a deadline, not a fixed wait: the view's own move to the bottom, then the rows
    // there once the virtualiser has read the scroll
    await waitFor(() => expect(scroller.scrollTop).toBeGreaterThan(100_000));
    act(() => {
      scroller.dispatchEvent(new Event('scroll'));
    });
    await waitFor(() =>
      expect(
        Array.from(container.querySelectorAll('[data-testid="message"]')).map((n) =>
          n.getAttribute('data-sms-id'),
        ),
      ).toContain('s4999'),
    );
    const shown = container.querySelectorAll('[data-testid="message"]');
    expect(convo.getSnapshot().messages.length).toBe(5000);
    expect(shown.length).toBeGreaterThan(3);
    expect(shown.length).toBeLessThan(60);
    // the newest message is among those shown
    const ids = Array.from(shown).map((n) => n.getAttribute('data-sms-id'));
    expect(ids).toContain('s4999');
  });

  it('lays the rows out again when they change, not at every render (useRowsVirtualizer)', () => {
    const messages = Array.from({ length: 5000 }, (_, i) => historyMessage(i));
    const rows = buildRows(messages);
    const scrollRef = { current: null };
    const { result, rerender } = renderHook(({ rows }) => useRowsVirtualizer(rows, scrollRef, rowHeight, 8), {
      initialProps: { rows },
    });
    // the layout as a render reads it (the list's height), and the measurements it made
    const layout = () => {
      result.current.getTotalSize();
      return result.current.measurementsCache;
    };
    const first = layout();
    expect(first).toHaveLength(rows.length);
    // a render for anything else (a scroll, a measured row, the clock's minute): the same layout
    rerender({ rows });
    expect(layout()).toBe(first);
    // a message more: laid out again, the rows before it where they were
    const more = buildRows([...messages, historyMessage(5000)]);
    rerender({ rows: more });
    const next = layout();
    expect(next).not.toBe(first);
    expect(next).toHaveLength(more.length);
    expect(next[rows.length - 1]!.start).toBe(first[rows.length - 1]!.start);
    expect(next[next.length - 1]!.key).toBe('s5000');
  });
});
