import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ChatListItem, type EndpointDef, type ReceiveMessage } from '@numa/contract';
import * as endpoints from '@numa/contract/endpoints';
import '../../../lib/i18n';
import type { ChatSocketHandlers } from '../../../lib/socket';
import { queryClient } from '../../../lib/query';
import { useSession } from '../../../stores/session';
import { useUi } from '../../../stores/ui';
import { queryKeys } from '../../../lib/queryKeys';

const socket = vi.hoisted(() => ({
  handlers: null as ChatSocketHandlers | null,
  sent: [] as unknown[],
  viewing: [] as (string | null)[],
  endSession: vi.fn(),
}));
vi.mock('../../../lib/socket', () => ({
  openChatSocket: (_opts: unknown, handlers: ChatSocketHandlers) => {
    socket.handlers = handlers;
    return {
      send: (p: unknown) => (socket.sent.push(p), true),
      setViewing: (chat: string | null) => socket.viewing.push(chat),
      state: 'connected',
      close: () => {},
    };
  },
  endSessionFromSocket: socket.endSession,
}));
const api = vi.hoisted(() => ({ call: vi.fn() }));
vi.mock('../../../lib/api', () => ({ call: api.call }));
const notify = vi.hoisted(() => ({
  playChime: vi.fn(),
  showDesktopNotification: vi.fn(),
  askNotificationPermission: vi.fn(),
}));
vi.mock('../notify', () => notify);
/** The paint a message waits for before its chat row and counts change: the test says when it happened. */
const paint = vi.hoisted(() => {
  const queue: (() => void)[] = [];
  return { queue, done: () => queue.splice(0).forEach((fn) => fn()) };
});
vi.mock('../../../lib/afterPaint', () => ({ afterPaint: (fn: () => void) => paint.queue.push(fn) }));

const { getChatService } = await import('./service');
const { useChatsUi } = await import('./ui');

const OWN = '14155550101';
const OTHER = '14155550102';
const KEY = `${OWN}-${OTHER}`;
const item = (over: Partial<ChatListItem> = {}): ChatListItem => ({
  ownFullNumber: OWN,
  ownTelCode: '1',
  ownNumber: '4155550101',
  otherFullNumber: OTHER,
  otherTelCode: '1',
  otherNumber: '4155550102',
  date: 1000,
  text: 'old',
  media: '',
  type: 'sms',
  smsId: 'old',
  direction: 'in',
  ...over,
});
const incoming = (over: Partial<ReceiveMessage> = {}): ReceiveMessage => ({
  fromNumber: OTHER,
  toNumber: OWN,
  fromPhone: '4155550102',
  toPhone: '4155550101',
  fromTelCode: '1',
  toTelCode: '1',
  direction: 'in',
  msgType: 'sms',
  text: 'hello',
  media: '',
  smsId: `in${Math.random().toString(36).slice(2)}`,
  time: Date.now(),
  status: 0,
  retmsg: '',
  highlightTarget: '',
  highlightText: '',
  ...over,
});

function answer(ep: EndpointDef) {
  if (ep === endpoints.getChatList) return { chatList: [item()], serverTime: 2000 };
  if (ep === endpoints.getChatListByDate) return { chatList: [], serverTime: 3000 };
  if (ep === endpoints.getDialogList) return { dialogList: [], nextStartTime: null };
  return {};
}

let focused = true;
beforeEach(async () => {
  focused = true;
  vi.spyOn(document, 'hasFocus').mockImplementation(() => focused);
  api.call.mockReset().mockImplementation(async (ep: EndpointDef) => answer(ep));
  socket.sent.length = 0;
  useSession.getState().signIn('tok', { canInvite: false, canSetInviter: false });
  useUi.setState({ tab: 'chats' });
  const service = getChatService()!;
  await vi.waitFor(() => expect(service.list.getSnapshot().status).toBe('ready'));
});
afterEach(() => {
  useSession.getState().logout();
  queryClient.clear();
  paint.queue.length = 0;
  vi.clearAllMocks();
});

