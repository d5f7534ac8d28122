import { create } from 'zustand';

export type ChatModal =
  | { kind: 'delete'; key: string }
  | { kind: 'tollFree'; message: string }
  | { kind: 'captcha'; key: string; smsId: string }
  | null;

interface ChatsUiState {
  /** The open chat (its key), or null. */
  selectedKey: string | null;
  /** The new-chat form is shown in place of a chat. */
  composing: boolean;
  modal: ChatModal;
  /** Chats whose country-mismatch banner was closed. */
  mismatchClosed: Record<string, true>;
  select(key: string | null): void;
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
  select: (selectedKey) => set({ selectedKey, composing: false }),
  startNewChat: () => set({ composing: true, selectedKey: null }),
  setModal: (modal) => set({ modal }),
  closeMismatch: (key) => set((s) => ({ mismatchClosed: { ...s.mismatchClosed, [key]: true } })),
  reset: () => set({ selectedKey: null, composing: false, modal: null, mismatchClosed: {} }),
}));
