import type { FastifyInstance } from 'fastify';
import { endpoints } from '@numa/contract';
import { route } from '../lib/route';

/**
 * The cloud address book (spec 000 §7): a page by change date, create or replace, delete by ids.
 * The contact's rules are the contract's AddressBook schema, the same the client checks.
 */
export default async function contactRoutes(app: FastifyInstance) {
  const { contacts } = app.deps;

  route(app, endpoints.getCloudAddressBook, async ({ input, session }) => {
    const { rows, more } = await contacts.page(session.accountId, {
      pageSize: input.pageSize,
      since: input.since,
      startTime: input.startTime,
    });
    return {
      addressBookList: rows.map((r) => ({
        id: r.id,
        addressBook: JSON.stringify(r.book),
        date: r.date,
        localId: r.localId,
        accountId: String(r.accountId),
      })),
      nextStartTime: more ? rows[rows.length - 1]!.date : null,
    };
  });

  route(app, endpoints.createOrUpdateCloudAddressBook, async ({ input, session }) =>
    contacts.save(session.accountId, { id: input.id, book: input.addressBook }),
  );

  route(app, endpoints.delCloudAddressBook, async ({ input, session }) => ({
    deleted: await contacts.remove(session.accountId, input.ids),
  }));
}
