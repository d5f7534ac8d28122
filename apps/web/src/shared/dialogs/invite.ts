import { create } from 'zustand';
import { onSessionReset } from '../../stores/session';

interface InviteDialogsState {
  /** The unlock-bonus prompt (spec 000 §2). */
  unlockOpen: boolean;
  /**
   * The bonus a redemption just credited: the congratulation dialog shows while set. It is global so
   * it stays while the menu drops the redeem panel (the account cannot redeem twice).
   */
  bonus: number | null;
  openUnlock(): void;
  closeUnlock(): void;
  showBonus(bonus: number): void;
  closeBonus(): void;
}

export const useInviteDialogs = create<InviteDialogsState>((set) => ({
  unlockOpen: false,
  bonus: null,
  openUnlock: () => set({ unlockOpen: true }),
  closeUnlock: () => set({ unlockOpen: false }),
  showBonus: (bonus) => set({ bonus }),
  closeBonus: () => set({ bonus: null }),
}));

onSessionReset(() => useInviteDialogs.setState({ unlockOpen: false, bonus: null }));
