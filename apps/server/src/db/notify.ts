import type pg from 'pg';
import type { BalanceChannel } from './context';

/** NOTIFY payloads stay far below PostgreSQL's 8000 bytes. */
const idsPerNotice = 500;
const reconnectMs = 1000;

/**
 * Balance changes between processes on PostgreSQL: a process that pushes no balance events itself
 * (the operator's command writing straight to the database) publishes the accounts it moved with
 * `pg_notify`; every server LISTENs on its own connection and pushes those balances to its sockets.
 * The channel is per schema (`numa_balances.<schema>`), so databases shared by several schemas
 * (the test suites) do not hear each other. A notification missed while a listener reconnects is
 * not replayed: clients read the balance again when their socket reconnects.
 */
export function postgresBalanceChannel(
  pool: pg.Pool,
  connect: () => pg.Client,
  schema: string | undefined,
): BalanceChannel {
  let name: Promise<string> | null = null;
  const channel = () =>
    (name ??= (
      schema
        ? Promise.resolve(schema)
        : pool.query<{ s: string }>('SELECT current_schema() AS s').then((r) => r.rows[0]!.s)
    ).then((s) => `numa_balances.${s}`.slice(0, 63)));

  return {
    async publish(accountIds) {
      const ch = await channel();
      for (let i = 0; i < accountIds.length; i += idsPerNotice)
        await pool.query('SELECT pg_notify($1, $2)', [
          ch,
          JSON.stringify(accountIds.slice(i, i + idsPerNotice)),
        ]);
    },

    async listen(onIds) {
      const ch = await channel();
      let stopped = false;
      let client: pg.Client | null = null;
      let retry: NodeJS.Timeout | undefined;
      const schedule = () => {
        if (!stopped) retry = setTimeout(() => void open().catch(schedule), reconnectMs);
      };
      const open = async () => {
        const c = connect();
        c.on('notification', (m) => {
          if (m.channel !== ch || !m.payload) return;
          try {
            const ids = JSON.parse(m.payload) as unknown;
            if (Array.isArray(ids)) onIds(ids.filter((x): x is number => Number.isSafeInteger(x)));
          } catch {
            // not ours
          }
        });
        // a dropped connection ends: listen again on a new one
        c.on('error', () => {});
        c.on('end', () => {
          if (client !== c) return;
          client = null;
          schedule();
        });
        await c.connect();
        await c.query(`LISTEN ${c.escapeIdentifier(ch)}`);
        if (stopped) await c.end();
        else client = c;
      };
      await open();
      return async () => {
        stopped = true;
        clearTimeout(retry);
        await client?.end().catch(() => {});
      };
    },
  };
}
