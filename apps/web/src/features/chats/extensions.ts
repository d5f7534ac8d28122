import type { ComponentType } from 'react';
import type { ChosenPerson } from './logic/number';

/*
 * What other areas plug into the chats (kept small on purpose): contact names, the new-chat form's
 * contact picker and actions about an unsaved partner. The chats area imports no other area: the
 * shell plugs the contacts area in (app/chats.ts, `extendChats`) before the chats render or start
 * their service. Until then, and in tests, names are numbers and the slots are empty.
 */

export interface ContactPickerProps {
  /** Chooses a contact's number as the new chat's To. */
  onPick(person: ChosenPerson): void;
  isDisabled?: boolean;
}

export interface ChatPartnerProps {
  person: ChosenPerson;
}

export interface ChatExtensions {
  /** The contact name of a full number (chat rows, headers), or null to show the number. A React hook. */
  useContactName(fullNumber: string): string | null;
  /** The same lookup outside React (desktop notifications). */
  lookupContactName(fullNumber: string): string | null;
  /** The new-chat form's contact picker (spec 000 §2), shown next to the To field when set. */
  ContactPicker: ComponentType<ContactPickerProps> | null;
  /**
   * Actions about the other party in the conversation header, e.g. "Add contact" for an unsaved
   * partner (spec 000 §5 Contacts and unsaved chat partners).
   */
  ChatPartnerActions: ComponentType<ChatPartnerProps> | null;
}

const plugged: ChatExtensions = {
  useContactName: () => null,
  lookupContactName: () => null,
  ContactPicker: null,
  ChatPartnerActions: null,
};

/** Plugs extensions in; called once by the shell, before the chats first render. */
export function extendChats(extensions: Partial<ChatExtensions>) {
  Object.assign(plugged, extensions);
}

/** The contact name of a full number, or null to show the number. A React hook. */
export function useContactName(fullNumber: string): string | null {
  return plugged.useContactName(fullNumber);
}

/** The same lookup outside React (desktop notifications). */
export function lookupContactName(fullNumber: string): string | null {
  return plugged.lookupContactName(fullNumber);
}

/** The slots' components as plugged in (null: nothing shows). */
export const chatSlots: Pick<ChatExtensions, 'ContactPicker' | 'ChatPartnerActions'> = {
  get ContactPicker() {
    return plugged.ContactPicker;
  },
  get ChatPartnerActions() {
    return plugged.ChatPartnerActions;
  },
};
