/*
 * The pinyin dictionary (pinyin-pro, about 280 KiB) is a chunk of its own, fetched only once a name
 * with a Chinese character is met (issue 13 §1): an address book of Latin names, and the chats that
 * read it for names, never load it. Whoever builds contact views from names calls `preparePinyin`
 * with them first; `nameReading` (logic.ts) then reads Chinese characters as pinyin.
 */
import type { pinyin as pinyinFn } from 'pinyin-pro';
type Pinyin = typeof pinyinFn;

let loaded: Pinyin | null = null;
let loading: Promise<Pinyin> | null = null;

const HAN = /\p{Script=Han}/u;
export const hasHan = (text: string) => HAN.test(text);

/** Loads the dictionary if any of these texts has a Chinese character (once; later calls are free). */
export async function preparePinyin(texts: Iterable<string>): Promise<void> {
  if (loaded) return;
  for (const text of texts) {
    if (!hasHan(text)) continue;
    loading ??= import('pinyin-pro').then((m) => (loaded = m.pinyin));
    await loading;
    return;
  }
}

/** The dictionary if it was loaded. */
export const loadedPinyin = (): Pinyin | null => loaded;
