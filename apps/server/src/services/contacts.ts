import { randomBytes } from 'node:crypto';
import type { AddressBook } from '@numa/contract';
import type { Database } from '../db';
import { ApiError } from '../lib/errors';
import { contactsRepo } from '../repositories/contacts';
import { accountText } from './accountTexts';

/**
 * Most contacts one account may keep (decided): twice the 10,000 the screen is built to scroll
 * smoothly; a create beyond it is refused with 400000.
 */
export const maxContactsPerAccount = 20_000;

/** Contact ids: random, so an id says nothing about other accounts' contacts. */
const newContactId = () => randomBytes(12).toString('base64url');

/**
 * The cloud address book (spec 000 §7): a page by change date, create or replace, delete by ids. An
 * id of another account's contact behaves exactly like an unknown id.
 */
export function createContactService(db: Database) {
  return {
    /** Entries changed after `since`, older than `startTime`, newest first; `more` when another page follows. */
    async page(
      accountId: number,
      p: { pageSize: number; since?: number | undefined; startTime?: number | undefined },
    ) {
      const rows = await contactsRepo.page(db.q, accountId, {
        limit: p.pageSize + 1,
        since: p.since,
        startTime: p.startTime,
      });
      return { rows: rows.slice(0, p.pageSize), more: rows.length > p.pageSize };
    },

    /** Creates a contact (no id) or replaces one of the account's; the change date is distinct and increasing. */
    async save(
      accountId: number,
      p: { id?: string | undefined; book: AddressBook },
    ): Promise<{ id: string; date: number }> {
      return db.tx(async (tx) => {
        await contactsRepo.lockAccount(tx, accountId);
        // now, or one past the account's latest when the clock has not moved on
        const date = Math.max(Date.now(), ((await contactsRepo.maxDate(tx, accountId)) ?? 0) + 1);
        if (p.id !== undefined) {
          if (!(await contactsRepo.update(tx, { id: p.id, accountId, book: p.book, date })))
            throw new ApiError(100002);
          return { id: p.id, date };
        }
        if ((await contactsRepo.count(tx, accountId)) >= maxContactsPerAccount) {
          throw new ApiError(
            400000,
            { max: maxContactsPerAccount },
            'address book full',
            accountText('addressBookFull', { max: maxContactsPerAccount }),
          );
        }
        const id = newContactId();
        await contactsRepo.insert(tx, { id, accountId, book: p.book, date });
        return { id, date };
      });
    },

    async remove(accountId: number, ids: readonly string[]): Promise<number> {
      return db.tx(async (tx) => {
        await contactsRepo.lockAccount(tx, accountId);
        return contactsRepo.deleteMany(tx, accountId, [...new Set(ids)]);
      });
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
