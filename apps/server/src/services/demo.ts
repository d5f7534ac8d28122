import { constants, fromMinor, toMinor } from '@numa/contract';
import type { Database } from '../db';
import { idemKey } from '../lib/idem';
import { accountsRepo } from '../repositories/accounts';
import { ledger } from '../repositories/ledger';
import { numbersRepo } from '../repositories/numbers';
import { assignNumber } from './rentals/numbers/assign';

/**
 * The demo accounts (dev mode): two people on the numa brand, each with a US number and 20 Coins, so
 * a newcomer can try a conversation in two browser windows. Sign in with the e-mail; the code is at
 * /dev/outbox.
 */
export const demoAccounts = [
  { email: 'demo1@numa.test', numbers: ['+14155550101', '+14155550111', '+14155550121'] },
  { email: 'demo2@numa.test', numbers: ['+14155550102', '+14155550112', '+14155550122'] },
] as const;
export const demoBalance = 20;

/**
 * Creates what is missing of the demo data; running it again changes nothing (the welcome credit has
 * an idempotency key, a number is given only to an account without one). Returns what it did.
 */
export async function seedDemo(db: Database): Promise<string[]> {
  const report: string[] = [];
  for (const demo of demoAccounts) {
    const line = await db.tx(async (tx) => {
      const account = await accountsRepo.findOrCreate(tx, 'numa', { email: demo.email });
      let numbers = await numbersRepo.ofAccount(tx, account.id);
      if (!numbers.length) {
        for (const candidate of demo.numbers) {
          if (await numbersRepo.byFullNumber(tx, candidate.slice(1))) continue;
          await assignNumber(tx, { accountId: account.id, number: candidate });
          break;
        }
        numbers = await numbersRepo.ofAccount(tx, account.id);
      }
      const { row } = await ledger.apply(tx, {
        accountId: account.id,
        type: constants.billTypes.adjustment,
        charge: toMinor(demoBalance),
        options: { campaignName: 'demo' },
        idempotencyKey: idemKey('demo-balance', account.id),
      });
      const balance = (await accountsRepo.byId(tx, account.id))?.balance;
      const number = numbers[0] ? `+${numbers[0].fullNumber}` : '(no free demo number)';
      return `${demo.email}: account ${account.id}, number ${number}, balance ${balance === undefined ? 0 : fromMinor(balance)} Coins (demo credit: bill #${row.id})`;
    });
    report.push(line);
  }
  return report;
}

/** Dev start: seeds the demo accounts when the database has no account yet (a new database). */
export async function seedDemoIfNew(db: Database): Promise<string[] | null> {
  if (await accountsRepo.any(db.q)) return null;
  return seedDemo(db);
}

/** The demo data as a service (the admin command's `demo seed`). */
export function createDemoService(db: Database) {
  return { seed: () => seedDemo(db), seedIfNew: () => seedDemoIfNew(db) };
}

export type DemoService = ReturnType<typeof createDemoService>;
