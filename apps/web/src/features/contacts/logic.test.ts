import { describe, expect, it, vi } from 'vitest';
import { AddressBook } from '@numa/contract';
import {
  avatarColour,
  buildNameIndex,
  emptyForm,
  formatPhone,
  formOf,
  groupOf,
  hasErrors,
  isUnsavedPartner,
  matchesSearch,
  nameFor,
  newPhoneRow,
  sameForm,
  searchContacts,
  serialiseContact,
  sortContacts,
  toContactView,
  toRows,
  validateContact,
  type ContactForm,
} from './logic';
import { preparePinyin } from './pinyin';

// the views below have Chinese names: the dictionary is loaded as the address book would load it
await preparePinyin(['张']);

const contact = (
  id: string,
  name: string,
  phones: [string, string][] = [['1', '4155550100']],
  extra: Partial<{ email: string; companyName: string }> = {},
) =>
  toContactView(
    id,
    {
      name,
      phoneList: phones.map(([telCode, n]) => ({ phone: `${telCode}${n}`, telCode, tag: 'Other' as const })),
      email: extra.email ?? '',
      companyName: extra.companyName ?? '',
      note: '',
    },
    1000,
  );

describe('the pinyin dictionary loads only for Chinese names', () => {
  it('reads Latin names without it, and Chinese names once loaded', async () => {
    vi.resetModules();
    const fresh = await import('./pinyin');
    expect(fresh.loadedPinyin()).toBeNull();
    await fresh.preparePinyin(['John Smith', 'Émile Zola']);
    expect(fresh.loadedPinyin()).toBeNull();
    expect(groupOf('Émile Zola')).toBe('E');
    await fresh.preparePinyin(['Ann', '张三']);
    expect(fresh.loadedPinyin()).not.toBeNull();
  });
});

describe('grouping and pinyin order', () => {
  it('files Chinese names under their pinyin letter, among the Latin ones', () => {
    expect(groupOf('张三')).toBe('Z');
    expect(groupOf('李明')).toBe('L');
    expect(groupOf('alice')).toBe('A');
    expect(groupOf('Émile')).toBe('E');
    expect(groupOf('123 Pizza')).toBe('#');
    expect(groupOf('😀 Smile')).toBe('#');
  });

  it('reads surnames as surnames (单 is Shan, 曾 is Zeng)', () => {
    expect(groupOf('单雄信')).toBe('S');
    expect(groupOf('曾国藩')).toBe('Z');
  });

  it('sorts A–Z with Chinese mixed in, and # last', () => {
    const names = ['Zoe', '张三', '#hash', 'Bob', '白居易', 'alice', '李明', 'Liang', '007', '李'];
    const sorted = sortContacts(names.map((n, i) => contact(String(i), n))).map((c) => c.name);
    expect(sorted).toEqual(['alice', '白居易', 'Bob', '李', '李明', 'Liang', '张三', 'Zoe', '#hash', '007']);
  });

  it('puts a header before each group', () => {
    const rows = toRows(
      sortContacts([contact('1', 'Amy'), contact('2', 'Ann'), contact('3', '王五'), contact('4', '42')]),
    );
    expect(rows.map((r) => (r.kind === 'header' ? `[${r.group}]` : r.contact.name))).toEqual([
      '[A]',
      'Amy',
      'Ann',
      '[W]',
      '王五',
      '[#]',
      '42',
    ]);
  });
});

describe('search', () => {
  const list = [
    contact('1', 'Alice Smith', [['1', '4155550100']]),
    contact('2', '张三', [
      ['86', '13800138000'],
      ['1', '2125550199'],
    ]),
    contact('3', 'Bob', [['44', '7911123456']]),
  ];
  it('matches the name case-insensitively', () => {
    expect(searchContacts(list, 'aLiCe').map((c) => c.id)).toEqual(['1']);
    expect(searchContacts(list, '张').map((c) => c.id)).toEqual(['2']);
  });
  it('matches any phone containing the text, ignoring what people type around numbers', () => {
    expect(searchContacts(list, '555').map((c) => c.id)).toEqual(['1', '2']);
    expect(searchContacts(list, '+1 (212) 555').map((c) => c.id)).toEqual(['2']);
    expect(searchContacts(list, '7911').map((c) => c.id)).toEqual(['3']);
  });
  it('matches Chinese names by pinyin', () => {
    expect(matchesSearch(list[1]!, 'zhangsan')).toBe(true);
    expect(matchesSearch(list[1]!, 'zhang')).toBe(true);
    expect(matchesSearch(list[0]!, 'zhang')).toBe(false);
  });
  it('an empty query keeps everyone, a miss keeps no one', () => {
    expect(searchContacts(list, '  ')).toHaveLength(3);
    expect(searchContacts(list, 'nobody')).toHaveLength(0);
  });
});

describe('avatar colour', () => {
  it('is the last four digits modulo 7', () => {
    expect(avatarColour('14155550100')).toBe(100 % 7);
    expect(avatarColour('8613800138000')).toBe(8000 % 7);
    expect(avatarColour('447911123456')).toBe(3456 % 7);
    expect(avatarColour('12')).toBe(12 % 7);
    expect(avatarColour('')).toBe(0);
    expect(avatarColour(undefined)).toBe(0);
  });
  it('is taken from the first phone', () => {
    expect(
      contact('1', 'X', [
        ['1', '4155550106'],
        ['1', '4155550100'],
      ]).colour,
    ).toBe(106 % 7);
  });
});

