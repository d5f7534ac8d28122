import type { ComponentType } from 'react';
import type { ChosenPerson } from './logic/number';
import * as contacts from '../contacts/chatSeams';

/*
 * Seams for the contacts area (kept small on purpose). The contacts developer replaces these defaults
 * with the address book's lookups and components; nothing else in the chats area needs to change.
 */

/** The contact name of a full number (chat rows, headers), or null to show the number. A React hook. */
export function useContactName(fullNumber: string): string | null {
  return contacts.useContactName(fullNumber);
}

/** The same lookup outside React (desktop notifications). */
export function lookupContactName(fullNumber: string): string | null {
  return contacts.lookupContactName(fullNumber);
}

export interface ContactPickerProps {
  /** Chooses a contact's number as the new chat's To. */
  onPick(person: ChosenPerson): void;
  isDisabled?: boolean;
}

export interface ChatPartnerProps {
  person: ChosenPerson;
}
export interface ChatSlots {
  /** The new-chat form's contact picker (spec 000 §2), shown next to the To field when set. */
  ContactPicker: ComponentType<ContactPickerProps> | null;
  /**
   * Actions about the other party in the conversation header, e.g. "Add contact" for an unsaved
   * partner (spec 000 §5 Contacts and unsaved chat partners).
   */
  ChatPartnerActions: ComponentType<ChatPartnerProps> | null;
}
export const chatSlots: ChatSlots = {
  ContactPicker: contacts.ContactPickerSlot,
  ChatPartnerActions: contacts.ChatPartnerActionsSlot,
};
