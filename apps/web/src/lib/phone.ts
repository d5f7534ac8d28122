import { parsePhone } from '@numa/contract';

/* Phone numbers as every area shows them (the chats, contacts, numbers, histories and profile). The
 * metadata is the contract's (phone.ts), the same the server reads numbers with. */

const fullCache = new Map<string, string>();
/**
 * "+1 415 555 0100" for a full number; a sender id or short code (up to 8 digits) as it is. Kept once
 * worked out: a chat row, a bubble's header and a notification format the same few numbers again on
 * every message, and libphonenumber's parse and format is most of a chat row's render.
 */
export function formatFullNumber(full: string): string {
  const hit = fullCache.get(full);
  if (hit !== undefined) return hit;
  let text = full;
  if (/^\d{5,16}$/.test(full)) {
    const parsed = parsePhone(full);
    if (parsed?.isValid()) text = parsed.formatInternational();
    else if (full.length > 8) text = `+${full}`;
  }
  if (fullCache.size > 50_000) fullCache.clear();
  fullCache.set(full, text);
  return text;
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
