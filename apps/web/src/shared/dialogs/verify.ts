import { create } from 'zustand';
import { onSessionReset } from '../../stores/session';

/**
 * The verify phone or e-mail modal's modes (spec 000 §2): `email` and `emailFromProfile` verify an
 * e-mail; the others a phone. Decided meanings: `update` — the server asked for it (100025);
 * `update2` — a step needs a verified phone (100023 with needSetPhone); `updateFromProfile` — the
 * profile's button; `updateForUnlockBonus` — to redeem an invite code (lands on redeemCode after);
 * `charge` — a payment method needs a verified phone.
 */
export const verifyModes = [
  'email',
  'emailFromProfile',
  'update',
  'update2',
  'updateFromProfile',
  'updateForUnlockBonus',
  'charge',
] as const;
export type VerifyMode = (typeof verifyModes)[number];

export const isEmailMode = (m: VerifyMode) => m === 'email' || m === 'emailFromProfile';

interface VerifyModalState {
  mode: VerifyMode | null;
  /** Runs after a successful verification (the caller continues what it was doing). */
  onDone: (() => void) | null;
  /** Opens the modal; a modal already open keeps its mode. */
  open(mode: VerifyMode, opts?: { onDone?: () => void }): void;
  close(): void;
}

/** The global verify modal: `useVerifyModal.getState().open('charge')`, or the hook in components. */
export const useVerifyModal = create<VerifyModalState>((set, get) => ({
  mode: null,
  onDone: null,
  open(mode, opts) {
    if (get().mode) return;
    set({ mode, onDone: opts?.onDone ?? null });
  },
  close: () => set({ mode: null, onDone: null }),
}));

export const openVerify = (mode: VerifyMode, opts?: { onDone?: () => void }) =>
  useVerifyModal.getState().open(mode, opts);

onSessionReset(() => useVerifyModal.getState().close());
