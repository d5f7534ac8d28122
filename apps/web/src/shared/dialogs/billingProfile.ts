import { create } from 'zustand';
import { ProfileRequiredData } from '@numa/contract';
import { isApiError } from '../../lib/api';
import { onSessionReset } from '../../stores/session';
import { openVerify } from './verify';

/** The profile status modal's states (spec 000 §2, §4). `pending`: just submitted; `review`: already in review. */
export type ProfileStatusState = 'refused' | 'review' | 'done' | 'pending';

export type ProfileDialog =
  { kind: 'update' } | { kind: 'ask' } | { kind: 'status'; state: ProfileStatusState } | null;

/** What the user was doing when the profile was asked for (spec 000 §4: prompted first for these). */
export type ProfileAction = 'manageNumber' | 'tip' | 'other';

interface ProfileFlowState {
  dialog: ProfileDialog;
  /** The last 100023 data (spec 001 §8: "store profileStatus and needSetPhone"). */
  required: ProfileRequiredData | null;
  openUpdate(): void;
  ask(): void;
  openStatus(state: ProfileStatusState): void;
  close(): void;
}

export const useProfileFlow = create<ProfileFlowState>((set) => ({
  dialog: null,
  required: null,
  openUpdate: () => set({ dialog: { kind: 'update' } }),
  ask: () => set({ dialog: { kind: 'ask' } }),
  openStatus: (state) => set({ dialog: { kind: 'status', state } }),
  close: () => set({ dialog: null }),
}));

onSessionReset(() => useProfileFlow.setState({ dialog: null, required: null }));

/** The status modal state a profile status shows (spec 000 §4), or null for "not submitted". */
export function statusState(profileStatus: number): ProfileStatusState | null {
  if (profileStatus === 1) return 'review';
  if (profileStatus === 2) return 'done';
  if (profileStatus === 100) return 'refused';
  return null;
}

/**
 * Starts the profile flow for a profile status (spec 000 §4): not submitted (-1 or 0) opens the
 * update form — after the ask-to-update prompt when the user was managing a number or came from a
 * tip; 1, 2 and 100 open the status modal (refused leads on to the form).
 */
export function startProfileFlow(profileStatus: number, action: ProfileAction = 'other') {
  const flow = useProfileFlow.getState();
  const state = statusState(profileStatus);
  if (state) flow.openStatus(state);
  else if (action === 'manageNumber' || action === 'tip') flow.ask();
  else flow.openUpdate();
}

/**
 * For any area whose call answered 100023 with {profileStatus, needSetPhone} (spec 000 §7, 001 §8):
 * stores them and sends the user to complete the phone (the verify modal; the profile follows if it
 * is missing too) or the billing profile. Returns false when `data` is not that shape.
 *
 * @example
 *   catch (e) { if (isProfileRequired(e)) handleProfileRequired(e.data, 'manageNumber'); }
 */
export function handleProfileRequired(data: unknown, action: ProfileAction = 'other'): boolean {
  const parsed = ProfileRequiredData.safeParse(data);
  if (!parsed.success) return false;
  const { profileStatus, needSetPhone } = parsed.data;
  useProfileFlow.setState({ required: parsed.data });
  if (needSetPhone) {
    openVerify('update2', {
      onDone: () => profileStatus !== 2 && profileStatus !== 1 && startProfileFlow(profileStatus, action),
    });
  } else {
    startProfileFlow(profileStatus, action);
  }
  return true;
}

/** Whether an error is the 100023 "complete your profile" answer. */
export const isProfileRequired = (e: unknown) => isApiError(e) && e.retcode === 100023;
