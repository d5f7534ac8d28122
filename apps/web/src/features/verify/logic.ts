import { normalizePhone } from '@numa/contract';

/** i18n keys under `verify.errors`. */
export type AddressError =
  'telCodeRequired' | 'telCodeInvalid' | 'phoneRequired' | 'phoneInvalid' | 'emailRequired' | 'emailInvalid';

export type CheckedPhone =
  | { ok: true; telcode: string; phone: string }
  | { ok: false; field: 'telCode' | 'phone'; error: AddressError };
export type CheckedEmail = { ok: true; email: string } | { ok: false; field: 'email'; error: AddressError };

/** The country code field holds at most 4 characters (spec 000 §5). */
export const TELCODE_MAX = 4;

/** Cleans what people type into the country code field: digits only (a typed "+" is dropped), 4 at most. */
export const cleanTelCode = (v: string) => v.replace(/\D/g, '').slice(0, TELCODE_MAX);

/**
 * Step 1 for a phone (spec 000 §5 Verify): 'Please enter country code', the number-missing message,
 * and (ours) a number libphonenumber finds impossible for that code. Spaces, dashes, brackets and a
 * trunk 0 are dropped.
 */
export function checkPhone(telCodeRaw: string, phoneRaw: string): CheckedPhone {
  const telcode = telCodeRaw.trim().replace(/^\+/, '');
  if (!telcode) return { ok: false, field: 'telCode', error: 'telCodeRequired' };
  if (!/^\d{1,4}$/.test(telcode)) return { ok: false, field: 'telCode', error: 'telCodeInvalid' };
  const phone = phoneRaw.replace(/[\s().-]/g, '');
  if (!phone.replace(/^0+/, '')) return { ok: false, field: 'phone', error: 'phoneRequired' };
  // the server's own reading (contract phone.ts): the same metadata, the same E.164 split
  const normal = /^\d{4,16}$/.test(phone) ? normalizePhone(telcode, phone) : null;
  if (!normal) return { ok: false, field: 'phone', error: 'phoneInvalid' };
  return { ok: true, telcode: normal.telCode, phone: normal.phone };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,24}$/;

/** Step 1 for an e-mail: 'Please enter email address', then the address pattern. */
export function checkEmail(raw: string): CheckedEmail {
  const email = raw.trim();
  if (!email) return { ok: false, field: 'email', error: 'emailRequired' };
  if (!EMAIL.test(email) || email.length > 254) return { ok: false, field: 'email', error: 'emailInvalid' };
  return { ok: true, email: email.toLowerCase() };
}
