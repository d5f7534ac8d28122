import { create } from 'zustand';
import { onSessionReset } from '../../stores/session';

interface IdentityDialogState {
  isOpen: boolean;
  open(): void;
  close(): void;
}

/** The global proof-of-identity dialog (spec 000 §2): `useIdentityDialog.getState().open()`. */
export const useIdentityDialog = create<IdentityDialogState>((set) => ({
  isOpen: false,
  open: () => set({ isOpen: true }),
  close: () => set({ isOpen: false }),
}));

onSessionReset(() => useIdentityDialog.getState().close());
