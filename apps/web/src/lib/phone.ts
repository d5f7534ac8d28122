import { parsePhone } from '@numa/contract';

/* Phone numbers as every area shows them (the chats, contacts, numbers, histories and profile). The
 * metadata is the contract's (phone.ts), the same the server reads numbers with. */

/**
 * `compute` of a text, worked out once and kept (at most 50,000, then started afresh): the same few
 * numbers are formatted and split again on every message, chat row and history line, and
 * libphonenumber's parse is most of the work of rendering one.
 */
export function keptByText<T>(compute: (text: string) => T): (text: string) => T {
  const kept = new Map<string, T>();
  return (text) => {
    if (kept.has(text)) return kept.get(text)!;
    const value = compute(text);
    if (kept.size >= 50_000) kept.clear();
    kept.set(text, value);
    return value;
  };
}

/** "+1 415 555 0100" for a full number; a sender id or short code (up to 8 digits) as it is. */
export const formatFullNumber = keptByText((full) => {
  if (!/^\d{5,16}$/.test(full)) return full;
  const parsed = parsePhone(full);
  if (parsed?.isValid()) return parsed.formatInternational();
  return full.length <= 8 ? full : `+${full}`;
});

const formatKept = keptByText((key) => {
  const [telCode = '', phone = ''] = key.split('|');
  const parsed = parsePhone(phone);
  return parsed && parsed.countryCallingCode === telCode && parsed.isPossible()
    ? parsed.formatInternational()
    : `+${telCode} ${phone.startsWith(telCode) ? phone.slice(telCode.length) : phone}`;
});
/** A full number for display ('+1 415 555 0100'); numbers libphonenumber cannot read keep '+code rest'. */
export function formatPhone(phone: string, telCode: string): string {
  return formatKept(`${telCode}|${phone}`);
}
