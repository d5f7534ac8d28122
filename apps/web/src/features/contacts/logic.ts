import { hasHan, loadedPinyin } from './pinyin';
import { constants, type AddressBook, type AddressBookEntry, type ContactTag } from '@numa/contract';
import { avatarColour, initialOf, stripPhone } from './phone';

export { avatarColour, formatPhone, initialOf, stripPhone } from './phone';

/*
 * The address book's pure rules (spec 000 §3 Contact, §5 Contacts): grouping and pinyin order,
 * search, avatar colour, the form's validation and its serialisation to the contract's AddressBook.
 */

export interface ContactPhoneView {
  /** Full number, digits only (country code first). */
  phone: string;
  telCode: string;
  tag: ContactTag;
}

/** A contact as the screen keeps it (spec 000 §3; the server's localId and accountId are dropped). */
export interface ContactView {
  id: string;
  name: string;
  phoneList: ContactPhoneView[];
  email: string;
  companyName: string;
  note: string;
  /** Last change (epoch ms), for incremental refreshes. */
  date: number;
  /** Derived: the number without its country code, per phone (spec's shortPhone0..4). */
  shortPhones: string[];
  /** Derived: lower-case name, and the pinyin reading with syllables run together, for search. */
  nameLower: string;
  pinyinKey: string;
  /** Derived: the ordering key (pinyin syllables, separated so 'li ming' sorts before 'liang'). */
  sortKey: string;
  /** 'A'…'Z' or '#'. */
  group: string;
  /** The avatar's letter and colour index (0…6). */
  initial: string;
  colour: number;
}

const readingCache = new Map<string, string[]>();

/**
 * The reading of a name for ordering: Chinese characters become their pinyin (surnames read as
 * surnames: 单 is shan, 曾 is zeng), other letters lose their accents and case. Cached per name.
 */
export function nameReading(name: string): string[] {
  const hit = readingCache.get(name);
  if (hit) return hit;
  // a name without Chinese characters reads as itself; one with them needs the dictionary, which the
  // caller loaded (preparePinyin) — without it the characters stay as they are, uncached
  const pinyin = hasHan(name) ? loadedPinyin() : null;
  const raw = pinyin
    ? pinyin(name.trim(), { toneType: 'none', type: 'array', surname: 'head', nonZh: 'consecutive' })
    : [name.trim()];
  const parts = raw
    .map((s) =>
      s
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .trim(),
    )
    .filter(Boolean);
  if (readingCache.size > 50_000) readingCache.clear();
  if (pinyin || !hasHan(name)) readingCache.set(name, parts);
  return parts;
}

/** The group a name files under: its reading's first letter, or '#' for digits, symbols and emoji. */
export function groupOf(name: string): string {
  const first = nameReading(name)[0]?.[0] ?? '';
  return /[a-z]/.test(first) ? first.toUpperCase() : '#';
}

/** Builds the screen's contact from a stored address book. */
export function toContactView(id: string, book: AddressBook, date: number): ContactView {
  const reading = nameReading(book.name);
  const phoneList = book.phoneList.map((p) => ({ phone: p.phone, telCode: p.telCode, tag: p.tag }));
  const first = reading[0]?.[0] ?? '';
  return {
    id,
    name: book.name,
    phoneList,
    email: book.email,
    companyName: book.companyName,
    note: book.note,
    date,
    shortPhones: phoneList.map((p) =>
      p.phone.startsWith(p.telCode) ? p.phone.slice(p.telCode.length) : p.phone,
    ),
    nameLower: book.name.toLowerCase(),
    pinyinKey: reading.join(''),
    sortKey: reading.join(' '),
    group: /[a-z]/.test(first) ? first.toUpperCase() : '#',
    initial: initialOf(book.name),
    colour: avatarColour(phoneList[0]?.phone),
  };
}

export const fromEntry = (e: AddressBookEntry): ContactView => toContactView(e.id, e.addressBook, e.date);

