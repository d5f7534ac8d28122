import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { z } from 'zod';
import { constants, PowChallenge } from '@numa/contract';
import type { Database } from '../db';
import { ApiError } from '../lib/errors';
import { powSpentRepo, serverSecretsRepo } from '../repositories/security';

/** How a solution arrives (contract PowPayload, decoded): the challenge as issued and the counter found. */
const Decoded = z.object({
  challenge: PowChallenge,
  solution: z.object({
    counter: z.number().int().nonnegative(),
    derivedKey: z.string().max(256),
    time: z.number().optional(),
  }),
});

export const powAlgorithm = 'SHA-256';

/**
 * Proof of work for the calls that send codes (issue 9, hole 2), with altcha-lib v2 in its
 * deterministic mode: the server picks a counter between maxCounter/2 and maxCounter, derives its key
 * (SHA-256 of salt + nonce + counter) and signs the key's first half as the prefix to find; the client
 * tries counters from 0 until a key starts with it (on average 3/4 of maxCounter SHA-256 digests),
 * and the server checks the answer with one HMAC. Challenges are HMAC-signed with a secret kept in
 * the database (one for all servers), carry the captcha id they were drawn for and expire with it;
 * a solved one is spent once (pow_spent).
 */
export function createPowService(opts: { db: Database; maxCounter: number }) {
  const { db } = opts;
  let secrets: Promise<{ challenge: string; key: string }> | null = null;
  const keys = () =>
    (secrets ??= serverSecretsRepo
      .getOrCreate(db.q, 'pow-hmac', () => randomBytes(32).toString('base64url'))
      .then((root) => ({
        challenge: createHmac('sha256', root).update('challenge').digest('base64url'),
        key: createHmac('sha256', root).update('derived-key').digest('base64url'),
      })));
  let spends = 0;

  return {
    /** A signed challenge for one captcha drawing, valid as long as the captcha. */
    async challenge(captchaId: string): Promise<PowChallenge> {
      const k = await keys();
      const max = Math.max(2, opts.maxCounter);
      const challenge = await createChallenge({
        algorithm: powAlgorithm,
        cost: 1,
        counter: randomInt(Math.floor(max / 2), max + 1),
        deriveKey,
        data: { cid: captchaId },
        expiresAt: new Date(Date.now() + constants.captchaTtlMs),
        hmacSignatureSecret: k.challenge,
        hmacKeySignatureSecret: k.key,
      });
      return PowChallenge.parse(challenge);
    },

    /**
     * Checks a solved challenge for a captcha id and spends it. Missing, malformed, for another
     * captcha, expired, tampered with, wrong, or already spent: 100029.
     */
    async verify(captchaId: string, payload: string | undefined): Promise<void> {
      const refuse = (why: string) => new ApiError(100029, null, why);
      if (!payload) throw refuse('no proof of work');
      let decoded: z.infer<typeof Decoded>;
      try {
        decoded = Decoded.parse(JSON.parse(Buffer.from(payload, 'base64').toString('utf8')));
      } catch {
        throw refuse('malformed proof of work');
      }
      const { challenge, solution } = decoded;
      if (challenge.parameters.data?.cid !== captchaId) throw refuse('proof of work of another captcha');
      if (challenge.parameters.algorithm !== powAlgorithm) throw refuse('unexpected algorithm');
      const k = await keys();
      const result = await verifySolution({
        challenge,
        solution,
        deriveKey,
        hmacSignatureSecret: k.challenge,
        hmacKeySignatureSecret: k.key,
      });
      if (result.expired) throw refuse('proof of work expired');
      if (!result.verified) throw refuse('proof of work not solved');
      const hash = createHash('sha256').update(challenge.signature).digest('hex');
      const expiresAt = new Date(
        (challenge.parameters.expiresAt ?? Date.now() / 1000 + constants.captchaTtlMs / 1000) * 1000,
      );
      if (!(await powSpentRepo.spend(db.q, hash, expiresAt))) throw refuse('proof of work already used');
      if (++spends % 200 === 0) await powSpentRepo.purgeExpired(db.q).catch(() => {});
    },
  };
}

export type PowService = ReturnType<typeof createPowService>;
