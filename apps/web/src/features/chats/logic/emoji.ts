import type { CompactEmoji } from 'emojibase';

export interface EmojiItem {
  unicode: string;
  label: string;
  /** Lower-cased words searched: the label, the tags and the shortcodes. */
  words: string;
  group: number;
}

/** emojibase groups shown, in order (2, the skin-tone components, is not offered on its own). */
export const emojiGroups = [0, 1, 3, 4, 5, 6, 7, 8, 9] as const;
export const emojiGroupKeys: Record<number, string> = {
  0: 'smileys',
  1: 'people',
  3: 'nature',
  4: 'food',
  5: 'travel',
  6: 'activities',
  7: 'objects',
  8: 'symbols',
  9: 'flags',
};

/** The picker's emoji from an emojibase compact dataset, in Unicode order. */
export function toEmojiItems(data: readonly CompactEmoji[]): EmojiItem[] {
  return data
    .filter((e) => e.group !== undefined && (emojiGroups as readonly number[]).includes(e.group))
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
    .map((e) => ({
      unicode: e.unicode,
      label: e.label,
      group: e.group!,
      words: [e.label, ...(e.tags ?? []), ...(e.shortcodes ?? [])].join(' ').toLowerCase(),
    }));
}

/** Emoji whose label, tags or shortcodes contain every word of the query. */
export function searchEmoji(items: readonly EmojiItem[], query: string): EmojiItem[] {
  const terms = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return [...items];
  return items.filter((e) => terms.every((t) => e.words.includes(t)));
}

export type EmojiRow =
  | { kind: 'header'; key: string; group: number | 'recent' | 'results' }
  | { kind: 'emojis'; key: string; items: EmojiItem[] };

/** Rows of a grid `columns` wide, a header above each group. */
export function emojiRows(
  sections: { group: number | 'recent' | 'results'; items: readonly EmojiItem[] }[],
  columns: number,
): EmojiRow[] {
  const rows: EmojiRow[] = [];
  for (const s of sections) {
    if (s.items.length === 0) continue;
    rows.push({ kind: 'header', key: `h-${s.group}`, group: s.group });
    for (let i = 0; i < s.items.length; i += columns)
      rows.push({ kind: 'emojis', key: `${s.group}-${i}`, items: s.items.slice(i, i + columns) });
  }
  return rows;
}
