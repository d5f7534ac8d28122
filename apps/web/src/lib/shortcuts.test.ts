import { describe, expect, it } from 'vitest';
import { matches, shortcutOf, shortcutsFor } from './shortcuts';

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey', boolean>> = {}) =>
  new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...mods });

describe('keyboard shortcuts (issue 22 §4)', () => {
  it('matches letters in either case, symbols whatever Shift they took, modifiers exactly', () => {
    expect(matches(key('n'), 'N')).toBe(true);
    expect(matches(key('N'), 'N')).toBe(true);
    expect(matches(key('N', { shiftKey: true }), 'N')).toBe(false);
    expect(matches(key('?', { shiftKey: true }), '?')).toBe(true);
    expect(matches(key('k', { ctrlKey: true }), 'Control+K')).toBe(true);
    expect(matches(key('k', { ctrlKey: true, altKey: true }), 'Control+K')).toBe(false);
    expect(matches(key('ArrowDown', { altKey: true }), 'Alt+ArrowDown')).toBe(true);
    expect(matches(key('ArrowDown'), 'Alt+ArrowDown')).toBe(false);
  });

  it('lists the tabs in rail order and the chats shortcuts only where there are chats', () => {
    const numa = shortcutsFor(['chats', 'numbers', 'tabAccount']).map((s) => s.id);
    expect(numa).toContain('nextChat');
    expect(numa.slice(-3)).toEqual(['tab.chats', 'tab.numbers', 'tab.tabAccount']);
    const jiema = shortcutsFor(['verification', 'tabAccount']).map((s) => s.id);
    expect(jiema).not.toContain('search');
    expect(jiema).toContain('help');
  });

  it('never fires a single key while typing, during composition or with a dialog open; a modified key does', () => {
    const list = shortcutsFor(['chats', 'tabAccount']);
    const input = document.createElement('input');
    document.body.append(input);
    const at = (target: EventTarget, e: KeyboardEvent) => {
      let got: string | null = null;
      target.addEventListener('keydown', (ev) => (got = shortcutOf(ev as KeyboardEvent, list)?.id ?? null), {
        once: true,
      });
      target.dispatchEvent(e);
      return got;
    };
    expect(at(document.body, key('n'))).toBe('newMessage');
    expect(at(input, key('n'))).toBe(null);
    expect(at(input, key('k', { ctrlKey: true }))).toBe('search');
    expect(
      at(document.body, new KeyboardEvent('keydown', { key: '?', isComposing: true, bubbles: true })),
    ).toBe(null);
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    document.body.append(dialog);
    expect(at(document.body, key('2'))).toBe(null);
    dialog.remove();
    expect(at(document.body, key('2'))).toBe('tab.tabAccount');
    input.remove();
  });
});
