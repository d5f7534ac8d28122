import type { BrandId } from '@numa/contract';
import { sql } from 'kysely';
import type { Q, Tx } from '../db';

export interface InviteParty {
  id: number;
  brand: BrandId;
  status: number;
  telCode: string | null;
  phone: string | null;
  canInvite: boolean;
  canSetInviter: boolean;
}

/** Invite codes (one per account) and redemptions (one per redeeming account). */
export const inviteRepo = {
  async codeOf(q: Q, accountId: number): Promise<string | null> {
    return (
      (
        await q
          .selectFrom('invite_codes')
          .select('code')
          .where('account_id', '=', accountId)
          .executeTakeFirst()
      )?.code ?? null
    );
  },

  /** Files a code for the account unless it has one (or the code is taken); returns the account's code, if any. */
  async claim(q: Q, accountId: number, brand: BrandId, code: string): Promise<string | null> {
    await q
      .insertInto('invite_codes')
      .values({ account_id: accountId, brand, code })
      .onConflict((oc) => oc.doNothing())
      .execute();
    return inviteRepo.codeOf(q, accountId);
  },

  /** The owner of a code on a brand (a code of another brand is unknown here). */
  async ownerOf(q: Q, brand: BrandId, code: string): Promise<number | null> {
    const row = await q
      .selectFrom('invite_codes')
      .select('account_id')
      .where('brand', '=', brand)
      .where('code', '=', code)
      .executeTakeFirst();
    return row?.account_id ?? null;
  },

  /** Locks both accounts, always in id order, so two redemptions between the same pair cannot deadlock. */
  async lockParties(tx: Tx, ids: readonly number[]): Promise<Map<number, InviteParty>> {
    const rows = await tx
      .selectFrom('accounts')
      .select([
        'id',
        'brand',
        'status',
        'tel_code as telCode',
        'phone',
        'can_invite as canInvite',
        'can_set_inviter as canSetInviter',
      ])
      .where('id', 'in', [...ids])
      .orderBy('id')
      .forUpdate()
      .execute();
    return new Map(rows.map((r) => [r.id, r]));
  },

  async redemptionBy(q: Q, redeemerId: number): Promise<{ inviterId: number } | null> {
    const row = await q
      .selectFrom('invite_redemptions')
      .select('inviter_id as inviterId')
      .where('redeemer_id', '=', redeemerId)
      .executeTakeFirst();
    return row ?? null;
  },

  /** Whether a redemption of the brand already paid the bonus to this E.164 number (any account). */
  async phoneRedeemed(q: Q, brand: BrandId, e164: string): Promise<boolean> {
    const row = await q
      .selectFrom('invite_redemptions')
      .select('redeemer_id')
      .where('brand', '=', brand)
      .where('redeemer_phone', '=', e164)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Redemptions of an inviter's code since the current calendar month began (UTC, database clock). */
  async countThisMonth(q: Q, inviterId: number): Promise<number> {
    const row = await q
      .selectFrom('invite_redemptions')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('inviter_id', '=', inviterId)
      .where('created_at', '>=', sql<Date>`date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`)
      .executeTakeFirst();
    return row?.n ?? 0;
  },

  /** Records a redemption; false when this account has one already. */
  async redeem(
    q: Q,
    r: { redeemerId: number; inviterId: number; brand: BrandId; code: string; redeemerPhone: string },
  ): Promise<boolean> {
    const row = await q
      .insertInto('invite_redemptions')
      .values({
        redeemer_id: r.redeemerId,
        inviter_id: r.inviterId,
        brand: r.brand,
        code: r.code,
        redeemer_phone: r.redeemerPhone,
        bonus_paid_at: sql`now()`,
      })
      .onConflict((oc) => oc.column('redeemer_id').doNothing())
      .returning('redeemer_id')
      .executeTakeFirst();
    return row !== undefined;
  },

  async closeRedeeming(q: Q, accountId: number): Promise<void> {
    await q
      .updateTable('accounts')
      .set({ can_set_inviter: false, updated_at: sql`now()` })
      .where('id', '=', accountId)
      .execute();
  },
};
