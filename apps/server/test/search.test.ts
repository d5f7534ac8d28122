import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, zeroMinor, type SearchHit } from '@numa/contract';
import { messagesRepo } from '../src/repositories/messages';
import { searchTerms, snippet } from '../src/services/chats/search';
import { startTestApp, type TestApp } from './helpers';
import { makeUser } from './chat-support';

/** Message search (issue 22 §1): on PGlite, and on PostgreSQL with TEST_DATABASE_URL (server-pg). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

let seq = 0;
async function stored(accountId: number, own: string, other: string, date: number, text: string) {
  return t.db.tx((q) =>
    messagesRepo.insert(q, {
      accountId,
      ownFullNumber: own,
      ownTelCode: '1',
      otherFullNumber: other,
      otherTelCode: '1',
      direction: 'in',
      type: 'sms',
      text,
      media: '',
      status: 0,
      smsId: `s-${accountId}-${++seq}`,
      charge: zeroMinor,
      segments: 1,
      date,
    }),
  );
}

type User = Awaited<ReturnType<typeof makeUser>>;
const search = async (u: User, q: string, cursor?: string) => {
  const res = await u.c.get(endpoints.searchMessages.path, { q, ...(cursor ? { cursor } : {}) });
  return res.body as {
    retcode: number;
    retmsg: string;
    data: { results: SearchHit[]; nextCursor: string | null };
  };
};
const marked = (h: SearchHit) => h.marks.map(([a, b]) => h.snippet.slice(a, b));

describe('searchMessages', () => {
  it('finds Chinese by any part and English in any case, newest first, highlighted, own messages only, not deleted', async () => {
    const a = await makeUser(t, { number: '+14155550601' });
    const b = await makeUser(t, { number: '+14155550602' });
    const now = Date.now();
    const code = await stored(a.accountId, a.number, '12125550601', now - 5000, '您的验证码是 1234');
    await stored(a.accountId, a.number, '12125550602', now - 4000, 'Your Verification code is 9876');
    await stored(a.accountId, a.number, '12125550602', now - 3000, 'see you at the CAFE later');
    const gone = await stored(a.accountId, a.number, '12125550601', now - 2000, '验证码 again, but deleted');
    await stored(b.accountId, b.number, '12125550601', now - 1000, '别人的验证码 5555');

    // deleted through the API: never found
    const del = await a.c.call('DELETE', endpoints.delSms.path, {
      sms: JSON.stringify([{ smsId: gone.smsId, date: gone.date }]),
    });
    expect(del.body).toMatchObject({ retcode: 0, data: { deleted: 1 } });

    const zh = await search(a, '验证码');
    expect(zh.retcode).toBe(0);
    expect(zh.data.results.map((h) => h.snippet)).toEqual(['您的验证码是 1234']);
    expect(zh.data.results[0]).toMatchObject({
      smsId: code.smsId,
      date: now - 5000,
      ownFullNumber: a.number,
      otherFullNumber: '12125550601',
      direction: 'in',
      type: 'sms',
    });
    expect(marked(zh.data.results[0]!)).toEqual(['验证码']);

    const en = await search(a, 'verification CODE');
    expect(en.data.results.map((h) => h.smsId)).toHaveLength(1);
    expect(marked(en.data.results[0]!)).toEqual(['Verification', 'code']);
    // every word must be there, in any order
    expect((await search(a, 'code 9876')).data.results).toHaveLength(1);
    expect((await search(a, 'code cafe')).data.results).toHaveLength(0);
    // LIKE's own characters are plain text
    expect((await search(a, '%')).data.results).toHaveLength(0);
    expect((await search(a, 'c_fe')).data.results).toHaveLength(0);
    expect(marked((await search(a, 'cafe')).data.results[0]!)).toEqual(['CAFE']);
    // a two-letter word (no trigram) still matches, newest first
    expect((await search(a, 'co')).data.results.map((h) => h.date)).toEqual([now - 4000]);
    expect((await search(a, 'e')).data.results.map((h) => h.date)).toEqual([now - 3000, now - 4000]);
    // b sees only its own
    expect((await search(b, '验证码')).data.results.map((h) => h.snippet)).toEqual(['别人的验证码 5555']);
  });

  it('pages newest first by cursor, without repeats, across equal dates', async () => {
    const a = await makeUser(t, { number: '+14155550611' });
    const base = Date.now() - 100_000;
    const dates: number[] = [];
    for (let i = 0; i < 45; i++) {
      // two conversations, so dates repeat across them
      const other = i % 2 ? '12125550611' : '12125550612';
      const date = base + Math.floor(i / 2) * 10;
      dates.push(date);
      await stored(a.accountId, a.number, other, date, `order ${i} shipped`);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const r = await search(a, 'shipped', cursor);
      pages++;
      seen.push(...r.data.results.map((h) => h.smsId));
      const ds = r.data.results.map((h) => h.date);
      expect(ds).toEqual([...ds].sort((x, y) => y - x));
      if (!r.data.nextCursor) break;
      cursor = r.data.nextCursor;
    }
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(45);
    // a cursor that is not ours starts from the newest
    expect((await search(a, 'shipped', 'not-a-cursor')).data.results).toHaveLength(20);
  });

  it('refuses an empty or too long query in the envelope', async () => {
    const a = await makeUser(t, { number: '+14155550621' });
    expect((await search(a, '   ')).retcode).not.toBe(0);
    expect((await search(a, 'x'.repeat(101))).retcode).not.toBe(0);
    const anon = await t.app.inject({ method: 'GET', url: `${endpoints.searchMessages.path}?q=hi` });
    expect(anon.statusCode).toBeLessThan(500);
    expect(JSON.parse(anon.body).retcode).not.toBe(0);
  });

  it('has the trigram index on the text of messages not deleted', async () => {
    const idx = await t.db.query<{ indexdef: string }>(
      // this suite's schema only: another suite's schema may be dropped meanwhile (its index OIDs gone)
      `SELECT indexdef FROM pg_indexes WHERE indexname = 'messages_text_trgm' AND schemaname = current_schema()`,
    );
    expect(idx[0]?.indexdef).toMatch(/gin_trgm_ops\).*fastupdate ?= ?off.*WHERE \(?deleted = false/);
  });
});

describe('snippet', () => {
  it('keeps a short text whole and marks every term, longest first where they overlap', () => {
    expect(snippet('您的验证码是 1234', ['验证码'])).toEqual({
      snippet: '您的验证码是 1234',
      marks: [[2, 5]],
    });
    expect(snippet('abc abcd', ['abc', 'abcd']).marks).toEqual([
      [0, 3],
      [4, 8],
    ]);
  });

  it('cuts a long text around the first match with ellipses, never inside an emoji', () => {
    const text = `${'😀'.repeat(100)} the needle is here ${'x'.repeat(300)}`;
    const s = snippet(text, ['needle'], 60);
    expect(s.snippet.startsWith('…')).toBe(true);
    expect(s.snippet.endsWith('…')).toBe(true);
    expect(s.snippet).toContain('needle');
    expect(s.snippet.slice(s.marks[0]![0], s.marks[0]![1])).toBe('needle');
    expect(encodeURIComponent(s.snippet)).toBeTruthy(); // throws on a lone surrogate
  });

  it('splits a query into distinct words', () => {
    expect(searchTerms('  Code  code 9876 ')).toEqual(['Code', '9876']);
  });
});
