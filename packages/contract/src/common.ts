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
export const qFlag = z.union([z.literal(0), z.literal(1), z.enum(['0', '1'])]).transform((v) => Number(v) as 0 | 1);

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
export const TelCode = z.string().trim().regex(/^\d{1,4}$/, 'Country code must be 1 to 4 digits');
/** A national number: digits only. */
export const NationalNumber = z.string().trim().regex(/^\d{4,15}$/, 'Phone number must be digits');
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
