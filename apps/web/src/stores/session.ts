import { create } from 'zustand';
import { keys, storage } from '../lib/storage';

export interface SessionFlags {
  canInvite: boolean;
  canSetInviter: boolean;
}

interface SessionState extends SessionFlags {
  token: string | null;
  /** Set by the session retcodes (spec 000 §4); shown on the login screen after a forced logout. */
  kicked: boolean;
  /** The retcode that ended the last session, for the login screen's notice. */
  endedBy: number | null;
  /**
   * The server has accepted this token in this page (a sign-in here, or any answered call). A token
   * kept from an earlier visit that the server refuses at once ends without an alert: the visitor
   * simply lands signed out where they were going (issue 13 §3.13).
   */
  confirmed: boolean;
  confirm(): void;
  signIn(token: string, flags: SessionFlags): void;
  replaceToken(token: string): void;
  setFlags(flags: Partial<SessionFlags>): void;
  markKicked(): void;
  /** Clears the token and the tip flags; `reset` listeners clear all other state. */
  logout(endedBy?: number | null): void;
}

const readFlags = (): SessionFlags => {
  try {
    const f = JSON.parse(storage.get(keys.flags) ?? '{}') as Partial<SessionFlags>;
    return { canInvite: f.canInvite === true, canSetInviter: f.canSetInviter === true };
  } catch {
    return { canInvite: false, canSetInviter: false };
  }
};

const resetListeners = new Set<() => void>();
/** Registers state to reset on logout (query cache, chats, dialogs). */
export const onSessionReset = (fn: () => void) => {
  resetListeners.add(fn);
  return () => resetListeners.delete(fn);
};

export const useSession = create<SessionState>((set, get) => ({
  token: storage.get(keys.token),
  ...readFlags(),
  kicked: false,
  endedBy: null,
  confirmed: false,
  confirm() {
    if (!get().confirmed) set({ confirmed: true });
  },
  // the token is written last: other tabs act on its storage event, and read the rest then
  signIn(token, flags) {
    storage.set(keys.tokenAt, String(Date.now()));
    storage.set(keys.flags, JSON.stringify(flags));
    storage.set(keys.token, token);
    set({ token, ...flags, kicked: false, endedBy: null, confirmed: true });
  },
  replaceToken(token) {
    storage.set(keys.tokenAt, String(Date.now()));
    storage.set(keys.token, token);
    set({ token });
  },
  setFlags(flags) {
    const next = { canInvite: get().canInvite, canSetInviter: get().canSetInviter, ...flags };
    storage.set(keys.flags, JSON.stringify(next));
    set(next);
  },
  markKicked() {
    set({ kicked: true });
  },
  logout(endedBy = null) {
    const wasSignedIn = get().token !== null;
    storage.remove(keys.token);
    storage.remove(keys.tokenAt);
    storage.remove(keys.flags);
    storage.remove(keys.tips);
    set({
      token: null,
      canInvite: false,
      canSetInviter: false,
      endedBy,
      kicked: endedBy !== null,
      confirmed: false,
    });
    if (wasSignedIn) resetListeners.forEach((fn) => fn());
  },
}));

/** Another tab signed in, refreshed or logged out: follow it. */
window.addEventListener('storage', (e) => {
  if (e.key !== keys.token) return;
  const s = useSession.getState();
  if (e.newValue === null && s.token !== null) s.logout();
  else if (e.newValue && e.newValue !== s.token)
    useSession.setState({ token: e.newValue, ...readFlags(), kicked: false, endedBy: null });
});
