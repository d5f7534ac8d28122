/* Contact names for the chats (no pinyin dictionary here: the chats load this eagerly). */

/** Digits of a full number. */
const digitsOf = (v: string) => v.replace(/\D/g, '');

/** A lookup from full numbers to contact names, for chats. */
export function buildNameIndex(
  list: readonly { name: string; phoneList: readonly { phone: string }[] }[],
): Map<string, string> {
  const index = new Map<string, string>();
  // sorted input: the first contact (A–Z order) holding a number names it
  for (const c of list) for (const p of c.phoneList) if (!index.has(p.phone)) index.set(p.phone, c.name);
  return index;
}

/** The name of a full number in the address book, or ''. */
export const nameFor = (index: ReadonlyMap<string, string>, fullNumber: string) =>
  index.get(digitsOf(fullNumber)) ?? '';

/**
 * Whether a chat partner is unsaved (spec 000 §5): the short phone is all digits and there is no
 * name, or it is not in the list already added. Only then does "Add contact" show. Senders that
 * are not numbers (short codes with letters) never qualify.
 */
export function isUnsavedPartner(
  shortPhone: string,
  name: string,
  fullNumber: string,
  index: ReadonlyMap<string, string>,
): boolean {
  if (!/^\d+$/.test(shortPhone)) return false;
  return !name || !index.has(digitsOf(fullNumber));
}
