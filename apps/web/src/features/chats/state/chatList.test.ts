import { describe, expect, it, vi } from 'vitest';
import type { ChatListItem } from '@numa/contract';
import { ChatListStore, type UnreadStorage } from './chatList';

const item = (other: string, date: number, over: Partial<ChatListItem> = {}): ChatListItem => ({
  ownFullNumber: '14155550101',
  ownTelCode: '1',
  ownNumber: '4155550101',
  otherFullNumber: other,
  otherTelCode: '1',
  otherNumber: other.slice(1),
  date,
  text: 'hi',
  media: '',
  type: 'sms',
  smsId: `m${date}`,
  direction: 'in',
  ...over,
});

function memory(initial: ReturnType<UnreadStorage['load']> = { counts: {}, seenUntil: null }) {
  let saved = initial;
  const s: UnreadStorage = {
    load: () => saved,
    save: (v) => (saved = JSON.parse(JSON.stringify(v)) as typeof saved),
  };
  return { s, get: () => saved };
}

describe('chat list', () => {
  it('keeps chats newest first and moves a chat to the top with its last message', () => {
    const store = new ChatListStore(memory().s);
    store.applyList([item('14155550102', 10), item('14155550103', 30), item('14155550104', 20)], 100, {
      replace: true,
    });
    expect(store.getSnapshot().chats.map((c) => c.otherFullNumber)).toEqual([
      '14155550103',
      '14155550104',
      '14155550102',
    ]);
    store.upsert(item('14155550102', 200, { text: 'new' }));
    expect(store.getSnapshot().chats[0]).toMatchObject({
      otherFullNumber: '14155550102',
      text: 'new',
      key: '14155550101-14155550102',
    });
    // an older message never replaces a newer last message
    store.upsert(item('14155550102', 150, { text: 'late' }));
    expect(store.getSnapshot().chats[0]!.text).toBe('new');
  });

  it('places a message among 5,000 chats without sorting the list again, keeping the other entries', () => {
    const store = new ChatListStore(memory().s);
    const others = Array.from({ length: 5000 }, (_, i) => item(String(12125550000 + i), 100_000 - i * 10));
    store.applyList(others, 200_000, { replace: true });
    const before = store.getSnapshot().chats;
    const sort = vi.spyOn(Array.prototype, 'sort');
    try {
      store.upsert(item('12125554999', 200_000, { text: 'to the top' })); // the last chat moves up
      store.upsert(item('12125550010', 99_905, { text: 'late' })); // an older message arriving late: between two
      store.upsert(item('14155559999', 50, { text: 'new and old' })); // a new chat at the very end
      store.upsert(item('12125550020', 99_800, { text: 'same date' })); // a tie on date: by key
      store.remove('14155550101-12125550001');
      expect(sort).not.toHaveBeenCalled();
    } finally {
      sort.mockRestore();
    }
    const chats = store.getSnapshot().chats;
    expect(chats).toHaveLength(5000);
    expect(chats.map((c) => c.key)).toEqual(
      [...chats].sort((a, b) => b.date - a.date || (a.key < b.key ? -1 : 1)).map((c) => c.key),
    );
    expect(chats[0]!.text).toBe('to the top');
    expect(chats[chats.length - 1]!.text).toBe('new and old');
    expect(chats.findIndex((c) => c.text === 'late')).toBe(chats.findIndex((c) => c.date === 99_910) + 1);
    expect(chats.some((c) => c.key === '14155550101-12125550001')).toBe(false);
    // untouched chats keep their objects, so their memoised rows do not render again
    expect(chats.find((c) => c.key === before[4]!.key)).toBe(before[4]);
  });

  it('counts unread per chat up to 99+, totals them, clears them and keeps them on the device', () => {
    const mem = memory();
    const store = new ChatListStore(mem.s);
    store.applyList([item('14155550102', 10), item('14155550103', 20)], 100, { replace: true });
    const a = '14155550101-14155550102';
    const b = '14155550101-14155550103';
    for (let i = 0; i < 120; i++) store.raise(a);
    store.raise(b);
    expect(store.getSnapshot().unread).toEqual({ [a]: 100, [b]: 1 });
    expect(store.getSnapshot().total).toBe(101);
    store.clear(a);
    expect(store.getSnapshot().total).toBe(1);
    expect(mem.get().counts).toEqual({ [b]: 1 });
    // a reload starts from what was kept
    const again = new ChatListStore(mem.s);
    again.applyList([item('14155550102', 10), item('14155550103', 20)], 200, { replace: true });
    expect(again.getSnapshot().unread).toEqual({ [b]: 1 });
  });

  it('counts chats that got a message while no tab was open, unless open now', () => {
    const mem = memory({ counts: {}, seenUntil: 1000 });
    const store = new ChatListStore(mem.s);
    store.applyList(
      [
        item('14155550102', 900),
        item('14155550103', 1500),
        item('14155550104', 1600, { direction: 'out' }),
        item('14155550105', 1700),
      ],
      2000,
      { replace: true, isOpen: (k) => k === '14155550101-14155550105' },
    );
    expect(store.getSnapshot().unread).toEqual({ '14155550101-14155550103': 1 });
    expect(mem.get().seenUntil).toBe(2000);
  });

  it('drops a deleted chat and its count', () => {
    const store = new ChatListStore(memory().s);
    store.applyList([item('14155550102', 10)], 100, { replace: true });
    store.raise('14155550101-14155550102');
    expect(store.remove('14155550101-14155550102')?.otherFullNumber).toBe('14155550102');
    expect(store.getSnapshot()).toMatchObject({ chats: [], total: 0 });
  });
});