describe('phone formatting', () => {
  it('formats valid numbers internationally and keeps others readable', () => {
    expect(formatPhone('14155550100', '1')).toBe('+1 415 555 0100');
    expect(formatPhone('8613800138000', '86')).toBe('+86 138 0013 8000');
    expect(formatPhone('99912', '999')).toBe('+999 12');
  });
});

const form = (
  patch: Partial<ContactForm> = {},
  rows: [string, string, string?][] = [['1', '4155550100']],
): ContactForm => ({
  ...emptyForm('1'),
  name: 'Alice',
  phones: rows.map(([telCode, number, tag]) => ({
    ...newPhoneRow(telCode),
    number,
    tag: (tag ?? 'Other') as 'Other',
  })),
  ...patch,
});

describe('validation', () => {
  it('accepts a minimal contact', () => {
    expect(hasErrors(validateContact(form()))).toBe(false);
  });
  it('needs a name under 20 characters', () => {
    expect(validateContact(form({ name: '  ' })).name).toBe('nameRequired');
    expect(validateContact(form({ name: 'x'.repeat(19) })).name).toBeUndefined();
    expect(validateContact(form({ name: 'x'.repeat(20) })).name).toBe('nameTooLong');
  });
  it('checks country code and number of each filled row', () => {
    const f = form({}, [
      ['', '4155550100'],
      ['1a', '4155550101'],
      ['1', '41x5'],
      ['1', ''],
    ]);
    const e = validateContact(f);
    const [r0, r1, r2, r3] = f.phones;
    expect(e.phones[r0!.key]).toEqual({ telCode: 'telCodeRequired' });
    expect(e.phones[r1!.key]).toEqual({ telCode: 'telCodeNumeric' });
    expect(e.phones[r2!.key]).toEqual({ number: 'phoneNumeric' });
    // an empty row among filled ones is skipped
    expect(e.phones[r3!.key]).toBeUndefined();
  });
  it('needs at least one number', () => {
    const f = form({}, [['1', '']]);
    expect(validateContact(f).phones[f.phones[0]!.key]).toEqual({ number: 'phoneRequired' });
  });
  it('needs a label on each row', () => {
    const f = form({}, [['1', '4155550100', '']]);
    expect(validateContact(f).phones[f.phones[0]!.key]).toEqual({ tag: 'tagRequired' });
  });
  it('checks e-mail, company and note', () => {
    expect(validateContact(form({ email: 'a@b.co' })).email).toBeUndefined();
    expect(validateContact(form({ email: 'a@b' })).email).toBe('emailInvalid');
    expect(validateContact(form({ email: 'a@b.abcde' })).email).toBe('emailInvalid');
    expect(validateContact(form({ companyName: 'c'.repeat(20) })).companyName).toBeUndefined();
    expect(validateContact(form({ companyName: 'c'.repeat(21) })).companyName).toBe('companyTooLong');
    expect(validateContact(form({ note: 'n'.repeat(101) })).note).toBe('noteTooLong');
  });
});

describe('serialisation', () => {
  it("trims, skips empty rows and sends '+' code number", () => {
    const f = form({ name: '  Alice  ', email: ' a@b.co ', companyName: ' ACME ' }, [
      ['1', ' (415) 555-0100 ', 'Mobile'],
      ['86', ''],
      [' 44 ', '+44 7911 123456', 'Work'],
    ]);
    const s = serialiseContact(f);
    expect(s).toEqual({
      name: 'Alice',
      phoneList: [
        { phone: '+14155550100', telCode: '1', tag: 'Mobile' },
        { phone: '+447911123456', telCode: '44', tag: 'Work' },
      ],
      email: 'a@b.co',
      companyName: 'ACME',
      note: '',
    });
    // and the contract accepts it as the stored address book
    const parsed = AddressBook.parse(s);
    expect(parsed.phoneList[0]!.phone).toBe('14155550100');
  });
  it('keeps at most five phones', () => {
    const rows: [string, string][] = Array.from({ length: 7 }, (_, i) => ['1', `415555010${i}`]);
    expect(serialiseContact(form({}, rows)).phoneList).toHaveLength(5);
  });
  it('round-trips a stored contact through the form', () => {
    const c = contact(
      '1',
      'Bob',
      [
        ['44', '7911123456'],
        ['1', '4155550100'],
      ],
      { email: 'bob@x.org' },
    );
    const f = formOf(c);
    expect(f.phones.map((p) => [p.telCode, p.number])).toEqual([
      ['44', '7911123456'],
      ['1', '4155550100'],
    ]);
    expect(sameForm(f, formOf(c))).toBe(true);
    expect(sameForm(f, { ...f, name: 'Rob' })).toBe(false);
  });
});

describe('chat partners', () => {
  const index = buildNameIndex(
    sortContacts([contact('1', 'Alice', [['1', '4155550100']]), contact('2', 'Bob', [['44', '7911123456']])]),
  );
  it('names saved numbers', () => {
    expect(nameFor(index, '14155550100')).toBe('Alice');
    expect(nameFor(index, '+44 7911 123456')).toBe('Bob');
    expect(nameFor(index, '14155550199')).toBe('');
  });
  it('offers "add contact" only for unsaved numeric partners', () => {
    expect(isUnsavedPartner('4155550199', '', '14155550199', index)).toBe(true);
    expect(isUnsavedPartner('4155550100', 'Alice', '14155550100', index)).toBe(false);
    expect(isUnsavedPartner('GOOGLE', '', 'GOOGLE', index)).toBe(false);
  });
});
