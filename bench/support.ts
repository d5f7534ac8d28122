/** What the benches share: a migrated database of their own, and accounts with a number, a balance and a session. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { constants, toMinor } from '@numa/contract';
import { openDatabase, type Database } from '../apps/server/src/db';
import { migrate } from '../apps/server/src/db/migrate';
import { openPostgres } from '../apps/server/src/db/postgres';
import { raw } from '../apps/server/src/db/raw';
import { ledger } from '../apps/server/src/repositories/ledger';
import { assignNumber } from '../apps/server/src/services/rentals/numbers/assign';
import { createSessionService } from '../apps/server/src/services/sessions';

/** PostgreSQL in a schema of its own with BENCH_DATABASE_URL, else the embedded database in a temporary directory. */
export async function openDb(
  name: string,
): Promise<{ db: Database; dataDir: string; cleanup(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `numa-bench-${name}-`));
  const pg = process.env.BENCH_DATABASE_URL;
  if (pg) {
    const schema = `bench_${name}_${process.pid}_${Math.random().toString(36).slice(2, 6)}`;
    const db = await openPostgres(pg, { schema });
    await migrate(db);
    return {
      db,
      dataDir,
      async cleanup() {
        await raw(db.q, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await db.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const db = await openDatabase({ DATA_DIR: dataDir, DATABASE_URL: undefined });
  return {
    db,
    dataDir,
    async cleanup() {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function makeAccount(db: Database, email: string, number: string, balance: number) {
  return db.tx(async (q) => {
    const [row] = await raw<{ id: number }>(
      q,
      `INSERT INTO accounts (brand, email) VALUES ('numa', $1) RETURNING id`,
      [email],
    );
    const id = row!.id;
    await assignNumber(q, { accountId: id, number });
    if (balance) {
      await ledger.apply(q, {
        accountId: id,
        type: constants.billTypes.adjustment,
        charge: toMinor(balance),
        options: { campaignName: 'bench' },
      });
    }
    const { token } = await createSessionService(db).start(q, id, {});
    return { id, token, number: number.slice(1) };
  });
}

/** A bench's latency figures: the count, the 50th, 90th and 99th percentiles and the mean, to the microsecond. */
export interface LatencyStats {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
}
export function latencyStats(samples: number[]): LatencyStats {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!;
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return {
    n: s.length,
    p50: r(q(0.5)),
    p90: r(q(0.9)),
    p99: r(q(0.99)),
    mean: r(s.reduce((a, b) => a + b, 0) / s.length),
  };
}

/**
 * The socket and account flood limits (issue 9) off: a bench sends from one account back to back on
 * purpose, and the limits are not what it measures.
 */
export const floodLimitsOff = {
  SOCKET_EVENTS_PER_SECOND: '100000',
  SOCKET_EVENTS_BURST: '100000',
  ACCOUNT_EVENTS_PER_SECOND: '100000',
  ACCOUNT_EVENTS_BURST: '100000',
  ACCOUNT_CALLS_PER_SECOND: '100000',
  ACCOUNT_CALLS_BURST: '100000',
} as const;
