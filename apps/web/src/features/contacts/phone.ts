import { constants } from '@numa/contract';
import { formatPhone } from '../../lib/phone';

export { formatPhone };

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
