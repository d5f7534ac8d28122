import { useMemo } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { constants } from '@numa/contract';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../../lib/api';
import { queryClient } from '../../../lib/query';
import type { ContactForm, ContactView } from '../logic';
import { buildNameIndex, nameFor } from '../names';
import { preparePinyin } from '../pinyin';

/** The address book's rules, loaded with the first page; the pinyin dictionary only for Chinese names (pinyin.ts). */
const rules = () => import('../logic');

export interface AddressBookData {
  /** Sorted A–Z, then '#'. */
  list: ContactView[];
  /** The latest change seen (epoch ms): the next refresh asks only for changes after it. */
  newest: number;
  /** False while the first load is still paging in. */
  complete: boolean;
}

export const contactKeys = { book: ['contacts', 'book'] as const };

const byNewest = (list: readonly ContactView[]) => list.reduce((m, c) => Math.max(m, c.date), 0);

/**
 * Reads the address book 500 at a time (spec 000 §7: pageSize, startTime), newest change first,
 * showing each page of the first load as it arrives. Decided: every refresh reads the whole book
 * again rather than only the changes `since` the last one, because the server keeps no record of
 * deletions (a contact deleted on another device simply stops appearing); the list on screen stays
 * while the refresh runs.
 */
async function loadBook(signal: AbortSignal): Promise<AddressBookData> {
  const { fromEntry, sortContacts } = await rules();
  const previous = queryClient.getQueryData<AddressBookData>(contactKeys.book);
  const progressive = !previous?.complete;
  const byId = new Map<string, ContactView>();
  let startTime: number | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await call(
      endpoints.getCloudAddressBook,
      { pageSize: constants.addressBookPageSize, ...(startTime !== undefined ? { startTime } : {}) },
      // the screens show a failed load where the user looks (error state, or names as numbers)
      { signal, silent: true },
    );
    await preparePinyin(page.addressBookList.map((e) => e.addressBook.name));
    for (const e of page.addressBookList) byId.set(e.id, fromEntry(e));
    const next = page.nextStartTime;
    // a cursor that does not move back would loop: stop there
    if (next === null || (startTime !== undefined && next >= startTime) || page.addressBookList.length === 0)
      break;
    startTime = next;
    if (progressive) {
      const partial = sortContacts([...byId.values()]);
      queryClient.setQueryData<AddressBookData>(contactKeys.book, {
        list: partial,
        newest: byNewest(partial),
        complete: false,
      });
    }
  }
  const list = sortContacts([...byId.values()]);
  return { list, newest: byNewest(list), complete: true };
}

/** The whole address book, sorted; shared by the contacts screen, chats' names and the contact picker. */
export const useAddressBook = (opts: { enabled?: boolean } = {}) =>
  useQuery(
    {
      queryKey: contactKeys.book,
      queryFn: ({ signal }) => loadBook(signal),
      staleTime: 60_000,
      enabled: opts.enabled ?? true,
    },
    // the app's one client, named so the chats' names work in any tree (their tests mount no provider)
    queryClient,
  );

async function patchBook(fn: (list: ContactView[]) => ContactView[]) {
  const { sortContacts } = await rules();
  // a refresh already under way may have read the pages before this change: read them again
  if (queryClient.isFetching({ queryKey: contactKeys.book }) > 0)
    void queryClient.invalidateQueries({ queryKey: contactKeys.book });
  queryClient.setQueryData<AddressBookData>(contactKeys.book, (old) => {
    if (!old) return old;
    const list = sortContacts(fn(old.list));
    return { ...old, list, newest: Math.max(old.newest, byNewest(list)) };
  });
}

/** Adds a contact (no id) or replaces one; the list updates in place from the answer. */
export const useSaveContact = () =>
  useMutation({
    mutationFn: async ({ id, form }: { id?: string; form: ContactForm }) => {
      const { serialiseContact, viewFromSaved } = await rules();
      const res = await call(
        endpoints.createOrUpdateCloudAddressBook,
        { ...(id ? { id } : {}), addressBook: JSON.stringify(serialiseContact(form)) },
        { silent: true },
      );
      await preparePinyin([form.name]);
      return viewFromSaved(res.id, res.date, form);
    },
    onSuccess: (saved) => patchBook((list) => [...list.filter((c) => c.id !== saved.id), saved]),
  });

/** Deletes contacts by id, 500 ids per call. */
export const useDeleteContacts = () =>
  useMutation({
    mutationFn: async (ids: string[]) => {
      let deleted = 0;
      for (let i = 0; i < ids.length; i += constants.addressBookPageSize) {
        const chunk = ids.slice(i, i + constants.addressBookPageSize);
        deleted += (await call(endpoints.delCloudAddressBook, { ids: chunk.join(',') }, { silent: true }))
          .deleted;
        const gone = new Set(chunk);
        await patchBook((list) => list.filter((c) => !gone.has(c.id)));
      }
      return deleted;
    },
  });

const indexCache = new WeakMap<readonly ContactView[], Map<string, string>>();
const indexOf = (list: readonly ContactView[]) => {
  let index = indexCache.get(list);
  if (!index) {
    index = buildNameIndex(list);
    indexCache.set(list, index);
  }
  return index;
};

/** Full number → contact name, for the chats (loads the address book if needed). */
export function useContactIndex(): ReadonlyMap<string, string> {
  const { data } = useAddressBook();
  return useMemo(() => (data ? indexOf(data.list) : new Map<string, string>()), [data]);
}

/** The contact name of a full number (digits, country code first), or '' when none is saved. */
export function useContactName(fullNumber: string): string {
  return nameFor(useContactIndex(), fullNumber);
}

/** The same outside React (desktop notifications): from the book already loaded, or ''. */
export function lookupContactName(fullNumber: string): string {
  const data = queryClient.getQueryData<AddressBookData>(contactKeys.book);
  return data ? nameFor(indexOf(data.list), fullNumber) : '';
}
