import { describe, expect, it } from 'vitest';
import {
  isNearBottom,
  raiseUnread,
  shouldNotify,
  shouldRaiseUnread,
  totalUnread,
  unreadText,
  type ViewState,
} from './unread';

describe('unread counts (spec 000 §4, §9)', () => {
  it('rises by one and shows 99+ above 99', () => {
    expect(raiseUnread(0)).toBe(1);
    expect(raiseUnread(98)).toBe(99);
    expect(raiseUnread(99)).toBe(100);
    expect(raiseUnread(100)).toBe(100);
    expect(unreadText(99)).toBe('99');
    expect(unreadText(100)).toBe('99+');
    expect(totalUnread({ a: 2, b: 100 })).toBe(102);
  });

  it('is not raised only when the chat is open, the tab shown, the window focused and the view near the bottom', () => {
    const looking: ViewState = { chatOpen: true, tabShown: true, windowFocused: true, nearBottom: true };
    expect(shouldRaiseUnread(looking)).toBe(false);
    for (const key of Object.keys(looking) as (keyof ViewState)[]) {
      expect(shouldRaiseUnread({ ...looking, [key]: false })).toBe(true);
    }
    expect(
      shouldRaiseUnread({ chatOpen: false, tabShown: false, windowFocused: false, nearBottom: false }),
    ).toBe(true);
  });

  it('is near the bottom with less than 200 px left', () => {
    expect(isNearBottom(1000, 500, 400)).toBe(true); // 100 left
    expect(isNearBottom(1000, 400, 400)).toBe(false); // 200 left
    expect(isNearBottom(300, 0, 400)).toBe(true);
  });

  it('notifies incoming messages on a blurred window, except verification codes', () => {
    expect(shouldNotify('sms', 'in', false)).toBe(true);
    expect(shouldNotify('mms', 'in', false)).toBe(true);
    expect(shouldNotify('sms', 'in', true)).toBe(false);
    expect(shouldNotify('verificationCode', 'in', false)).toBe(false);
    expect(shouldNotify('sms', 'out', false)).toBe(false);
  });
});
