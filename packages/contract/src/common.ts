import { z } from 'zod';

/** Brand ids, exactly as the `platform` value the client sends. */
export const brandIds = ['numa', 'wephone', 'wetalk', 'wetalkpro', 'jiema', 'cloudnumber'] as const;
export const BrandId = z.enum(brandIds);
export type BrandId = z.infer<typeof BrandId>;

/** The `languagecode` query value. */
export const LanguageCode = z.enum(['en', 'zh_cn']);
export type LanguageCode = z.infer<typeof LanguageCode>;
/** The UI language. */
export type Lang = 'en' | 'zh';
export const langFromCode = (code: string | undefined | null): Lang =>
  code && code.toLowerCase().startsWith('zh') ? 'zh' : 'en';
export const codeFromLang = (lang: Lang): LanguageCode => (lang === 'zh' ? 'zh_cn' : 'en');

/**
 * Query values arrive as strings; the client's types speak numbers. These accept both and give numbers.
 */
export const qInt = z
  .union([z.number().int(), z.string().regex(/^-?\d{1,15}$/, 'Expected an integer')])
  .transform((v) => Number(v));
export const qNum = z
  .union([z.number().finite(), z.string().regex(/^-?\d{1,15}(\.\d{1,8})?$/, 'Expected a number')])
  .transform((v) => Number(v));
/** A 0/1 flag as number or string. */
export const qFlag = z
  .union([z.literal(0), z.literal(1), z.enum(['0', '1'])])
  .transform((v) => Number(v) as 0 | 1);

/** Query parameters added to every call by the client (spec 000 §7). */
export const CommonQuery = z.object({
  t: qInt.optional(),
  webVersion: z.string().max(40).optional(),
  languagecode: LanguageCode.optional(),
});
export const commonQueryKeys = ['t', 'webVersion', 'languagecode'] as const;
/** The key the client adds to every POST/PUT body. */
export const platformKey = 'platform' as const;

/** A country calling code without '+': 1 to 4 digits. */
export const TelCode = z
  .string()
  .trim()
  .regex(/^\d{1,4}$/, 'Country code must be 1 to 4 digits');
/** A national number: digits only. */
export const NationalNumber = z
  .string()
  .trim()
  .regex(/^\d{4,15}$/, 'Phone number must be digits');
/** A full number: country code and national number, digits only, no '+' (E.164 without the plus). */
export const FullNumber = z.string().regex(/^\d{5,16}$/, 'Expected a full phone number (digits)');
export const Email = z
  .string()
  .trim()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+\.[A-Za-z]{2,24}$/, 'Invalid e-mail address')
  .transform((v) => v.toLowerCase());
/** Epoch milliseconds. */
export const EpochMs = z.number().int().nonnegative();
/** `YYYY-MM`, a UTC month. */
export const YearMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Expected YYYY-MM');
/** ISO date `YYYY-MM-DD` (spec: paymentDate / nextPaymentDate). */
export const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}/, 'Expected an ISO date');
/** A money amount in the brand's unit (up to 4 decimals); integers of 1/10000 in the database. */
export const Money = z.number().finite();
export const Empty = z.strictObject({});

/** The response envelope (DESIGN.md: HTTP). */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ retcode: z.number().int(), retmsg: z.string(), data });
export type Envelope<T> = { retcode: number; retmsg: string; data: T };

// --- helpers added for the area contracts (chats, contacts, payments, numbers, codes …) ---

/**
 * A string parameter that carries JSON (spec 000 §7: delSms `sms`, createOrUpdateCloudAddressBook
 * `addressBook`, getCloudAddressBook's `addressBook`). Input: the JSON text; output: the parsed value,
 * checked against `schema`. Text that is not JSON is an issue, never a throw.
 */
export const jsonString = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .max(100_000)
    .transform((text, ctx): unknown => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'Expected JSON text' });
        return z.NEVER;
      }
    })
    .pipe(schema);

/** An integer query value within [min, max]. */
export const qIntIn = (min: number, max: number) => qInt.pipe(z.number().int().min(min).max(max));
/** `pageSize`: 1 to the spec's size, defaulting to it (spec 001 §9 page sizes). */
export const qPageSize = (max: number, def: number = max) => qIntIn(1, max).default(def);
/** `pageNo`: from 1, default 1. */
export const qPageNo = qIntIn(1, 1_000_000).default(1);
/** An epoch-milliseconds query value (`since`, `startTime`). */
export const qEpochMs = qIntIn(0, 8_640_000_000_000);

/** Server-made ids (`_id`, contact ids, history ids, order ids): opaque, URL-safe. */
export const EntityId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Invalid id');
/**
 * An opaque continuation cursor (`nextPage` of the bill, verification-history and code-SMS lists).
 * Decided: the spec names it but not its form; it is a string the client sends back unchanged, and
 * `null` in a response means the list (month) is exhausted.
 */
export const Cursor = z.string().min(1).max(256);

/** A message direction. */
export const Direction = z.enum(['in', 'out']);
export type Direction = z.infer<typeof Direction>;

/**
 * A media or document URL the server gave out: absolute http(s), or a path on the API host
 * (`/media/…`, the local media store).
 */
export const MediaUrl = z
  .string()
  .max(2048)
  .regex(/^(https?:\/\/|\/)\S+$/, 'Expected a URL');
/** A URL the client passes (return_url): absolute http(s) only. */
export const HttpUrl = z
  .string()
  .max(2048)
  .regex(/^https?:\/\/\S+$/, 'Expected an http(s) URL');

/**
 * Number countries and code-receiving countries (`code`): ISO 3166-1 alpha-2 in upper case, or the
 * pseudo-country `TollFree` (US/CA toll-free numbers, spec 001 §9).
 */
export const CountryCode = z.string().regex(/^([A-Z]{2}|TollFree)$/, 'Expected a country code such as US');
export type CountryCode = z.infer<typeof CountryCode>;

/** Trimmed required text of at most `max` characters. */
export const requiredText = (max: number) => z.string().trim().min(1).max(max);
