import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constants, endpoints } from '@numa/contract';
import { startTestApp, type TestApp } from './helpers';
import { makeUser } from './chat-support';

/** Saved replies (issue 22 §3): on PGlite, and on PostgreSQL with TEST_DATABASE_URL (server-pg). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('templates', () => {
  it("lists, adds, changes and deletes the account's own, by name", async () => {
    const a = await makeUser(t, { number: '+14155550701' });
    const b = await makeUser(t, { number: '+14155550702' });
    const save = (u: typeof a, body: Record<string, unknown>) =>
      u.c.post(endpoints.saveTemplate.path, body).then((r) => r.body);
    const list = async (u: typeof a) => (await u.c.get(endpoints.getTemplates.path)).body.data;

    const hours = await save(a, { name: ' Hours ', text: 'We open at 9, 周一到周五.' });
    expect(hours).toMatchObject({
      retcode: 0,
      data: { template: { name: 'Hours', text: 'We open at 9, 周一到周五.' } },
    });
    await save(a, { name: 'Address', text: '1 Main St' });
    expect((await list(a)).templates.map((x: { name: string }) => x.name)).toEqual(['Address', 'Hours']);
    expect((await list(a)).max).toBe(constants.templatesMax);

    const id = hours.data.template.id as string;
    expect((await save(a, { id, name: 'Hours', text: 'We open at 10.' })).data.template.text).toBe(
      'We open at 10.',
    );
    // b neither sees nor changes nor deletes a's
    expect((await list(b)).templates).toEqual([]);
    expect((await save(b, { id, name: 'x', text: 'y' })).retcode).toBe(100002);
    expect((await b.c.post(endpoints.delTemplate.path, { id })).body.data).toEqual({ deleted: false });

    expect((await a.c.post(endpoints.delTemplate.path, { id })).body.data).toEqual({ deleted: true });
    expect((await a.c.post(endpoints.delTemplate.path, { id })).body.data).toEqual({ deleted: false });
    expect((await list(a)).templates.map((x: { name: string }) => x.name)).toEqual(['Address']);
    // the contract's limits
    expect((await save(a, { name: '', text: 'x' })).retcode).toBe(100001);
    expect((await save(a, { name: 'n', text: 'x'.repeat(constants.templateTextMax + 1) })).retcode).toBe(
      100001,
    );
  });

  it('keeps at most templatesMax, even when adds race', async () => {
    const a = await makeUser(t, { number: '+14155550711' });
    await t.db.query(
      `INSERT INTO message_templates (account_id, name, text)
       SELECT $1, 'n' || g, 't' FROM generate_series(1, $2::int) g`,
      [a.accountId, constants.templatesMax - 2],
    );
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        a.c.post(endpoints.saveTemplate.path, { name: `race ${i}`, text: 'x' }).then((r) => r.body),
      ),
    );
    expect(results.filter((r) => r.retcode === 0)).toHaveLength(2);
    const full = results.filter((r) => r.retcode !== 0);
    expect(full).toHaveLength(4);
    expect(full[0]).toMatchObject({ retcode: 400000 });
    expect(full[0].retmsg).toMatch(String(constants.templatesMax));
    const [{ n }] = (await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM message_templates WHERE account_id = $1',
      [a.accountId],
    )) as [{ n: number }];
    expect(n).toBe(constants.templatesMax);
  });
});
