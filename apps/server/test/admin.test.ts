import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedAdmin, testDbKind } from './helpers';

/** The operator command against an embedded database of its own (a copy of the migrated template). */
let admin: Awaited<ReturnType<typeof embeddedAdmin>>;
beforeAll(async () => {
  admin = await embeddedAdmin(
    'numa-admin-',
    `INSERT INTO accounts (brand, email) VALUES ('numa', 'op@example.com'), ('wephone', 'op@example.com')`,
  );
});
afterAll(() => admin.close());

const run = (...argv: string[]) => admin.run(...argv);

// these run the command on an embedded database of their own whatever the project: the same run
// under server-pg would only repeat the one under server
const embeddedOnly = testDbKind === 'postgres';

describe.skipIf(embeddedOnly)('npm run admin', () => {
  it('lists its commands', async () => {
    const r = await run('help');
    expect(r.code).toBe(0);
    expect(r.text).toContain('account credit');
  });

  it('credits and debits with a bill row each, per brand', async () => {
    expect((await run('account', 'credit', 'op@example.com', '5.25', '--note', 'welcome')).text).toContain(
      'balance 0 → 5.25',
    );
    expect((await run('account', 'debit', 'op@example.com', '0.25')).text).toContain('balance 5.25 → 5');
    const shown = await run('account', 'show', 'op@example.com');
    expect(shown.text).toContain('balance  5.0000 Coins');
    expect(shown.text).toMatch(/type 9 \+5\.2500 → 5\.2500/);
    const other = await run('account', 'show', 'op@example.com', '--brand', 'wephone');
    expect(other.text).toContain('balance  0.0000 Dollars');
  });

  it('refuses bad amounts and unknown accounts without touching anything', async () => {
    expect((await run('account', 'credit', 'op@example.com', '-3')).code).toBe(1);
    expect((await run('account', 'credit', 'op@example.com', '1.123456')).code).toBe(1);
    expect((await run('account', 'credit', 'nobody@example.com', '1')).code).toBe(1);
    expect((await run('account', 'show', 'op@example.com')).text).toContain('balance  5.0000 Coins');
  });

  it('imports a rates table from CSV: every bad line named, nothing written, then all in one go', async () => {
    const file = path.join(admin.dir, 'rates.csv');
    const exported = async () => (await run('rates', 'export', '--currency', 'usd', '--kind', 'sms')).text;
    const mms = async () => (await run('rates', 'export', '--currency', 'usd', '--kind', 'mms')).text;
    writeFileSync(
      file,
      [
        'currency,kind,origin,country,variant,price',
        'usd,sms,*,CA,*,0.0111',
        'eur,sms,*,CA,*,0.01',
        'usd,smss,*,ZZ,*,1',
        'usd,sms,*,CA,*,0.02',
        'usd,mms,*,CA,*,-1',
        'usd,sms,*,CA',
      ].join('\n'),
    );
    const bad = await run('rates', 'import', file);
    expect(bad.code).toBe(1);
    expect(bad.text.split('\n')).toEqual([
      'line 3: currency must be usd or cny, not "eur"',
      expect.stringMatching(/^line 4: unknown kind "smss" \(known: .*\bsms\b/),
      'line 4: unknown country "ZZ" (an ISO country code, or *)',
      'line 5: the same rate as line 2',
      'line 6: price must be a number ≥ 0 with at most 4 decimals, not "-1"',
      'line 7: expected 6 values, found 4',
    ]);
    const before = await exported();
    expect(before.split('\n')[0]).toBe('currency,kind,origin,country,variant,price');
    expect(before).toContain('\nusd,sms,*,CA,*,0.008\n');

    writeFileSync(
      file,
      'currency,kind,origin,country,variant,price\nusd,sms,*,CA,*,0.0095\nusd,mms,*,CA,*,0.03\n',
    );
    expect((await run('rates', 'import', file, '--dry-run')).text).toBe(
      '2 rates checked; nothing written (--dry-run).',
    );
    expect((await run('rates', 'import', file)).text).toBe('2 rates written.');
    // the export reads back in the import's format
    expect(await exported()).toContain('\nusd,sms,*,CA,*,0.0095\n');
    expect(await mms()).toContain('\nusd,mms,*,CA,*,0.03\n');
  });

  it('opens the embedded database itself, and not while a server holds it', async () => {
    writeFileSync(path.join(admin.dir, 'server.pid'), String(process.ppid));
    const r = await admin.runLocal('account', 'show', 'op@example.com');
    expect(r.code).toBe(1);
    expect(r.error).toMatch(/server/);
    rmSync(path.join(admin.dir, 'server.pid'));
    const shown = await admin.runLocal('account', 'show', 'op@example.com');
    expect(shown).toMatchObject({ code: 0, error: '' });
    expect(shown.text).toContain('balance  5.0000 Coins');
  });
});

describe('npm run admin while the server holds the embedded database', () => {
  it('hands the command to the server over its socket', async () => {
    const { startTestApp, signIn } = await import('./helpers');
    const { serveAdminSocket } = await import('../src/cli/remote');
    const { forwardToServer } = await import('../src/cli/forward');
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'numa-sock-'));
    const t = await startTestApp({ envOverrides: { DATA_DIR: dataDir } });
    const close = await serveAdminSocket(t.app);
    writeFileSync(path.join(dataDir, 'server.pid'), String(process.pid));
    const before = process.env.DATA_DIR;
    process.env.DATA_DIR = dataDir;
    try {
      const email = `remote.${Date.now()}@example.com`;
      await signIn(t.app, { email });
      const out: string[] = [];
      const err: string[] = [];
      const io = { out: (l = '') => out.push(l), err: (l: string) => err.push(l) };
      expect(await forwardToServer(['account', 'credit', email, '2.5'], io)).toBe(0);
      expect(out.join('\n')).toContain('balance 0 → 2.5');
      expect(await forwardToServer(['account', 'show', 'nobody@example.com'], io)).toBe(1);
      expect(err.join('\n')).toContain('No numa account matches');
      // the credit went through the server's own database
      const bal = await t.app.inject({
        url: '/web/queryBalance',
        headers: { 'auth-token': await signInToken(t, email) },
      });
      expect(bal.json().data.balance).toBe(2.5);
    } finally {
      process.env.DATA_DIR = before;
      await close();
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    }

    async function signInToken(app: Awaited<ReturnType<typeof startTestApp>>, email: string) {
      await app.db.query(`DELETE FROM rate_events`);
      return (await signIn(app.app, { email })).token!;
    }
  });
});
