import { z } from 'zod';
import { Empty, EpochMs, MediaUrl, requiredText } from '../common';
import { constants } from '../constants';
import { defineEndpoint } from '../endpoint';

/**
 * Billing-profile status (spec 000 §3 and §4): -1 or 0 not submitted (the update-profile modal
 * shows), 1 reviewing, 2 verified, 100 refused / needs update. Decided: the server sends -1 for
 * "never submitted" and never 0.
 */
export const ProfileStatus = z.literal(Object.values(constants.profileStatus));
export type ProfileStatus = z.infer<typeof ProfileStatus>;

/**
 * Phone-profile status (spec 000 §4): 0 not submitted, 1 in review, 100 refused. Decided: it is the
 * review state of the identity documents carriers require for numbers (getKYCInfo's status seen from
 * the numbers side: -1 → 0), and 2 (verified) is added, which the spec does not list.
 */
export const PhoneProfileStatus = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(100)]);

/** Identity (KYC) status (spec 000 §3): -1 none yet, 1 reviewing, 2 verified, 100 needs update. */
export const KycStatus = z.literal(Object.values(constants.kycStatus));
export type KycStatus = z.infer<typeof KycStatus>;

/**
 * The `data` of retcode 100023 (spec 000 §7, spec 001 §6): the billing profile or the phone is
 * missing. The client stores both and starts the profile (or verify-phone) flow.
 */
export const ProfileRequiredData = z.object({ profileStatus: ProfileStatus, needSetPhone: z.boolean() });
export type ProfileRequiredData = z.infer<typeof ProfileRequiredData>;

/**
 * The billing profile (spec 000 §3). Text fields are '' until submitted. Decided: `regionCode` is
 * the ISO 3166-1 alpha-2 code of `country` ('' when unknown); `country` is the name as typed.
 */
export const BillingProfile = z.object({
  firstName: z.string(),
  lastName: z.string(),
  address: z.string(),
  city: z.string(),
  province: z.string(),
  postalCode: z.string(),
  country: z.string(),
  regionCode: z.string(),
});
export type BillingProfile = z.infer<typeof BillingProfile>;

export const getProfile = defineEndpoint({
  name: 'getProfile',
  method: 'GET',
  path: '/web/getProfile',
  access: 'session',
  summary: 'The billing profile, its review status, the phone status and VIP state.',
  input: Empty,
  output: BillingProfile.extend({
    profileStatus: ProfileStatus,
    profileStatus4Phone: PhoneProfileStatus,
    /** The account has no verified phone yet (decided: also sent here, not only with 100023). */
    needSetPhone: z.boolean(),
    /** 1 is VIP (spec 000 §3; shown on one dollar brand only). */
    vipStatus: z.union([z.literal(0), z.literal(1)]),
    /** When VIP ends (epoch ms); null when not VIP. */
    expireDate: EpochMs.nullable(),
    /**
     * Decided: the operator's reason when profileStatus is 100 (shown under the red notice), else ''.
     */
    refuseReason: z.string().default(''),
  }),
});

/** Decided result (spec 000 §4): the status the update leads to (2 done, 1 pending review, 100 refused). */
export const updateProfile = defineEndpoint({
  name: 'updateProfile',
  method: 'POST',
  path: '/web/updateProfile',
  access: 'session',
  summary: 'Submit the billing profile for review (all fields required and trimmed; city at most 20).',
  input: z.strictObject({
    firstName: requiredText(50),
    lastName: requiredText(50),
    address: requiredText(200),
    city: requiredText(constants.billingCityMax),
    province: requiredText(50),
    country: requiredText(60),
    regionCode: z
      .union([z.literal(''), z.string().regex(/^[A-Z]{2}$/, 'Expected a 2-letter region code')])
      .default(''),
    postalCode: requiredText(20),
  }),
  output: z.object({ profileStatus: z.union([z.literal(1), z.literal(2), z.literal(100)]) }),
});

/** Identity (KYC) info (spec 000 §3, spec 001 §3): the status and the four image URLs ('' if none). */
export const KYCInfo = z.object({
  status: KycStatus,
  idCardUrl1: z.string(),
  idCardUrl2: z.string(),
  idHoldUrl1: z.string(),
  idHoldUrl2: z.string(),
  /** Decided: the operator's reason when status is 100 (shown under the red notice), else ''. */
  refuseReason: z.string().default(''),
});
export type KYCInfo = z.infer<typeof KYCInfo>;

export const getKYCInfo = defineEndpoint({
  name: 'getKYCInfo',
  method: 'GET',
  path: '/web/getKYCInfo',
  access: 'session',
  summary: 'The identity documents on file and their review status.',
  input: Empty,
  output: KYCInfo,
});

/** An existing image URL to keep, or '' for none. */
const KeptUrl = z.union([z.literal(''), MediaUrl]);

/** The multipart file parts of updateKYCInfo: png or jpeg, at most 5 MB each. */
export const kycFileFields = Object.keys(constants.kycFiles) as (keyof typeof constants.kycFiles)[];

/**
 * Submit identity documents (multipart). The text fields are the URLs of images already on file to
 * keep ('' for none); the file parts idCard1, idCard2 (ID front and back) and idHold1, idHold2 (holding
 * the ID) replace their slot. A submission needs a front and a back image (from a file or a kept
 * URL) and is refused (400000) unless the status is -1 or 100. Decided result (spec: "truthy"): the
 * new KYC info, status 1 (reviewing).
 */
export const updateKYCInfo = defineEndpoint({
  name: 'updateKYCInfo',
  method: 'POST',
  path: '/web/updateKYCInfo',
  access: 'session',
  multipart: true,
  summary: 'Upload identity images (ID front/back, holding the ID) for review.',
  input: z.strictObject({
    idCardUrl1: KeptUrl.default(''),
    idCardUrl2: KeptUrl.default(''),
    idHoldUrl1: KeptUrl.default(''),
    idHoldUrl2: KeptUrl.default(''),
  }),
  output: KYCInfo,
});
