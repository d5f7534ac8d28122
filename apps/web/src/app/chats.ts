import { extendChats } from '../features/chats/extensions';
import {
  ChatPartnerActionsSlot,
  ContactPickerSlot,
  lookupContactName,
  useContactName,
} from '../features/contacts/chatSeams';

/*
 * The chats area with the contacts area plugged in (features never import each other: the shell
 * composes them). Loaded before the chats tab renders and before the chat service starts
 * (app/areas.ts, AppShell.tsx).
 */
extendChats({
  useContactName,
  lookupContactName,
  ContactPicker: ContactPickerSlot,
  ChatPartnerActions: ChatPartnerActionsSlot,
});

export { getChatService } from '../features/chats/state/service';
export { useChatsUi } from '../features/chats/state/ui';