describe('the chat service (spec 000 §4)', () => {
  it('raises the count of a chat that is not open, feeds the rail total, and notifies on a blurred window', () => {
    const service = getChatService()!;
    focused = false;
    socket.handlers!.onMessage(incoming({ text: 'are you there?' }));
    paint.done();
    expect(service.list.getSnapshot().unread).toEqual({ [KEY]: 1 });
    expect(useUi.getState().unread).toBe(1);
    expect(notify.playChime).toHaveBeenCalledTimes(1);
    expect(notify.showDesktopNotification).toHaveBeenCalledWith(
      '+1 415 555 0102',
      'are you there?',
      KEY,
      expect.any(Function),
    );
    expect(service.list.getSnapshot().chats[0]).toMatchObject({ text: 'are you there?', direction: 'in' });
  });

  it('never notifies verification codes, and stays quiet on a focused window', () => {
    focused = false;
    socket.handlers!.onMessage(
      incoming({ fromNumber: '22000', msgType: 'verificationCode', text: 'code 1234' }),
    );
    paint.done();
    focused = true;
    socket.handlers!.onMessage(incoming());
    paint.done();
    expect(notify.playChime).not.toHaveBeenCalled();
    expect(notify.showDesktopNotification).not.toHaveBeenCalled();
    expect(getChatService()!.list.getSnapshot().total).toBe(2);
  });

  it('does not raise the open chat while the user looks at its bottom; opening clears the count', () => {
    const service = getChatService()!;
    useChatsUi.getState().select(KEY);
    service.nearBottom = true;
    socket.handlers!.onMessage(incoming());
    paint.done();
    expect(service.list.getSnapshot().total).toBe(0);
    service.nearBottom = false;
    socket.handlers!.onMessage(incoming());
    paint.done();
    expect(service.list.getSnapshot().unread).toEqual({ [KEY]: 1 });
    service.markRead(KEY);
    expect(useUi.getState().unread).toBe(0);
  });

  it('shows the no-credit prompt instead of sending with a balance of 0', () => {
    queryClient.setQueryData(queryKeys.account.balance(), { balance: 0 });
    expect(getChatService()!.sendText(OWN, OTHER, 'hi')).toBe(false);
    expect(socket.sent).toEqual([]);
    expect(useUi.getState().errorDialog).toMatchObject({ kind: 'insufficient' });
  });

  it('sends with the contract payload and puts the chat on top once the send is painted', () => {
    queryClient.setQueryData(queryKeys.account.balance(), { balance: 3 });
    const service = getChatService()!;
    expect(service.sendText(OWN, '14155550199', 'new chat')).toBe(true);
    expect(socket.sent[0]).toMatchObject({
      fromNumber: OWN,
      toNumber: '14155550199',
      text: 'new chat',
      msgType: 'sms',
      platform: 'numa',
      languagecode: 'en',
    });
    expect(service.convo(OWN, '14155550199').getSnapshot().messages.at(-1)).toMatchObject({
      text: 'new chat',
    });
    paint.done();
    expect(service.list.getSnapshot().chats[0]).toMatchObject({
      otherFullNumber: '14155550199',
      direction: 'out',
      text: 'new chat',
    });
    expect(notify.askNotificationPermission).toHaveBeenCalled();
  });

  it.each([
    [
      300030,
      () =>
        expect(useChatsUi.getState().modal).toMatchObject({
          kind: 'tollFree',
          message: 'needs registration',
        }),
    ],
    [100010, () => expect(useChatsUi.getState().modal).toMatchObject({ kind: 'captcha', key: KEY })],
    [
      400001,
      () =>
        expect(useUi.getState().errorDialog).toMatchObject({
          kind: 'insufficient',
          message: 'needs registration',
        }),
    ],
    [100014, () => expect(socket.endSession).toHaveBeenCalledWith(100014, 'needs registration')],
    [300036, () => expect(useUi.getState().alert?.message).toBe('needs registration')],
  ])('answers a refused send %i as spec 000 §8 says', (retcode, check) => {
    const service = getChatService()!;
    service.sendText(OWN, OTHER, 'x');
    const smsId = (socket.sent[0] as { smsId: string }).smsId;
    socket.handlers!.onMessage(
      incoming({
        direction: 'out',
        fromNumber: OWN,
        toNumber: OTHER,
        smsId,
        status: 2,
        retcode,
        retmsg: 'needs registration',
      }),
    );
    check();
    const failed = service
      .convo(OWN, OTHER)
      .getSnapshot()
      .messages.find((m) => m.smsId === smsId);
    expect(failed).toMatchObject({ status: 2, retmsg: 'needs registration' });
  });

  it('deletes a chat locally at once and asks the server again once if it fails', async () => {
    const service = getChatService()!;
    let tries = 0;
    api.call.mockImplementation(async (ep: EndpointDef) => {
      if (ep === endpoints.delSms && tries++ === 0) throw new Error('network');
      return answer(ep);
    });
    const done = service.deleteChat(KEY);
    expect(service.list.getSnapshot().chats).toEqual([]);
    expect(await done).toBe(true);
    expect(tries).toBe(2);
    expect(api.call).toHaveBeenCalledWith(endpoints.delSms, { from: OWN, to: OTHER }, { silent: true });
  });

  it('reads the list again and says so when both delete calls fail', async () => {
    const service = getChatService()!;
    api.call.mockImplementation(async (ep: EndpointDef) => {
      if (ep === endpoints.delSms) throw new Error('network');
      return answer(ep);
    });
    expect(await service.deleteChat(KEY)).toBe(false);
    expect(useUi.getState().snackbar).toMatchObject({ tone: 'error' });
    await vi.waitFor(() => expect(service.list.getSnapshot().chats.length).toBe(1));
  });

  it('after a reconnect, resends unanswered messages and refetches the list since the last read', async () => {
    const service = getChatService()!;
    service.sendText(OWN, OTHER, 'while dropping');
    socket.handlers!.onReconnect(false);
    expect(socket.sent.length).toBe(2);
    expect((socket.sent[1] as { smsId: string }).smsId).toBe((socket.sent[0] as { smsId: string }).smsId);
    await vi.waitFor(() =>
      expect(api.call).toHaveBeenCalledWith(endpoints.getChatListByDate, { since: 2000 }, { silent: true }),
    );
  });

  it('tells the server which chat the visible page shows, so it pushes nothing for it (issue 23)', () => {
    getChatService();
    socket.viewing.length = 0;
    useChatsUi.getState().select(KEY);
    expect(socket.viewing.at(-1)).toBe(KEY);
    useUi.getState().navigate('contacts');
    expect(socket.viewing.at(-1)).toBeNull();
    useUi.getState().navigate('chats');
    expect(socket.viewing.at(-1)).toBe(KEY);
    useChatsUi.getState().select(null);
    expect(socket.viewing.at(-1)).toBeNull();
  });

  it('keeps the unread counts on the device after the message is shown, at once when the page goes away, never after logout', async () => {
    const key = 'numa.chats.unread';
    const kept = () => JSON.parse(window.localStorage.getItem(key) ?? 'null') as { counts?: object } | null;
    // the list's first read is written (its timer was set before the fake clock)
    window.dispatchEvent(new Event('pagehide'));
    expect(kept()?.counts).toEqual({});
    vi.useFakeTimers();
    try {
      socket.handlers!.onMessage(incoming());
      paint.done();
      // not on the message's path: written once the burst is over
      expect(kept()?.counts ?? {}).toEqual({});
      socket.handlers!.onMessage(incoming());
      paint.done();
      vi.advanceTimersByTime(300);
      expect(kept()?.counts).toEqual({ [KEY]: 2 });
      // the page going away writes what is waiting at once
      socket.handlers!.onMessage(incoming());
      paint.done();
      window.dispatchEvent(new Event('pagehide'));
      expect(kept()?.counts).toEqual({ [KEY]: 3 });
      // a write waiting at logout is dropped with the session's counts
      socket.handlers!.onMessage(incoming());
      paint.done();
      useSession.getState().logout();
      vi.advanceTimersByTime(1000);
      expect(window.localStorage.getItem(key)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('paints an arriving text in its conversation before its chat row, counts and signals change (issue 24 §1)', () => {
    const service = getChatService()!;
    const convo = service.convo(OWN, OTHER);
    focused = false;
    const listed = vi.fn();
    const unsubscribe = service.list.subscribe(listed);
    const now = Date.now();
    socket.handlers!.onMessage(incoming({ text: 'first', time: now }));
    socket.handlers!.onMessage(incoming({ text: 'second', time: now + 1 }));
    // the conversation has both at once; nothing else changed yet
    expect(convo.getSnapshot().messages.map((m) => m.text)).toEqual(['first', 'second']);
    expect(listed).not.toHaveBeenCalled();
    expect(service.list.getSnapshot().chats[0]).toMatchObject({ text: 'old' });
    expect(notify.playChime).not.toHaveBeenCalled();
    // after the paint: both, in arrival order
    paint.done();
    unsubscribe();
    expect(service.list.getSnapshot().chats[0]).toMatchObject({ text: 'second' });
    expect(service.list.getSnapshot().unread).toEqual({ [KEY]: 2 });
    expect(notify.playChime).toHaveBeenCalledTimes(2);
  });

  it('applies what waits for the paint before a chat is deleted, so a late row does not bring it back', async () => {
    const service = getChatService()!;
    socket.handlers!.onMessage(incoming({ text: 'just before the delete' }));
    const done = service.deleteChat(KEY);
    paint.done();
    expect(service.list.getSnapshot().chats).toEqual([]);
    expect(await done).toBe(true);
  });

  it('drops a pushed message that breaks the contract', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    socket.handlers!.onMessage({ text: 'no numbers' });
    expect(getChatService()!.list.getSnapshot().chats.length).toBe(1);
    expect(warn).toHaveBeenCalled();
  });
});
