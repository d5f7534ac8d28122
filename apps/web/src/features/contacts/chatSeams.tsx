import { lazy, Suspense } from 'react';
import {
  useAddressBook,
  useContactIndex,
  lookupContactName as lookup,
  useContactName as useName,
} from './api';
import { isUnsavedPartner } from './names';

/*
 * What the chats area plugs in (features/chats/extensions.ts): contact names for chat rows, headers
 * and notifications, the new-chat form's contact picker and "Add contact" for an unsaved partner.
 * The components load with the contacts code when first shown.
 */

/** A person as the chats area chooses one (spec 000 §3 Chosen person). */
export interface ChatPerson {
  name: string;
  /** Full number: country code and national number, digits. */
  phone: string;
  telCode: string;
  shortPhone: string;
}

/** The contact name of a full number, or null to show the number. */
export function useContactName(fullNumber: string): string | null {
  return useName(fullNumber) || null;
}

/** The same outside React, from the address book already loaded. */
export function lookupContactName(fullNumber: string): string | null {
  return lookup(fullNumber) || null;
}

const Picker = lazy(() => import('./ContactPicker'));
const AddFromChat = lazy(() => import('./AddFromChat'));

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
