import {
  constants,
  type BillingProfile,
  type KYCInfo,
  type ProfileRequiredData,
  type ProfileStatus,
  type RawOutputOf,
  type endpoints,
} from '@numa/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Q } from '../db';
import { ApiError } from '../lib/errors';
import { accountsRepo } from '../repositories/accounts';
import { kycRepo, kycSlots, profileRepo, type KycRow, type KycSlot } from '../repositories/profile';

export type { KycSlot } from '../repositories/profile';
import { mediaIdFromUrl, mediaUrl, type MediaService } from './media';
import { accountText } from './accountTexts';

const S = constants.profileStatus;
const K = constants.kycStatus;

/** The billing-profile status of an account: -1 when it never submitted one (never 0, contract). */
export async function profileStatusOf(q: Q, accountId: number): Promise<ProfileStatus> {
  return ((await profileRepo.get(q, accountId))?.status ?? S.none) as ProfileStatus;
}

/**
 * For later areas (buying or managing numbers, some payment methods): refuses with 100023
 * `{profileStatus, needSetPhone}` unless the billing profile is verified (2) and, when `needPhone`,
 * the account has a phone. The client then opens the profile form, the status dialog or the verify
 * modal. Decided: `needSetPhone` is true only when the action needs a phone and the account has none.
 */
