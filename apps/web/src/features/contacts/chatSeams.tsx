import { Suspense } from 'react';
import {
  useAddressBook,
  useContactIndex,
  lookupContactName as lookup,
  useContactName as useName,
} from './api/addressBook';
import { lazyScreen } from '../../components/lazy';
import type { ChatPerson } from './chatPerson';
import { isUnsavedPartner } from './names';

/*
 * What the contacts area offers the chats (the shell plugs it into features/chats/extensions.ts, in
 * app/chats.ts): contact names for chat rows, headers and notifications, the new-chat form's contact
 * picker and "Add contact" for an unsaved partner. The components load with the contacts code when
 * first shown.
 */

/** The contact name of a full number, or null to show the number. */
export function useContactName(fullNumber: string): string | null {
  return useName(fullNumber) || null;
}

/** The same outside React, from the address book already loaded. */
export function lookupContactName(fullNumber: string): string | null {
  return lookup(fullNumber) || null;
}

const Picker = lazyScreen(() => import('./ContactPicker'));
const AddFromChat = lazyScreen(() => import('./AddFromChat'));

/** The new-chat form's contact picker (spec 000 §2). */
export function ContactPickerSlot(props: { onPick(person: ChatPerson): void; isDisabled?: boolean }) {
  return (
    <Suspense fallback={null}>
      <Picker {...props} />
    </Suspense>
  );
}

/** "Add contact" in the conversation header, only for an unsaved partner (spec 000 §5). */
export function ChatPartnerActionsSlot({ person }: { person: ChatPerson }) {
  const book = useAddressBook();
  const index = useContactIndex();
  // until the whole book is read, nobody can be called unsaved
  if (!book.data?.complete || !isUnsavedPartner(person.shortPhone, person.name, person.phone, index))
    return null;
  return (
    <Suspense fallback={null}>
      <AddFromChat person={person} />
    </Suspense>
  );
}
