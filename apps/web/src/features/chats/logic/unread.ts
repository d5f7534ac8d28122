import { constants } from '@numa/contract';

/**
 * A chat's count rises by 1 up to the cap; one more than the cap is kept so that '99+' shows (spec 000
 * §4, §9).
 */
export const raiseUnread = (n: number) => Math.min(n + 1, constants.unreadCap + 1);

/** '99+' above the cap. */
export const unreadText = (n: number) => (n > constants.unreadCap ? `${constants.unreadCap}+` : String(n));

export interface ViewState {
  /** The message's chat is the open one. */
  chatOpen: boolean;
  /** The chats tab is shown. */
  tabShown: boolean;
  /** The browser window has focus. */
  windowFocused: boolean;
  /** The message view is scrolled to within 200 px of its bottom. */
  nearBottom: boolean;
}

/**
 * An incoming message raises its chat's count unless ALL of these hold: the chat is open, the chats
 * tab is shown, the window is focused and the view is near the bottom (spec 000 §4).
 */
export const shouldRaiseUnread = (v: ViewState) =>
  !(v.chatOpen && v.tabShown && v.windowFocused && v.nearBottom);

/** Near the bottom: less than 200 px left to scroll (spec 000 §4). */
export const isNearBottom = (scrollHeight: number, scrollTop: number, clientHeight: number) =>
  scrollHeight - scrollTop - clientHeight < constants.nearBottomPx;

/**
 * A sound and a desktop notification for an incoming message while the window is blurred, except for
 * verification codes (spec 000 §4).
 */
export const shouldNotify = (type: string, direction: 'in' | 'out', windowFocused: boolean) =>
  direction === 'in' && !windowFocused && type !== 'verificationCode';

/** The rail's total: the sum of the chats' counts. */
export const totalUnread = (counts: Record<string, number>) =>
  Object.values(counts).reduce((a, b) => a + b, 0);