export async function assertProfileReady(
  q: Q,
  accountId: number,
  opts: { needPhone?: boolean } = {},
): Promise<void> {
  const [profileStatus, account] = await Promise.all([
    profileStatusOf(q, accountId),
    accountsRepo.byId(q, accountId),
  ]);
  const needSetPhone = !!opts.needPhone && !account?.phone;
  if (profileStatus !== S.verified || needSetPhone) {
    const data: ProfileRequiredData = { profileStatus, needSetPhone };
    throw new ApiError(100023, data);
  }
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
/** An ISO 3166-1 alpha-2 code Intl knows ('ZZ', "unknown region", is not one). */
export const isRegionCode = (code: string) => code !== 'ZZ' && regionNames.of(code) !== undefined;

const sameProfile = (a: BillingProfile, b: BillingProfile) =>
  (
    ['firstName', 'lastName', 'address', 'city', 'province', 'postalCode', 'country', 'regionCode'] as const
  ).every((k) => a[k] === b[k]);

/** The phone-profile status (identity documents seen from the numbers side; contract PhoneProfileStatus). */
const phoneProfileStatus = (kycStatus: number): 0 | 1 | 2 | 100 =>
  kycStatus === K.reviewing ? 1 : kycStatus === K.verified ? 2 : kycStatus === K.refused ? 100 : 0;

type KycSection = 'idCard' | 'idHold';
const sectionOf = (slot: KycSlot): KycSection => (slot.startsWith('idCard') ? 'idCard' : 'idHold');
const urlField = constants.kycFiles;

export interface KycFile {
  slot: KycSlot;
  bytes: Buffer;
  fileName: string | undefined;
}

/** The billing profile, the identity documents and their reviews (spec 000 §3–§5). */
export function createProfileService(db: Database, media: MediaService, log: FastifyBaseLogger) {
  const kycView = (row: KycRow | null): KYCInfo => ({
    status: (row?.status ?? K.none) as KYCInfo['status'],
    idCardUrl1: row?.slots.idCard1 ? mediaUrl(row.slots.idCard1) : '',
    idCardUrl2: row?.slots.idCard2 ? mediaUrl(row.slots.idCard2) : '',
    idHoldUrl1: row?.slots.idHold1 ? mediaUrl(row.slots.idHold1) : '',
    idHoldUrl2: row?.slots.idHold2 ? mediaUrl(row.slots.idHold2) : '',
    refuseReason: row?.status === K.refused ? row.refuseReason : '',
  });

  return {
    async getProfile(accountId: number): Promise<RawOutputOf<typeof endpoints.getProfile>> {
      const [account, profile, kyc, vip] = await Promise.all([
        accountsRepo.byId(db.q, accountId),
        profileRepo.get(db.q, accountId),
        kycRepo.get(db.q, accountId),
        accountsRepo.vipUntil(db.q, accountId),
      ]);
      if (!account) throw new ApiError(100012);
      const vipUntil = vip && vip.getTime() > Date.now() ? vip.getTime() : null;
      return {
        firstName: profile?.firstName ?? '',
        lastName: profile?.lastName ?? '',
        address: profile?.address ?? '',
        city: profile?.city ?? '',
        province: profile?.province ?? '',
        postalCode: profile?.postalCode ?? '',
        country: profile?.country ?? '',
        regionCode: profile?.regionCode ?? '',
        profileStatus: (profile?.status ?? S.none) as ProfileStatus,
        profileStatus4Phone: phoneProfileStatus(kyc?.status ?? K.none),
        needSetPhone: !account.phone,
        vipStatus: vipUntil ? 1 : 0,
        expireDate: vipUntil,
        refuseReason: profile?.status === S.refused ? profile.refuseReason : '',
      };
    },

    /**
     * Submits the billing profile for review. Decided: any submission goes to review (1) — also after a
     * refusal, and also when a verified profile changes — except an unchanged profile that is under
     * review or verified, which keeps its status. `regionCode` must be a real region ('' allowed).
     */
    async updateProfile(accountId: number, p: BillingProfile): Promise<{ profileStatus: 1 | 2 | 100 }> {
      if (p.regionCode && !isRegionCode(p.regionCode)) {
        throw new ApiError(
          100001,
          { issues: [{ path: 'regionCode', message: 'Unknown region code' }] },
          'regionCode',
        );
      }
      return db.tx(async (q) => {
        const current = await profileRepo.lock(q, accountId);
        if (
          current &&
          sameProfile(current, p) &&
          (current.status === S.reviewing || current.status === S.verified)
        ) {
          return { profileStatus: current.status as 1 | 2 };
        }
        await profileRepo.upsert(q, accountId, p, S.reviewing);
        return { profileStatus: S.reviewing as 1 };
      });
    },

    async getKyc(accountId: number): Promise<KYCInfo> {
      return kycView(await kycRepo.get(db.q, accountId));
    },

    /**
     * Identity documents (spec 000 §5, spec 001 §4): only while the status is -1 or 100 (else 400000);
     * at most 2 images per section, counting the kept ones; the ID's front and back both present; each
     * file png or jpeg by its bytes and at most 5 MB. A file replaces its slot; a slot without a file
     * keeps the image whose URL is sent for it (one of the account's own images on file), else it is
     * emptied. Everything is checked before anything is written; on a failure nothing changes and the
     * bytes already stored are removed. Images no longer on file are deleted after the commit.
     */
    async submitKyc(
      accountId: number,
      files: KycFile[],
      kept: Record<(typeof urlField)[KycSlot], string>,
    ): Promise<KYCInfo> {
      const maxBytes = constants.identityImage.maxBytes;
      // each section has two slots, so a third image is a slot sent twice
      const bySlot = new Map<KycSlot, KycFile>();
      for (const f of files) {
        if (bySlot.has(f.slot))
          throw new ApiError(
            100001,
            { section: sectionOf(f.slot) },
            `${f.slot} sent twice`,
            accountText('kycTooMany'),
          );
        bySlot.set(f.slot, f);
      }
      for (const f of files) {
        if (f.bytes.byteLength > maxBytes)
          throw new ApiError(
            100005,
            { field: f.slot, maxBytes },
            'file too large',
            accountText('kycTooLarge'),
          );
        const type = f.bytes.byteLength
          ? await (await import('file-type')).fileTypeFromBuffer(f.bytes)
          : undefined;
        if (!type || !(constants.kycMimeTypes as readonly string[]).includes(type.mime)) {
          throw new ApiError(
            300038,
            { field: f.slot, allowed: constants.identityImage.types },
            type?.mime ?? 'unknown type',
            accountText('kycBadType'),
          );
        }
      }

      const stored: string[] = [];
      let retired: string[] = [];
      try {
        const result = await db.tx(async (q) => {
          const row = await kycRepo.lockOrCreate(q, accountId);
          if (row.status !== K.none && row.status !== K.refused)
            throw new ApiError(
              400000,
              { status: row.status },
              'under review or verified',
              accountText('kycLocked'),
            );
          const onFile = new Set(Object.values(row.slots).filter((v): v is string => v !== null));
          const next = {} as Record<KycSlot, string | null>;
          const used = new Set<string>();
          for (const slot of kycSlots) {
            const url = kept[urlField[slot]];
            if (bySlot.has(slot) || url === '') {
              next[slot] = null;
              continue;
            }
            const id = mediaIdFromUrl(url);
            if (!id || !onFile.has(id))
              throw new ApiError(100003, { field: urlField[slot] }, 'not one of your images on file');
            if (used.has(id)) throw new ApiError(100001, { field: urlField[slot] }, 'the same image twice');
            used.add(id);
            next[slot] = id;
          }
          if (!(next.idCard1 || bySlot.has('idCard1')) || !(next.idCard2 || bySlot.has('idCard2'))) {
            throw new ApiError(
              100001,
              { section: 'idCard' },
              'front and back required',
              accountText('kycFrontAndBack'),
            );
          }
          for (const [slot, f] of bySlot) {
            const saved = await media.save({
              accountId,
              kind: 'kyc',
              bytes: f.bytes,
              allowed: constants.kycMimeTypes,
              maxBytes,
              fileName: f.fileName,
              q,
            });
            stored.push(saved.id);
            next[slot] = saved.id;
          }
          await kycRepo.submit(q, accountId, next, K.reviewing);
          const keep = new Set(Object.values(next));
          retired = [...onFile].filter((id) => !keep.has(id));
          await media.retireKyc(q, accountId, retired);
          return kycRepo.get(q, accountId);
        });
        for (const id of retired)
          await media.store
            .delete(id)
            .catch((err: unknown) => log.warn({ err, id }, 'could not delete a retired identity image'));
        return kycView(result);
      } catch (err) {
        for (const id of stored) await media.store.delete(id).catch(() => {});
        throw err;
      }
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
