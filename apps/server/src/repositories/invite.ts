import type { BrandId } from '@numa/contract';
import type { Queryable } from '../db';

export interface InviteParty {
  id: number;
  brand: BrandId;
  status: number;
  phone: string | null;
  canInvite: boolean;
  canSetInviter: boolean;
}

/** Invite codes (one per account) and redemptions (one per redeeming account). */
export const inviteRepo = {
  async codeOf(q: Queryable, accountId: number): Promise<string | null> {
    const [row] = await q.query<{ code: string }>(`SELECT code FROM invite_codes WHERE account_id = $1`, [accountId]);
    return row?.code ?? null;
  },

  /** Files a code for the account unless it has one (or the code is taken); returns the account's code, if any. */
  async claim(q: Queryable, accountId: number, brand: BrandId, code: string): Promise<string | null> {
    await q.query(`INSERT INTO invite_codes (account_id, brand, code) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [accountId, brand, code]);
    return inviteRepo.codeOf(q, accountId);
  },

  /** The owner of a code on a brand (a code of another brand is unknown here). */
  async ownerOf(q: Queryable, brand: BrandId, code: string): Promise<number | null> {
    const [row] = await q.query<{ accountId: number }>(`SELECT account_id AS "accountId" FROM invite_codes WHERE brand = $1 AND code = $2`, [brand, code]);
    return row?.accountId ?? null;
  },

  /** Locks both accounts, always in id order, so two redemptions between the same pair cannot deadlock. */
  async lockParties(q: Queryable, ids: readonly number[]): Promise<Map<number, InviteParty>> {
    const rows = await q.query<InviteParty>(
      `SELECT id, brand, status, phone, can_invite AS "canInvite", can_set_inviter AS "canSetInviter"
         FROM accounts WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`,
      [[...ids]],
    );
    return new Map(rows.map((r) => [r.id, r]));
  },

  async redemptionBy(q: Queryable, redeemerId: number): Promise<{ inviterId: number } | null> {
    const [row] = await q.query<{ inviterId: number }>(`SELECT inviter_id AS "inviterId" FROM invite_redemptions WHERE redeemer_id = $1`, [redeemerId]);
    return row ?? null;
  },

  /** Records a redemption; false when this account has one already. */
  async redeem(q: Queryable, r: { redeemerId: number; inviterId: number; brand: BrandId; code: string }): Promise<boolean> {
    const rows = await q.query(
      `INSERT INTO invite_redemptions (redeemer_id, inviter_id, brand, code, bonus_paid_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (redeemer_id) DO NOTHING RETURNING redeemer_id`,
      [r.redeemerId, r.inviterId, r.brand, r.code],
    );
    return rows.length === 1;
  },

  async closeRedeeming(q: Queryable, accountId: number): Promise<void> {
    await q.query(`UPDATE accounts SET can_set_inviter = false, updated_at = now() WHERE id = $1`, [accountId]);
  },
};
