import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { endpoints } from '@numa/contract';
import { route } from '../lib/route';
import { ApiError } from '../lib/errors';
import { contactsRepo } from '../repositories/contacts';
import { accountText } from '../services/accountTexts';

/**
 * Most contacts one account may keep (decided): twice the 10,000 the screen is built to scroll
 * smoothly; a create beyond it is refused with 400000.
 */
export const maxContactsPerAccount = 20_000;

/** Contact ids: random, so an id says nothing about other accounts' contacts. */
const newContactId = () => randomBytes(12).toString('base64url');

/**
 * The cloud address book (spec 000 §7): a page by change date, create or replace, delete by ids.
 * The contact's rules are the contract's AddressBook schema, the same the client checks. An id of
 * another account's contact behaves exactly like an unknown id.
 */
export default async function contactRoutes(app: FastifyInstance) {
  const { db } = app.deps;

  route(app, endpoints.getCloudAddressBook, async ({ input, session }) => {
    const rows = await contactsRepo.page(db, session.accountId, {
      limit: input.pageSize + 1,
      since: input.since,
      startTime: input.startTime,
    });
    const page = rows.slice(0, input.pageSize);
    return {
      addressBookList: page.map((r) => ({
        id: r.id,
        addressBook: JSON.stringify(r.book),
        date: r.date,
        localId: r.localId,
        accountId: String(r.accountId),
      })),
      nextStartTime: rows.length > input.pageSize ? page[page.length - 1]!.date : null,
    };
  });

  route(app, endpoints.createOrUpdateCloudAddressBook, async ({ input, session }) => {
    const accountId = session.accountId;
    return db.tx(async (q) => {
      await contactsRepo.lockAccount(q, accountId);
      const date = await contactsRepo.nextDate(q, accountId);
      if (input.id !== undefined) {
        if (!(await contactsRepo.update(q, { id: input.id, accountId, book: input.addressBook, date }))) throw new ApiError(100002);
        return { id: input.id, date };
      }
      if ((await contactsRepo.count(q, accountId)) >= maxContactsPerAccount) {
        throw new ApiError(400000, { max: maxContactsPerAccount }, 'address book full', accountText('addressBookFull', { max: maxContactsPerAccount }));
      }
      const id = newContactId();
      await contactsRepo.insert(q, { id, accountId, book: input.addressBook, date });
      return { id, date };
    });
  });

  route(app, endpoints.delCloudAddressBook, async ({ input, session }) => {
    const deleted = await db.tx(async (q) => {
      await contactsRepo.lockAccount(q, session.accountId);
      return contactsRepo.deleteMany(q, session.accountId, [...new Set(input.ids)]);
    });
    return { deleted };
  });
}
