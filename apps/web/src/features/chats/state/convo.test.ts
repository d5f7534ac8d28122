import { describe, expect, it, vi } from 'vitest';
import type { Message } from '@numa/contract';
import { Convo, type ConvoDeps, type Page, type PageQuery, type SendInput } from './convo';

const NOW = Date.UTC(2025, 5, 18, 12, 0);
const msg = (smsId: string, date: number, over: Partial<Message> = {}): Message => ({
  smsId,
  date,
  type: 'sms',
  text: smsId,
  media: '',
  direction: 'in',
  status: 0,
  highlightTarget: '',
  highlightText: '',
  ...over,
});

function deps(pages: (q: PageQuery) => Page | Promise<Page>) {
  const emitted: SendInput[] = [];
  const asked: PageQuery[] = [];
  const released: string[] = [];
  let connected = true;
  const d: ConvoDeps = {
    fetchPage: async (q) => {
      asked.push(q);
      return pages(q);
    },
    emit: (p) => {
      if (!connected) return false;
      emitted.push(p);
      return true;
    },
    now: () => NOW,
    releasePreview: (u) => released.push(u),
  };
  return { d, emitted, asked, released, setConnected: (c: boolean) => (connected = c) };
}
const text = (smsId: string, t = 'hello'): SendInput => ({
  fromNumber: '14155550101',
  toNumber: '14155550102',
  text: t,
  msgType: 'sms',
  smsId,
  platform: 'numa',
  languagecode: 'en',
});

describe('conversation loading (spec 000 §4 Chat loading)', () => {
  it('walks back month by month to the first messages and pages by start time', async () => {
    const june = [msg('j2', Date.UTC(2025, 5, 10)), msg('j1', Date.UTC(2025, 5, 9))];
    const april = [msg('a1', Date.UTC(2025, 3, 3))];
    const { d, asked } = deps((q) => {
      if (q.ym === '2025-06' && q.startTime === undefined)
        return { dialogList: june, nextStartTime: june[1]!.date };
      if (q.ym === '2025-06') return { dialogList: [], nextStartTime: null };
      if (q.ym === '2025-04') return { dialogList: april, nextStartTime: null };
      return { dialogList: [], nextStartTime: null };
    });
    const c = new Convo('14155550101', '14155550102', d);
    await c.load();
    expect(c.getSnapshot().status).toBe('ready');
    expect(c.getSnapshot().messages.map((m) => m.smsId)).toEqual(['j1', 'j2']);
    expect(c.getSnapshot().hasOlder).toBe(true);

    await c.loadOlder();
    // June's next page was empty and exhausted: May (empty), then April
    expect(asked.map((q) => [q.ym, q.startTime])).toEqual([
      ['2025-06', undefined],
      ['2025-06', june[1]!.date],
      ['2025-05', undefined],
      ['2025-04', undefined],
    ]);
    expect(c.getSnapshot().messages.map((m) => m.smsId)).toEqual(['a1', 'j1', 'j2']);

    await c.loadOlder();
    await c.loadOlder();
    // March, then February (4 months back) and no further
    expect(asked.slice(4).map((q) => q.ym)).toEqual(['2025-03', '2025-02']);
    expect(c.getSnapshot().hasOlder).toBe(false);
  });

  it('starts at the month of the last message and keeps verification-code chats to their month', async () => {
    const { d, asked } = deps(() => ({ dialogList: [], nextStartTime: null }));
    const c = new Convo('14155550101', '22000', d, {
      lastDate: Date.UTC(2025, 5, 2),
      verificationCode: true,
    });
    await c.load();
    expect(asked.map((q) => q.ym)).toEqual(['2025-06']);
    expect(c.getSnapshot()).toMatchObject({ status: 'ready', messages: [], hasOlder: false });
  });

  it('cancels the pre-display when the first page fails, and tries again', async () => {
    let fail = true;
    const { d } = deps(() => {
      if (fail) throw new Error('network');
      return { dialogList: [msg('x', NOW - 1000)], nextStartTime: null };
    });
    const c = new Convo('14155550101', '14155550102', d);
    await c.load();
    expect(c.getSnapshot()).toMatchObject({ status: 'error', messages: [] });
    fail = false;
    await c.load();
    expect(c.getSnapshot().status).toBe('ready');
    expect(c.getSnapshot().messages.map((m) => m.smsId)).toEqual(['x']);
  });
});

