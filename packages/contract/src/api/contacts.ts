import { z } from 'zod';
import { Email, EntityId, EpochMs, FullNumber, TelCode, jsonString, qEpochMs, qPageSize } from '../common';
import { constants } from '../constants';
import { defineEndpoint } from '../endpoint';

/** A contact phone's label (spec 000 §3: Mobile, Home, Work, Other; default Other). */
export const ContactTag = z.enum(constants.contactTags);
export type ContactTag = z.infer<typeof ContactTag>;

/**
 * One phone of a contact. The client sends `phone` as '+' plus country code plus number (spec 000
 * §5); decided: the '+' is optional on input and never stored, so `phone` comes back as digits (a
 * full number) and must begin with `telCode`.
 */
export const ContactPhone = z
  .strictObject({
    phone: z
      .string()
      .trim()
      .regex(/^\+?\d{5,16}$/, 'Phone must be digits')
      .transform((v) => v.replace(/^\+/, '')),
    telCode: TelCode,
    tag: ContactTag.default(constants.contactDefaultTag),
  })
  .refine((p) => p.phone.startsWith(p.telCode), {
    message: 'The phone must begin with its country code',
    path: ['phone'],
  });
export type ContactPhone = z.output<typeof ContactPhone>;

/**
 * The contact itself, as the JSON-encoded `addressBook` (spec 000 §3 and §5): a name under 20
 * characters, 1 to 5 phones, optional e-mail ('' for none), company up to 20, note up to 100.
 */
export const AddressBook = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(constants.contactNameMaxExclusive - 1),
  phoneList: z.array(ContactPhone).min(1).max(constants.contactPhonesMax),
  email: z.union([z.literal(''), Email]).default(''),
  companyName: z.string().trim().max(constants.contactCompanyMax).default(''),
  note: z.string().trim().max(constants.contactNoteMax).default(''),
});
export type AddressBook = z.output<typeof AddressBook>;

/** A contact as the client keeps it (spec 000 §3): the address book plus its id. */
export const Contact = z.object({
  _id: EntityId,
  name: z.string(),
  phoneList: z.array(z.object({ phone: FullNumber, telCode: TelCode, tag: ContactTag })),
  email: z.string(),
  companyName: z.string(),
  note: z.string(),
});
export type Contact = z.infer<typeof Contact>;

/**
 * An address-book entry as the server sends it: the contact id, the JSON-encoded contact (parsed by
 * this schema), its last change (`date`), the id a phone app gave it (`localId`, '' if none) and the
 * owner (`accountId`). The client drops the last three (spec 000 §3).
 */
export const AddressBookEntry = z.object({
  id: EntityId,
  addressBook: jsonString(AddressBook),
  date: EpochMs,
  localId: z.string(),
  accountId: z.string(),
});
export type AddressBookEntry = z.output<typeof AddressBookEntry>;

/**
 * A page of the address book. Decided paging: entries changed after `since` (all when absent),
 * newest change first, older than `startTime` when given; `nextStartTime` is the date of the page's
 * last entry when more may follow, else `null`. The server keeps changes of one account at distinct
 * dates.
 */
export const getCloudAddressBook = defineEndpoint({
  name: 'getCloudAddressBook',
  method: 'GET',
  path: '/web/getCloudAddressBook',
  access: 'session',
  summary: "A page of the account's cloud address book, newest change first.",
  input: z.strictObject({
    pageSize: qPageSize(constants.addressBookPageSize),
    since: qEpochMs.optional(),
    startTime: qEpochMs.optional(),
  }),
  output: z.object({ addressBookList: z.array(AddressBookEntry), nextStartTime: EpochMs.nullable() }),
});

/** Decided result (spec: not shown): the saved contact's id and change date, so the list updates in place. */
export const createOrUpdateCloudAddressBook = defineEndpoint({
  name: 'createOrUpdateCloudAddressBook',
  method: 'POST',
  path: '/web/createOrUpdateCloudAddressBook',
  access: 'session',
  summary: 'Add a contact, or replace one (with `id`). `addressBook` is the contact as JSON text.',
  input: z.strictObject({ id: EntityId.optional(), addressBook: jsonString(AddressBook) }),
  output: z.object({ id: EntityId, date: EpochMs }),
});

/** Decided result (spec: not shown): how many contacts went; unknown ids are skipped, not an error. */
export const delCloudAddressBook = defineEndpoint({
  name: 'delCloudAddressBook',
  method: 'POST',
  path: '/web/delCloudAddressBook',
  access: 'session',
  summary: 'Delete contacts by id (`ids`: comma-joined).',
  input: z.strictObject({
    ids: z
      .string()
      .max(65 * constants.addressBookPageSize)
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .pipe(z.array(EntityId).min(1).max(constants.addressBookPageSize)),
  }),
  output: z.object({ deleted: z.number().int().nonnegative() }),
});