/** Groups A–Z first, then '#'; inside a group by reading, then by name, then by id (stable). */
export function compareContacts(a: ContactView, b: ContactView): number {
  if (a.group !== b.group) {
    if (a.group === '#') return 1;
    if (b.group === '#') return -1;
    return a.group < b.group ? -1 : 1;
  }
  if (a.sortKey !== b.sortKey) return a.sortKey < b.sortKey ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export const sortContacts = (list: readonly ContactView[]): ContactView[] => [...list].sort(compareContacts);

/**
 * Search (spec 000 §5): the name contains the text, case-insensitively, or any phone contains it.
 * Decided: the phone test ignores the '+', spaces, dashes and brackets people type, and matches the
 * full number or the number without its country code; a Latin query also matches a Chinese name's
 * pinyin run together ('zhangsan' finds 张三), as address books in China do.
 */
export function matchesSearch(c: ContactView, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  if (c.nameLower.includes(q)) return true;
  const digits = stripPhone(q);
  if (/^\d+$/.test(digits) && c.phoneList.some((p) => p.phone.includes(digits))) return true;
  const letters = q.replace(/\s+/g, '');
  return (
    /^[a-z]+$/.test(letters) &&
    c.pinyinKey !== c.nameLower.replace(/\s+/g, '') &&
    c.pinyinKey.includes(letters)
  );
}

export const searchContacts = (list: readonly ContactView[], query: string) =>
  query.trim() ? list.filter((c) => matchesSearch(c, query)) : (list as ContactView[]);

/** One row of the virtual list: a letter header or a contact. */
export type ListRow =
  { kind: 'header'; group: string; key: string } | { kind: 'contact'; contact: ContactView; key: string };

/** Flattens sorted contacts into rows with a header before each group. */
export function toRows(sorted: readonly ContactView[]): ListRow[] {
  const rows: ListRow[] = [];
  let group = '';
  for (const c of sorted) {
    if (c.group !== group) {
      group = c.group;
      rows.push({ kind: 'header', group, key: `h:${group}` });
    }
    rows.push({ kind: 'contact', contact: c, key: c.id });
  }
  return rows;
}

// ---------------------------------------------------------------- the add / edit form

export interface PhoneRow {
  /** Stable key for the row's inputs. */
  key: string;
  telCode: string;
  number: string;
  tag: ContactTag | '';
}

export interface ContactForm {
  name: string;
  phones: PhoneRow[];
  email: string;
  companyName: string;
  note: string;
}

/** i18n keys under `contacts.errors`. */
export type ContactErrorKey =
  | 'nameRequired'
  | 'nameTooLong'
  | 'telCodeRequired'
  | 'telCodeNumeric'
  | 'phoneRequired'
  | 'phoneNumeric'
  | 'phoneInvalid'
  | 'tagRequired'
  | 'emailInvalid'
  | 'companyTooLong'
  | 'noteTooLong';

export interface ContactFormErrors {
  name?: ContactErrorKey;
  email?: ContactErrorKey;
  companyName?: ContactErrorKey;
  note?: ContactErrorKey;
  /** By row key. */
  phones: Record<string, { telCode?: ContactErrorKey; number?: ContactErrorKey; tag?: ContactErrorKey }>;
}

/** E-mail (spec 000 §5): a basic address with a 2 to 4 letter top domain. */
export const CONTACT_EMAIL = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,4}$/;

let rowSeq = 0;
export const newPhoneRow = (telCode = '', tag: ContactTag = constants.contactDefaultTag): PhoneRow => ({
  key: `p${++rowSeq}`,
  telCode,
  number: '',
  tag,
});

export const emptyForm = (telCode = ''): ContactForm => ({
  name: '',
  phones: [newPhoneRow(telCode)],
  email: '',
  companyName: '',
  note: '',
});

/** A stored contact as the form edits it. */
export function formOf(
  c: Pick<ContactView, 'name' | 'phoneList' | 'email' | 'companyName' | 'note'>,
): ContactForm {
  return {
    name: c.name,
    phones: c.phoneList.length
      ? c.phoneList.map((p) => ({
          ...newPhoneRow(p.telCode, p.tag),
          number: p.phone.startsWith(p.telCode) ? p.phone.slice(p.telCode.length) : p.phone,
        }))
      : [newPhoneRow()],
    email: c.email,
    companyName: c.companyName,
    note: c.note,
  };
}

