import { create } from 'zustand';
import { onSessionReset } from '../../stores/session';

interface UnlockPromptState {
  isOpen: boolean;
  open(): void;
  close(): void;
}

/** The global unlock-bonus prompt (spec 000 §2): Later, or Set Up Now (verify in updateForUnlockBonus mode). */
export const useUnlockPrompt = create<UnlockPromptState>((set) => ({
  isOpen: false,
  open: () => set({ isOpen: true }),
  close: () => set({ isOpen: false }),
}));

onSessionReset(() => useUnlockPrompt.getState().close());