describe('outgoing messages (spec 000 §4 Outgoing message)', () => {
  const ready = async (list: Message[] = []) => {
    const h = deps(() => ({ dialogList: list, nextStartTime: null }));
    const c = new Convo('14155550101', '14155550102', h.d);
    await c.load();
    return { c, ...h };
  };

  it('shows a send at once as pending and confirms it in place with the server date and media', async () => {
    const { c, emitted } = await ready([msg('old', NOW - 60_000)]);
    const snaps: unknown[] = [];
    c.subscribe(() => snaps.push(c.getSnapshot()));
    c.send(
      {
        ...text('s1'),
        msgType: 'mms',
        fileBuffer: new ArrayBuffer(3),
        fileType: 'image/png',
        fileName: 'a.png',
      } as SendInput,
      {
        text: '',
        previewUrl: 'blob:preview',
      },
    );
    expect(emitted.map((p) => p.smsId)).toEqual(['s1']);
    const pending = c.getSnapshot().messages.at(-1)!;
    expect(pending).toMatchObject({
      smsId: 's1',
      status: 1,
      direction: 'out',
      local: true,
      previewUrl: 'blob:preview',
      date: NOW,
    });

    const confirmed = c.confirm(
      msg('s1', NOW + 250, { direction: 'out', type: 'mms', media: '/media/abcdefgh12', text: '' }),
      '',
    );
    expect(confirmed).toBe(true);
    const after = c.getSnapshot().messages;
    expect(after.map((m) => m.smsId)).toEqual(['old', 's1']);
    expect(after[1]).toMatchObject({ status: 0, date: NOW + 250, media: '/media/abcdefgh12', local: false });
    expect(after[1]!.previewUrl).toBeUndefined();
    expect(snaps.length).toBe(2);
  });

  it('marks a refused send failed with the reason and lets it go again as a new message', async () => {
    const { c, emitted } = await ready();
    c.send(text('s2', 'hi'));
    expect(
      c.confirm(msg('s2', NOW + 10, { direction: 'out', status: 2, text: 'hi' }), 'Insufficient balance.'),
    ).toBe(true);
    expect(c.getSnapshot().messages[0]).toMatchObject({
      smsId: 's2',
      status: 2,
      retmsg: 'Insufficient balance.',
      local: true,
    });
    const again = c.takeFailed('s2');
    expect(again).toMatchObject({ text: 'hi', smsId: 's2' });
    expect(c.getSnapshot().messages).toEqual([]);
    expect(c.takeFailed('s2')).toBeNull();
    expect(emitted.length).toBe(1);
  });

  it('sends unanswered messages again after a reconnect with the same smsId', async () => {
    const { c, emitted, setConnected } = await ready();
    c.send(text('a'));
    c.send(text('b'));
    c.confirm(msg('a', NOW + 1, { direction: 'out' }), '');
    setConnected(false);
    expect(c.resendPending()).toBe(0);
    setConnected(true);
    expect(c.resendPending()).toBe(1);
    expect(emitted.map((p) => p.smsId)).toEqual(['a', 'b', 'b']);
    expect(c.hasPending).toBe(true);
  });

  it('settles a pending send that a catch-up finds already stored', async () => {
    const stored = msg('p', NOW + 5, { direction: 'out', status: 0 });
    let pages: Message[] = [msg('x', NOW - 10_000)];
    const h = deps((q) => ({
      dialogList: q.since !== undefined ? pages.filter((m) => m.date > q.since!) : pages,
      nextStartTime: null,
    }));
    const c = new Convo('14155550101', '14155550102', h.d);
    await c.load();
    c.send(text('p'));
    pages = [...pages, stored, msg('in1', NOW + 9)];
    await c.catchUp();
    expect(h.asked.at(-1)).toMatchObject({ ym: '2025-06', since: NOW - 10_000 });
    expect(c.getSnapshot().messages.map((m) => [m.smsId, m.status])).toEqual([
      ['x', 0],
      ['p', 0],
      ['in1', 0],
    ]);
    expect(c.hasPending).toBe(false);
  });

  it('takes incoming messages and other tabs’ sends as they come', async () => {
    const { c } = await ready();
    const listener = vi.fn();
    c.subscribe(listener);
    c.receive(msg('in', NOW + 1));
    expect(c.confirm(msg('elsewhere', NOW + 2, { direction: 'out' }), '')).toBe(false);
    expect(c.getSnapshot().messages.map((m) => m.smsId)).toEqual(['in', 'elsewhere']);
    expect(listener).toHaveBeenCalledTimes(2);
  });
});

describe('a search result opened in its conversation (issue 22 §1)', () => {
  /** A server holding `all` (any order), answering pages of 2, newest first, month by month. */
  const server =
    (all: Message[]) =>
    (q: PageQuery): Page => {
      const inMonth = all
        .filter((m) => new Date(m.date).toISOString().slice(0, 7) === q.ym)
        .filter((m) => q.startTime === undefined || m.date < q.startTime)
        .sort((a, b) => b.date - a.date);
      const page = inMonth.slice(0, 2);
      return { dialogList: page, nextStartTime: inMonth.length > 2 ? page[1]!.date : null };
    };

  it('loads from the newest down to the message and a page older, past the local-history window', async () => {
    const all = [
      msg('now1', Date.UTC(2025, 5, 17)),
      msg('now2', Date.UTC(2025, 5, 16)),
      msg('now3', Date.UTC(2025, 5, 15)),
      msg('may', Date.UTC(2025, 4, 2)),
      // eight months back: beyond the 4 months kept locally
      msg('old-newer', Date.UTC(2024, 9, 21)),
      msg('target', Date.UTC(2024, 9, 20)),
      msg('old-older1', Date.UTC(2024, 9, 19)),
      msg('old-older2', Date.UTC(2024, 9, 18)),
      msg('oldest', Date.UTC(2024, 9, 1)),
    ];
    const { d } = deps(server(all));
    const c = new Convo('14155550101', '14155550102', d, { lastDate: all[0]!.date });
    expect(await c.loadThrough('target', Date.UTC(2024, 9, 20))).toBe(true);
    const ids = c.getSnapshot().messages.map((m) => m.smsId);
    expect(ids).toContain('target');
    expect(ids).toContain('old-newer');
    // a page older than the target is there too, and more can still be scrolled to
    expect(ids).toContain('old-older1');
    expect(c.getSnapshot().hasOlder).toBe(true);
    expect(ids.indexOf('target')).toBeLessThan(ids.indexOf('now1'));
  });

  it('says so when the message is not there any more', async () => {
    const { d } = deps(server([msg('a', Date.UTC(2025, 5, 10))]));
    const c = new Convo('14155550101', '14155550102', d);
    expect(await c.loadThrough('gone', Date.UTC(2025, 5, 9))).toBe(false);
  });
});