/** The national part of a row, without what people type around it; a '+code' the user typed again is dropped. */
function rowNumber(row: PhoneRow): string {
  const telCode = row.telCode.trim();
  const raw = row.number.trim();
  const digits = stripPhone(raw);
  if (raw.startsWith('+') && telCode && digits.startsWith(telCode)) return digits.slice(telCode.length);
  return digits;
}

/**
 * The form's rules (spec 000 §5): name required and under 20; each phone row with a number needs a
 * numeric country code, a numeric number and a label; rows with an empty number are skipped, but a
 * contact needs at least one number (the server keeps 1 to 5); e-mail optional with the basic
 * pattern; company at most 20; note at most 100. Values are trimmed.
 */
export function validateContact(form: ContactForm): ContactFormErrors {
  const errors: ContactFormErrors = { phones: {} };
  const name = form.name.trim();
  if (!name) errors.name = 'nameRequired';
  else if (name.length >= constants.contactNameMaxExclusive) errors.name = 'nameTooLong';

  const filled = form.phones.filter((r) => r.number.trim() !== '');
  const rows = filled.length ? filled : form.phones.slice(0, 1);
  for (const row of rows) {
    const e: ContactFormErrors['phones'][string] = {};
    const telCode = row.telCode.trim().replace(/^\+/, '');
    const number = rowNumber({ ...row, telCode });
    if (!telCode) e.telCode = 'telCodeRequired';
    else if (!/^\d{1,4}$/.test(telCode)) e.telCode = 'telCodeNumeric';
    if (!row.number.trim()) e.number = 'phoneRequired';
    else if (!/^\d+$/.test(number)) e.number = 'phoneNumeric';
    else if (
      !e.telCode &&
      (number.length < 3 ||
        telCode.length + number.length < constants.phoneMinDigits ||
        telCode.length + number.length > 16)
    )
      e.number = 'phoneInvalid';
    if (!row.tag) e.tag = 'tagRequired';
    if (Object.keys(e).length) errors.phones[row.key] = e;
  }

  const email = form.email.trim();
  if (email && !CONTACT_EMAIL.test(email)) errors.email = 'emailInvalid';
  if (form.companyName.trim().length > constants.contactCompanyMax) errors.companyName = 'companyTooLong';
  if (form.note.trim().length > constants.contactNoteMax) errors.note = 'noteTooLong';
  return errors;
}

export const hasErrors = (e: ContactFormErrors) =>
  Boolean(e.name || e.email || e.companyName || e.note || Object.keys(e.phones).length);

/**
 * The contract's address book from a valid form: trimmed values, rows with an empty number skipped,
 * each phone sent as '+' plus country code plus number (spec 000 §5).
 */
export function serialiseContact(form: ContactForm): {
  name: string;
  phoneList: { phone: string; telCode: string; tag: ContactTag }[];
  email: string;
  companyName: string;
  note: string;
} {
  const phoneList = form.phones
    .filter((r) => r.number.trim() !== '')
    .slice(0, constants.contactPhonesMax)
    .map((r) => {
      const telCode = r.telCode.trim().replace(/^\+/, '');
      return {
        phone: `+${telCode}${rowNumber({ ...r, telCode })}`,
        telCode,
        tag: (r.tag || constants.contactDefaultTag) as ContactTag,
      };
    });
  return {
    name: form.name.trim(),
    phoneList,
    email: form.email.trim(),
    companyName: form.companyName.trim(),
    note: form.note.trim(),
  };
}

/** Whether two forms say the same (for the unsaved-changes test): row keys do not count. */
export function sameForm(a: ContactForm, b: ContactForm): boolean {
  const strip = (f: ContactForm) => JSON.stringify(serialiseContact(f));
  return strip(a) === strip(b);
}

/** The contact as it will be stored, for updating the list without a reload. */
export function viewFromSaved(id: string, date: number, form: ContactForm): ContactView {
  const s = serialiseContact(form);
  return toContactView(
    id,
    { ...s, phoneList: s.phoneList.map((p) => ({ ...p, phone: p.phone.replace(/^\+/, '') })) },
    date,
  );
}

export { buildNameIndex, isUnsavedPartner, nameFor } from './names';
