import { parsePhone } from '@numa/contract';

/* Phone numbers as every area shows them (the chats, contacts, numbers, histories and profile). The
 * metadata is the contract's (phone.ts), the same the server reads numbers with. */

/** "+1 415 555 0100" for a full number; a sender id or short code (up to 8 digits) as it is. */
export function formatFullNumber(full: string): string {
  if (!/^\d{5,16}$/.test(full)) return full;
  const parsed = parsePhone(full);
  if (parsed?.isValid()) return parsed.formatInternational();
  return full.length <= 8 ? full : `+${full}`;
}

const formatCache = new Map<string, string>();
/** A full number for display ('+1 415 555 0100'); numbers libphonenumber cannot read keep '+code rest'. */
export function formatPhone(phone: string, telCode: string): string {
  const key = `${telCode}|${phone}`;
  const hit = formatCache.get(key);
  if (hit) return hit;
  const parsed = parsePhone(phone);
  const text =
    parsed && parsed.countryCallingCode === telCode && parsed.isPossible()
      ? parsed.formatInternational()
      : `+${telCode} ${phone.startsWith(telCode) ? phone.slice(telCode.length) : phone}`;
  if (formatCache.size > 50_000) formatCache.clear();
  formatCache.set(key, text);
  return text;
}
