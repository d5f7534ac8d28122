import type { RailTab } from '@numa/contract';

/**
 * The keyboard shortcuts (issue 22 §4): one registry, read by the handler (app/useShortcuts.ts) and by
 * the `?` dialog that lists them (app/ShortcutsDialog.tsx), so the two cannot disagree.
 *
 * A key is written as the DOM names it (`KeyboardEvent.key`), modifiers first: `Control+K`,
 * `Alt+ArrowDown`, `?`. The handler acts on the `app` shortcuts; the `field` ones are the keys the
 * message box and the dialogs already answer (Enter sends, Escape closes) and are listed so the user
 * finds them in one place. A single key (`?`, `/`, `N`, `1`) never fires while the user types in a
 * field; a key with Ctrl, Alt or ⌘ types nothing and works there too (decided: the one rule the dialog
 * states). None fires during an input method's composition (Chinese, Japanese …), nor while a dialog,
 * menu or list popover is open.
 */

export type ShortcutId =
  | 'help'
  | 'search'
  | 'newMessage'
  | 'nextChat'
  | 'previousChat'
  | 'composer'
  | 'send'
  | 'newLine'
  | 'close'
  | `tab.${RailTab}`;

export interface Shortcut {
  id: ShortcutId;
  /** Any one of these keys does it. */
  keys: readonly string[];
  /** `app`: this handler acts on it; `field`: the focused field or dialog does (listed only). */
  scope: 'app' | 'field';
  /** Needs the chats (brands without them, jiema, do not list it). */
  chats?: boolean;
  /** The dialog's group. */
  group: 'general' | 'chats' | 'tabs';
}

const base: readonly Shortcut[] = [
  { id: 'help', keys: ['?'], scope: 'app', group: 'general' },
  {
    id: 'search',
    keys: ['/', 'Control+K', 'Meta+K'],
    scope: 'app',
    chats: true,
    group: 'general',
  },
  { id: 'close', keys: ['Escape'], scope: 'field', group: 'general' },
  { id: 'newMessage', keys: ['N'], scope: 'app', chats: true, group: 'chats' },
  {
    id: 'nextChat',
    keys: ['Alt+ArrowDown'],
    scope: 'app',
    chats: true,
    group: 'chats',
  },
  {
    id: 'previousChat',
    keys: ['Alt+ArrowUp'],
    scope: 'app',
    chats: true,
    group: 'chats',
  },
  { id: 'composer', keys: ['R'], scope: 'app', chats: true, group: 'chats' },
  { id: 'send', keys: ['Enter'], scope: 'field', chats: true, group: 'chats' },
  { id: 'newLine', keys: ['Shift+Enter'], scope: 'field', chats: true, group: 'chats' },
];

/** Every shortcut of a brand with these rail tabs: the base ones, then 1, 2, 3 … for the tabs in rail order. */
export function shortcutsFor(tabs: readonly RailTab[]): Shortcut[] {
  const hasChats = tabs.includes('chats');
  return [
    ...base.filter((s) => !s.chats || hasChats),
    ...tabs
      .slice(0, 9)
      .map((tab, i): Shortcut => ({ id: `tab.${tab}`, keys: [String(i + 1)], scope: 'app', group: 'tabs' })),
  ];
}

const modifiers = ['Control', 'Alt', 'Shift', 'Meta'] as const;

/**
 * Whether a key press is this key. Letters match either case with Shift not held; a printed symbol
 * (`?`, `/`) matches whatever Shift it took on the keyboard's layout; other modifiers must be exactly
 * those written.
 */
export function matches(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey'>,
  key: string,
) {
  const parts = key.split('+');
  const name = parts.pop()!;
  const want = new Set(parts);
  const held = { Control: e.ctrlKey, Alt: e.altKey, Shift: e.shiftKey, Meta: e.metaKey };
  const symbol = name.length === 1 && !/[a-z0-9]/i.test(name);
  for (const m of modifiers) {
    if (m === 'Shift' && symbol && !want.has('Shift')) continue;
    if (held[m] !== want.has(m)) return false;
  }
  return name.length === 1 ? e.key.toLowerCase() === name.toLowerCase() : e.key === name;
}

/** A key held with Ctrl, Alt or ⌘: it types nothing, so it works in a field too. */
export const withModifier = (key: string) => /^(Control|Alt|Meta)\+/.test(key);

/** A key press in a field the user types into (single-key shortcuts stay out). */
export const isTyping = (el: EventTarget | null) =>
  el instanceof HTMLElement &&
  !!el.closest(
    'input:not([type="radio"]):not([type="checkbox"]):not([type="button"]):not([type="submit"]), textarea, select, [contenteditable=""], [contenteditable="true"], [role="textbox"], [role="combobox"]',
  );

/** A dialog, menu or list popover is open: the shortcuts wait (Escape closes it first). */
export const overlayOpen = () =>
  !!document.querySelector('.modal-overlay, .popover, [role="dialog"], [role="alertdialog"], [role="menu"]');

/** The shortcut a key press asks for, or null (typing, composing, an overlay open, no such key). */
export function shortcutOf(e: KeyboardEvent, list: readonly Shortcut[]): Shortcut | null {
  if (e.defaultPrevented || e.isComposing || e.keyCode === 229 || e.repeat) return null;
  const typing = isTyping(e.target);
  for (const s of list) {
    if (s.scope !== 'app') continue;
    if (s.keys.some((k) => (!typing || withModifier(k)) && matches(e, k))) return overlayOpen() ? null : s;
  }
  return null;
}
