import { constants, type BrandId } from '@numa/contract';
import type { Database } from '../db';
import { accountsRepo } from '../repositories/accounts';
import {
  kycRepo,
  kycSlots,
  profileRepo,
  type BillingProfileRow,
  type KycRow,
  type KycSlot,
  type PendingReview,
} from '../repositories/profile';
import type { MediaService } from './media';

export type { PendingReview } from '../repositories/profile';

export type ReviewSubject = 'profile' | 'kyc';
export type ReviewDecision = 'approve' | 'refuse';

/** Longest refusal reason an operator may give (it is shown to the user under the red notice). */
export const refuseReasonMax = 500;

export interface ReviewImage {
  slot: KycSlot;
  mediaId: string;
  mime: string;
  bytes: Buffer;
}

/**
 * The operator's review of billing profiles and identity documents (the admin command's `review`
 * commands). A decision applies only to a submission under review (1): approve → 2, refuse → 100 with
 * a reason the user sees on their next getProfile / getKYCInfo.
 */
export function createReviewService(db: Database, media: MediaService) {
  return {
    /** Submissions waiting for review, oldest first; of one brand, or of all when none is given. */
    async pending(brand?: BrandId): Promise<{ profiles: PendingReview[]; kyc: PendingReview[] }> {
      const brands = brand ? [brand] : await accountsRepo.brands(db.q);
      const profiles: PendingReview[] = [];
      const kyc: PendingReview[] = [];
      for (const b of brands) {
        profiles.push(...(await profileRepo.pending(db.q, b)));
        kyc.push(...(await kycRepo.pending(db.q, b)));
      }
      const byTime = (a: PendingReview, b: PendingReview) =>
        a.submittedAt.getTime() - b.submittedAt.getTime();
      return { profiles: profiles.sort(byTime), kyc: kyc.sort(byTime) };
    },

    async submissions(accountId: number): Promise<{ profile: BillingProfileRow | null; kyc: KycRow | null }> {
      const [profile, kyc] = await Promise.all([
        profileRepo.get(db.q, accountId),
        kycRepo.get(db.q, accountId),
      ]);
      return { profile, kyc };
    },

    /** The identity images on file, whatever their access list (operators only). */
    async images(accountId: number): Promise<ReviewImage[]> {
      const row = await kycRepo.get(db.q, accountId);
      const out: ReviewImage[] = [];
      for (const slot of kycSlots) {
        const id = row?.slots[slot];
        if (!id) continue;
        const file = await media.readAny(id);
        if (file && file.accountId === accountId)
          out.push({ slot, mediaId: id, mime: file.mime, bytes: file.bytes });
      }
      return out;
    },

    /**
     * Approves or refuses a submission under review: `changed` and the new status; when it was not
     * under review nothing changes, and `status` is the one it has (-1: never submitted).
     */
    async decide(
      accountId: number,
      subject: ReviewSubject,
      decision: ReviewDecision,
      reason = '',
    ): Promise<{ changed: boolean; status: number }> {
      const text = decision === 'refuse' ? reason.trim().slice(0, refuseReasonMax) : '';
      const status =
        decision === 'approve' ? constants.profileStatus.verified : constants.profileStatus.refused;
      return db.tx(async (q) => {
        const changed =
          subject === 'profile'
            ? await profileRepo.review(q, accountId, status, text)
            : await kycRepo.review(q, accountId, status, text);
        if (changed) return { changed, status };
        const current =
          subject === 'profile' ? await profileRepo.get(q, accountId) : await kycRepo.get(q, accountId);
        return { changed, status: current?.status ?? -1 };
      });
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
