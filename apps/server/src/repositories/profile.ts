import type { BillingProfile } from '@numa/contract';
import type { Queryable } from '../db';

export interface BillingProfileRow extends BillingProfile {
  accountId: number;
  status: number;
  refuseReason: string;
  submittedAt: Date;
  reviewedAt: Date | null;
}

const profileCols = `account_id AS "accountId", first_name AS "firstName", last_name AS "lastName", address, city,
  province, postal_code AS "postalCode", country, region_code AS "regionCode", status, refuse_reason AS "refuseReason",
  submitted_at AS "submittedAt", reviewed_at AS "reviewedAt"`;

export type KycSlot = 'idCard1' | 'idCard2' | 'idHold1' | 'idHold2';
export const kycSlots: readonly KycSlot[] = ['idCard1', 'idCard2', 'idHold1', 'idHold2'];
const slotColumn: Record<KycSlot, string> = { idCard1: 'id_card_1', idCard2: 'id_card_2', idHold1: 'id_hold_1', idHold2: 'id_hold_2' };

export interface KycRow {
  accountId: number;
  /** Media ids by slot (null: empty). */
  slots: Record<KycSlot, string | null>;
  status: number;
  refuseReason: string;
  submittedAt: Date;
  reviewedAt: Date | null;
}

const kycCols = `account_id AS "accountId", id_card_1 AS "idCard1", id_card_2 AS "idCard2", id_hold_1 AS "idHold1",
  id_hold_2 AS "idHold2", status, refuse_reason AS "refuseReason", submitted_at AS "submittedAt", reviewed_at AS "reviewedAt"`;
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
  async get(q: Queryable, accountId: number): Promise<BillingProfileRow | null> {
    const [row] = await q.query<BillingProfileRow>(`SELECT ${profileCols} FROM billing_profiles WHERE account_id = $1`, [accountId]);
    return row ?? null;
  },

  async lock(q: Queryable, accountId: number): Promise<BillingProfileRow | null> {
    const [row] = await q.query<BillingProfileRow>(`SELECT ${profileCols} FROM billing_profiles WHERE account_id = $1 FOR UPDATE`, [accountId]);
    return row ?? null;
  },

  /** Writes the submitted profile with its new status (a new submission clears the last review). */
  async upsert(q: Queryable, accountId: number, p: BillingProfile, status: number): Promise<void> {
    await q.query(
      `INSERT INTO billing_profiles (account_id, first_name, last_name, address, city, province, postal_code, country, region_code, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (account_id) DO UPDATE SET first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name,
         address = EXCLUDED.address, city = EXCLUDED.city, province = EXCLUDED.province, postal_code = EXCLUDED.postal_code,
         country = EXCLUDED.country, region_code = EXCLUDED.region_code, status = EXCLUDED.status, refuse_reason = '',
         submitted_at = now(), reviewed_at = NULL`,
      [accountId, p.firstName, p.lastName, p.address, p.city, p.province, p.postalCode, p.country, p.regionCode, status],
    );
  },

  /** An operator's decision on a profile under review; false when it is not under review. */
  async review(q: Queryable, accountId: number, status: number, reason: string): Promise<boolean> {
    const rows = await q.query(
      `UPDATE billing_profiles SET status = $2, refuse_reason = $3, reviewed_at = now() WHERE account_id = $1 AND status = 1 RETURNING account_id`,
      [accountId, status, reason],
    );
    return rows.length === 1;
  },

  async pending(q: Queryable, brand: string): Promise<PendingReview[]> {
    return q.query<PendingReview>(
      `SELECT a.id AS "accountId", a.brand, a.email, a.tel_code AS "telCode", a.phone, p.submitted_at AS "submittedAt"
         FROM billing_profiles p JOIN accounts a ON a.id = p.account_id
        WHERE p.status = 1 AND a.brand = $1 ORDER BY p.submitted_at`,
      [brand],
    );
  },
};

export const kycRepo = {
  async get(q: Queryable, accountId: number): Promise<KycRow | null> {
    const [row] = await q.query<KycDbRow>(`SELECT ${kycCols} FROM kyc_submissions WHERE account_id = $1`, [accountId]);
    return row ? toKyc(row) : null;
  },

  /** The account's row, locked for a change; made (status -1, no images) when there is none. */
  async lockOrCreate(q: Queryable, accountId: number): Promise<KycRow> {
    await q.query(`INSERT INTO kyc_submissions (account_id, status) VALUES ($1, -1) ON CONFLICT (account_id) DO NOTHING`, [accountId]);
    const [row] = await q.query<KycDbRow>(`SELECT ${kycCols} FROM kyc_submissions WHERE account_id = $1 FOR UPDATE`, [accountId]);
    return toKyc(row!);
  },

  async submit(q: Queryable, accountId: number, slots: Record<KycSlot, string | null>, status: number): Promise<void> {
    await q.query(
      `UPDATE kyc_submissions SET ${kycSlots.map((s, i) => `${slotColumn[s]} = $${i + 2}`).join(', ')}, status = $6,
         refuse_reason = '', submitted_at = now(), reviewed_at = NULL WHERE account_id = $1`,
      [accountId, ...kycSlots.map((s) => slots[s]), status],
    );
  },

  async review(q: Queryable, accountId: number, status: number, reason: string): Promise<boolean> {
    const rows = await q.query(
      `UPDATE kyc_submissions SET status = $2, refuse_reason = $3, reviewed_at = now() WHERE account_id = $1 AND status = 1 RETURNING account_id`,
      [accountId, status, reason],
    );
    return rows.length === 1;
  },

  async pending(q: Queryable, brand: string): Promise<PendingReview[]> {
    return q.query<PendingReview>(
      `SELECT a.id AS "accountId", a.brand, a.email, a.tel_code AS "telCode", a.phone, k.submitted_at AS "submittedAt"
         FROM kyc_submissions k JOIN accounts a ON a.id = k.account_id
        WHERE k.status = 1 AND a.brand = $1 ORDER BY k.submitted_at`,
      [brand],
    );
  },

  /** Marks identity images no longer on file as deleted (their bytes go after the commit). */
  async retireMedia(q: Queryable, accountId: number, mediaIds: readonly string[]): Promise<void> {
    if (!mediaIds.length) return;
    await q.query(`UPDATE media SET deleted_at = now() WHERE account_id = $1 AND kind = 'kyc' AND id = ANY($2::text[])`, [accountId, [...mediaIds]]);
  },
};
