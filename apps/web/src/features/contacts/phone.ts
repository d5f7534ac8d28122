import { constants, parsePhone } from '@numa/contract';

/* Phone helpers of the address book, without the pinyin dictionary (the profile and chats use them). */

/** Strips what people type around a number (spec 000 §5: '+', parentheses and spaces; dashes and dots too). */
export const stripPhone = (v: string) => v.replace(/[+()\s.-]/g, '');

/** The last four digits modulo 7 pick the avatar colour (spec 000 §2). No digits: the first colour. */
export function avatarColour(phone: string | undefined): number {
  const digits = (phone ?? '').replace(/\D/g, '');
  if (!digits) return 0;
  return Number(digits.slice(-4)) % constants.avatarColours;
}

/** The avatar's letter: the name's first character (upper case), '#' when there is none. */
export function initialOf(name: string): string {
  const first = Array.from(name.trim())[0];
  return first ? first.toUpperCase() : '#';
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
