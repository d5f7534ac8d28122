import type { Q } from '../db';

/** Secrets shared by every server of a deployment, made once by whichever needs one first. */
export const serverSecretsRepo = {
  async getOrCreate(q: Q, name: string, make: () => string): Promise<string> {
    await q
      .insertInto('server_secrets')
      .values({ name, value: make() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await q
      .selectFrom('server_secrets')
      .select('value')
      .where('name', '=', name)
      .executeTakeFirst();
    if (!row) throw new Error(`server secret ${name} missing`);
    return row.value;
  },
};

/** Spent proof-of-work challenges (by a hash of their signature). */
export const powSpentRepo = {
  /** Records a challenge as spent; false when it already was. */
  async spend(q: Q, challengeHash: string, expiresAt: Date): Promise<boolean> {
    const row = await q
      .insertInto('pow_spent')
      .values({ challenge_hash: challengeHash, expires_at: expiresAt })
      .onConflict((oc) => oc.column('challenge_hash').doNothing())
      .returning('challenge_hash')
      .executeTakeFirst();
    return row !== undefined;
  },

  async purgeExpired(q: Q): Promise<void> {
    await q.deleteFrom('pow_spent').where('expires_at', '<', new Date()).execute();
  },
};
