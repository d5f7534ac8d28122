import { constants, type SearchHit } from '@numa/contract';
import type { Database } from '../../db';
import { messageSearchRepo } from '../../repositories/messageSearch';

/** The words of a query: split on white space, repeated words once, at most `searchTermsMax`. */
export function searchTerms(q: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const word of q.trim().split(/\s+/u)) {
    const key = word.toLowerCase();
    if (!word || seen.has(key)) continue;
    seen.add(key);
    out.push(word);
    if (out.length === constants.searchTermsMax) break;
  }
  return out;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** UTF-16 positions inside a surrogate pair are moved off it (a cut never splits an emoji's halves). */
const isLowSurrogate = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff;
};

/**
 * The part of `text` shown for a hit: about `size` characters starting a little before the first
 * match (the whole text when it is short), '…' where it was cut, and the [start, end) ranges of every
 * term found in it (longest first where two could overlap; ranges merged, in order).
 */
export function snippet(
  text: string,
  terms: readonly string[],
  size: number = constants.searchSnippetChars,
): { snippet: string; marks: [number, number][] } {
  const flat = text.replace(/\s+/gu, ' ');
  const sorted = [...terms].sort((a, b) => b.length - a.length);
  const re = sorted.length ? new RegExp(sorted.map(escapeRegExp).join('|'), 'giu') : null;
  let start = 0;
  let end = flat.length;
  if (flat.length > size) {
    const first = re ? flat.search(re) : -1;
    const lead = Math.floor(size / 4);
    start = Math.max(0, Math.min(first < 0 ? 0 : first - lead, flat.length - size));
    end = Math.min(flat.length, start + size);
    if (start > 0 && isLowSurrogate(flat, start)) start++;
    if (end < flat.length && isLowSurrogate(flat, end)) end--;
  }
  const prefix = start > 0 ? '…' : '';
  const body = flat.slice(start, end);
  const out = prefix + body + (end < flat.length ? '…' : '');
  const marks: [number, number][] = [];
  if (re) {
    for (const m of body.matchAll(re)) {
      if (!m[0]) continue;
      const from = prefix.length + m.index;
      const to = from + m[0].length;
      const last = marks[marks.length - 1];
      if (last && from <= last[1]) last[1] = Math.max(last[1], to);
      else marks.push([from, to]);
    }
  }
  return { snippet: out, marks };
}

type Cursor = { date: number; id: number };
const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify([c.date, c.id])).toString('base64url');
/** A cursor that is not one of ours starts from the newest (a stale client is never stuck on an error). */
function decodeCursor(cursor: string | undefined): Cursor | null {
  if (!cursor) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 2 && v.every((n) => Number.isSafeInteger(n)))
      return { date: v[0] as number, id: v[1] as number };
  } catch {
    // not ours
  }
  return null;
}

/** Message search (issue 22 §1; contract searchMessages). */
export function createChatSearch(deps: { db: Database }) {
  const { db } = deps;
  return {
    async searchMessages(
      accountId: number,
      p: { q: string; cursor?: string | undefined; pageSize?: number },
    ): Promise<{ results: SearchHit[]; nextCursor: string | null }> {
      const terms = searchTerms(p.q);
      if (!terms.length) return { results: [], nextCursor: null };
      const limit = p.pageSize ?? constants.searchPageSize;
      const rows = await messageSearchRepo.search(db, accountId, terms, decodeCursor(p.cursor), limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        results: page.map((r) => ({
          smsId: r.smsId,
          date: r.date,
          ownFullNumber: r.ownFullNumber,
          otherFullNumber: r.otherFullNumber,
          direction: r.direction,
          type: r.type,
          ...snippet(r.text, terms),
        })),
        nextCursor: rows.length > limit && last ? encodeCursor({ date: last.date, id: last.id }) : null,
      };
    },
  };
}
