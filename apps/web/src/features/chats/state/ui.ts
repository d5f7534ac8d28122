import { create } from 'zustand';

export type ChatModal =
  | { kind: 'delete'; key: string }
  | { kind: 'tollFree'; message: string }
  | { kind: 'captcha'; key: string; smsId: string }
  | null;

/** A message to show in its conversation (a search result chosen): scrolled to and highlighted. */
export interface MessageTarget {
  key: string;
  smsId: string;
  date: number;
}

interface ChatsUiState {
  /** The open chat (its key), or null. */
  selectedKey: string | null;
  /** The new-chat form is shown in place of a chat. */
  composing: boolean;
  modal: ChatModal;
  /** Chats whose country-mismatch banner was closed. */
  mismatchClosed: Record<string, true>;
  /** The message search's text as asked (the box's text after the user pauses typing); '' none. */
  search: string;
  /** The message to bring into view when its chat opens (issue 22 §1). */
  target: MessageTarget | null;
  select(key: string | null): void;
  setSearch(q: string): void;
  /** Opens a message's chat scrolled to it. */
  openMessage(t: MessageTarget): void;
  clearTarget(): void;
  startNewChat(): void;
  setModal(m: ChatModal): void;
  closeMismatch(key: string): void;
  reset(): void;
}

/** The chat screen's view state (what is open, which modal shows); the data lives in the service. */
export const useChatsUi = create<ChatsUiState>((set) => ({
  selectedKey: null,
  composing: false,
  modal: null,
  mismatchClosed: {},
  search: '',
  target: null,
  select: (selectedKey) => set({ selectedKey, composing: false }),
  setSearch: (search) => set({ search }),
  openMessage: (target) => set({ target, selectedKey: target.key, composing: false }),
  clearTarget: () => set({ target: null }),
  startNewChat: () => set({ composing: true, selectedKey: null }),
  setModal: (modal) => set({ modal }),
  closeMismatch: (key) => set((s) => ({ mismatchClosed: { ...s.mismatchClosed, [key]: true } })),
  reset: () =>
    set({ selectedKey: null, composing: false, modal: null, mismatchClosed: {}, search: '', target: null }),
}));
