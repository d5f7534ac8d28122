import { describe, expect, it } from 'vitest';
import en from 'emojibase-data/en/compact.json';
import zh from 'emojibase-data/zh/compact.json';
import { emojiRows, searchEmoji, toEmojiItems } from './emoji';

describe('emoji picker data', () => {
  const english = toEmojiItems(en);
  const chinese = toEmojiItems(zh);

  it('offers the grouped emoji in Unicode order, without skin-tone components', () => {
    expect(english.length).toBeGreaterThan(1800);
    expect(english[0]!.unicode).toBe('😀');
    expect(english.some((e) => e.group === 2)).toBe(false);
  });

  it('searches names and tags in the interface language', () => {
    expect(searchEmoji(english, 'thumbs up').some((e) => e.unicode.startsWith('👍'))).toBe(true);
    expect(searchEmoji(english, 'PIZZA').map((e) => e.unicode)).toContain('🍕');
    expect(searchEmoji(chinese, '披萨').map((e) => e.unicode)).toContain('🍕');
    expect(searchEmoji(english, 'zzqqxx')).toEqual([]);
  });

  it('lays the groups out in rows of a fixed width with a header each', () => {
    const rows = emojiRows(
      [
        { group: 0, items: english.slice(0, 10) },
        { group: 'recent', items: [] },
      ],
      8,
    );
    expect(rows.map((r) => (r.kind === 'header' ? 'h' : r.items.length))).toEqual(['h', 8, 2]);
  });
});
