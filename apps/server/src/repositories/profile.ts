import type { BillingProfile, BrandId } from '@numa/contract';
import { sql } from 'kysely';
import type { Q, Tx } from '../db';

export interface BillingProfileRow extends BillingProfile {
  accountId: number;
  status: number;
  refuseReason: string;
  submittedAt: Date;
  reviewedAt: Date | null;
}

const profileCols = [
  'account_id as accountId',
  'first_name as firstName',
  'last_name as lastName',
  'address',
  'city',
  'province',
  'postal_code as postalCode',
  'country',
  'region_code as regionCode',
  'status',
  'refuse_reason as refuseReason',
  'submitted_at as submittedAt',
  'reviewed_at as reviewedAt',
] as const;

export type KycSlot = 'idCard1' | 'idCard2' | 'idHold1' | 'idHold2';
export const kycSlots: readonly KycSlot[] = ['idCard1', 'idCard2', 'idHold1', 'idHold2'];

export interface KycRow {
  accountId: number;
  /** Media ids by slot (null: empty). */
  slots: Record<KycSlot, string | null>;
  status: number;
  refuseReason: string;
  submittedAt: Date;
  reviewedAt: Date | null;
}

const kycCols = [
  'account_id as accountId',
  'id_card_1 as idCard1',
  'id_card_2 as idCard2',
  'id_hold_1 as idHold1',
  'id_hold_2 as idHold2',
  'status',
  'refuse_reason as refuseReason',
  'submitted_at as submittedAt',
  'reviewed_at as reviewedAt',
] as const;
type KycDbRow = Omit<KycRow, 'slots'> & Record<KycSlot, string | null>;
const toKyc = (r: KycDbRow): KycRow => ({
  accountId: r.accountId,
  slots: { idCard1: r.idCard1, idCard2: r.idCard2, idHold1: r.idHold1, idHold2: r.idHold2 },
  status: r.status,
  refuseReason: r.refuseReason,
  submittedAt: r.submittedAt,
  reviewedAt: r.reviewedAt,
});

/** A submission waiting for review (operator list). */
export interface PendingReview {
  accountId: number;
  brand: string;
  email: string | null;
  telCode: string | null;
  phone: string | null;
  submittedAt: Date;
}

/** Billing profiles and identity (KYC) submissions, one of each per account. */
export const profileRepo = {
  async get(q: Q, accountId: number): Promise<BillingProfileRow | null> {
    return (
      (await q
        .selectFrom('billing_profiles')
        .select(profileCols)
        .where('account_id', '=', accountId)
        .executeTakeFirst()) ?? null
    );
  },

  async lock(tx: Tx, accountId: number): Promise<BillingProfileRow | null> {
    return (
      (await tx
        .selectFrom('billing_profiles')
        .select(profileCols)
        .where('account_id', '=', accountId)
        .forUpdate()
        .executeTakeFirst()) ?? null
    );
  },

  /** Writes the submitted profile with its new status (a new submission clears the last review). */
  async upsert(q: Q, accountId: number, p: BillingProfile, status: number): Promise<void> {
    await q
      .insertInto('billing_profiles')
      .values({
        account_id: accountId,
        first_name: p.firstName,
        last_name: p.lastName,
        address: p.address,
        city: p.city,
        province: p.province,
        postal_code: p.postalCode,
        country: p.country,
        region_code: p.regionCode,
        status,
      })
      .onConflict((oc) =>
        oc.column('account_id').doUpdateSet((eb) => ({
          first_name: eb.ref('excluded.first_name'),
          last_name: eb.ref('excluded.last_name'),
          address: eb.ref('excluded.address'),
          city: eb.ref('excluded.city'),
          province: eb.ref('excluded.province'),
          postal_code: eb.ref('excluded.postal_code'),
          country: eb.ref('excluded.country'),
          region_code: eb.ref('excluded.region_code'),
          status: eb.ref('excluded.status'),
          refuse_reason: '',
          submitted_at: sql`now()`,
          reviewed_at: null,
        })),
      )
      .execute();
  },

  /** An operator's decision on a profile under review; false when it is not under review. */
  async review(q: Q, accountId: number, status: number, reason: string): Promise<boolean> {
    const row = await q
      .updateTable('billing_profiles')
      .set({ status, refuse_reason: reason, reviewed_at: sql`now()` })
      .where('account_id', '=', accountId)
      .where('status', '=', 1)
      .returning('account_id')
      .executeTakeFirst();
    return row !== undefined;
  },

  async pending(q: Q, brand: BrandId): Promise<PendingReview[]> {
    return q
      .selectFrom('billing_profiles as p')
      .innerJoin('accounts as a', 'a.id', 'p.account_id')
      .select([
        'a.id as accountId',
        'a.brand',
        'a.email',
        'a.tel_code as telCode',
        'a.phone',
        'p.submitted_at as submittedAt',
      ])
      .where('p.status', '=', 1)
      .where('a.brand', '=', brand)
      .orderBy('p.submitted_at')
      .execute();
  },
};

export const kycRepo = {
  async get(q: Q, accountId: number): Promise<KycRow | null> {
    const row = await q
      .selectFrom('kyc_submissions')
      .select(kycCols)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row ? toKyc(row) : null;
  },

  /** The account's row, locked for a change; made (status -1, no images) when there is none. */
  async lockOrCreate(tx: Tx, accountId: number): Promise<KycRow> {
    await tx
      .insertInto('kyc_submissions')
      .values({ account_id: accountId, status: -1 })
      .onConflict((oc) => oc.column('account_id').doNothing())
      .execute();
    const row = await tx
      .selectFrom('kyc_submissions')
      .select(kycCols)
      .where('account_id', '=', accountId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    return toKyc(row);
  },

  async submit(
    q: Q,
    accountId: number,
    slots: Record<KycSlot, string | null>,
    status: number,
  ): Promise<void> {
    await q
      .updateTable('kyc_submissions')
      .set({
        id_card_1: slots.idCard1,
        id_card_2: slots.idCard2,
        id_hold_1: slots.idHold1,
        id_hold_2: slots.idHold2,
        status,
        refuse_reason: '',
        submitted_at: sql`now()`,
        reviewed_at: null,
      })
      .where('account_id', '=', accountId)
      .execute();
  },

  async review(q: Q, accountId: number, status: number, reason: string): Promise<boolean> {
    const row = await q
      .updateTable('kyc_submissions')
      .set({ status, refuse_reason: reason, reviewed_at: sql`now()` })
      .where('account_id', '=', accountId)
      .where('status', '=', 1)
      .returning('account_id')
      .executeTakeFirst();
    return row !== undefined;
  },

  async pending(q: Q, brand: BrandId): Promise<PendingReview[]> {
    return q
      .selectFrom('kyc_submissions as k')
      .innerJoin('accounts as a', 'a.id', 'k.account_id')
      .select([
        'a.id as accountId',
        'a.brand',
        'a.email',
        'a.tel_code as telCode',
        'a.phone',
        'k.submitted_at as submittedAt',
      ])
      .where('k.status', '=', 1)
      .where('a.brand', '=', brand)
      .orderBy('k.submitted_at')
      .execute();
  },
};
