import { describe, expect, it } from 'vitest';
import { entryTexts, omitTexts, pickTexts, type Texts } from '../../scripts/textParts';
import en from '../locales/en.json';
import zh from '../locales/zh.json';

/** Every text's dotted path (leaves only). */
function paths(t: Texts, prefix = ''): string[] {
  return Object.entries(t).flatMap(([k, v]) =>
    v && typeof v === 'object' ? paths(v as Texts, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

/** A deep merge of two parts, as i18next's addResourceBundle(…, deep) does. */
function merge(a: Texts, b: Texts): Texts {
  const out: Texts = structuredClone(a);
  for (const [k, v] of Object.entries(b))
    out[k] = v && typeof v === 'object' && out[k] ? merge(out[k] as Texts, v as Texts) : v;
  return out;
}

describe('the two parts of the texts (vite.config.ts splitTexts)', () => {
  for (const [lang, all] of [
    ['en', en],
    ['zh', zh],
  ] as const) {
    it(`${lang}: the entry and the rest together are every text, each once`, () => {
      const entry = pickTexts(all, entryTexts);
      const rest = omitTexts(all, entryTexts);
      const e = paths(entry);
      const r = paths(rest);
      expect(e.length).toBeGreaterThan(50);
      expect(e.filter((p) => r.includes(p))).toEqual([]);
      expect([...e, ...r].sort()).toEqual(paths(all).sort());
      expect(merge(entry, rest)).toEqual(all);
      // the whole file is not changed by splitting it
      expect(paths(all)).toContain('numbers.renewalFailed.title');
    });
  }

  it('names only groups that exist, so a renamed group is not silently left out', () => {
    for (const p of entryTexts) expect(paths(pickTexts(en, [p])).length, p).toBeGreaterThan(0);
  });

  it('keeps a sub-group in the entry without the rest of its group', () => {
    const entry = pickTexts(en, entryTexts) as { numbers: Texts };
    expect(Object.keys(entry.numbers)).toEqual(['renewalFailed']);
    expect((omitTexts(en, entryTexts) as { numbers: Texts }).numbers).not.toHaveProperty('renewalFailed');
  });
});
