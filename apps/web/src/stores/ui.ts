import { create } from 'zustand';
import {
  accountPanels,
  legacyAccountPanels,
  railTabs,
  type AccountPanel,
  type RailTab,
} from '@numa/contract';

export interface Snackbar {
  id: number;
  message: string;
  tone?: 'info' | 'success' | 'error';
  /** ms; 0 keeps it until dismissed. */
  duration: number;
  action?: { label: string; onAction: () => void };
  dismissible?: boolean;
}

export interface ErrorDialog {
  kind: 'error' | 'insufficient';
  message: string;
  /** a title of its own (the renewal-failed notice); else the kind's */
  title?: string;
}

interface UiState {
  tab: RailTab;
  panel: AccountPanel;
  /**
   * On a narrow window the account tab shows its menu or one panel (issue 13 §3.15): the menu when
   * the tab was chosen from the rail, a panel when one was asked for (a menu item, a link, the path).
   */
  accountMenu: boolean;
  /** Anonymous browsing of the front page (session codes are ignored there). */
  frontPage: boolean;
  alert: { title?: string; message: string } | null;
  snackbar: Snackbar | null;
  progress: { label: string; value?: number } | null;
  confirmLogout: boolean;
  errorDialog: ErrorDialog | null;
  /** While a captcha modal is open, failures are not alerted (spec 000 §8). */
  captchaOpen: boolean;
  unread: number;
  navigate(tab: RailTab, panel?: AccountPanel, opts?: { replace?: boolean }): void;
  showAccountMenu(): void;
  setFrontPage(on: boolean): void;
  showAlert(message: string, title?: string): void;
  closeAlert(): void;
  showSnackbar(s: Omit<Snackbar, 'id' | 'duration'> & { duration?: number }): number;
  closeSnackbar(id?: number): void;
  setProgress(p: UiState['progress']): void;
  setConfirmLogout(open: boolean): void;
  showError(e: ErrorDialog | null): void;
  setCaptchaOpen(open: boolean): void;
  setUnread(n: number): void;
  reset(): void;
}

/** The tab and panel live in the path (`/chats`, `/account/profile`) so a reload keeps them. */
export function parsePath(pathname: string): { tab: RailTab | null; panel: AccountPanel | null } {
  const [first, second] = pathname.split('/').filter(Boolean);
  if (first === 'account') {
    const panel = (accountPanels as readonly string[]).includes(second ?? '')
      ? (second as AccountPanel)
      : (legacyAccountPanels[second ?? ''] ?? null);
    return { tab: 'tabAccount', panel };
  }
  // our public code page (/receive/<app>/<country>) opens the verification tab when signed in
  if (first === 'receive') return { tab: 'verification', panel: null };
  const tab = (railTabs as readonly string[]).includes(first ?? '') ? (first as RailTab) : null;
  return { tab, panel: null };
}
export const pathOf = (tab: RailTab, panel: AccountPanel) =>
  tab === 'tabAccount' ? `/account/${panel}` : `/${tab}`;

let snackSeq = 0;
const initial = parsePath(window.location.pathname);
// a link saved with a panel's old name (legacyAccountPanels) shows the new one in the address bar
if (initial.panel && window.location.pathname.split('/')[2] !== initial.panel)
  window.history.replaceState(null, '', pathOf('tabAccount', initial.panel) + window.location.search);

export const useUi = create<UiState>((set, get) => ({
  tab: initial.tab ?? 'chats',
  panel: initial.panel ?? 'profile',
  accountMenu: false,
  frontPage: false,
  alert: null,
  snackbar: null,
  progress: null,
  confirmLogout: false,
  errorDialog: null,
  captchaOpen: false,
  unread: 0,
  navigate(tab, panel, opts) {
    const next = { tab, panel: panel ?? get().panel };
    set(opts?.replace ? next : { ...next, accountMenu: tab === 'tabAccount' && panel === undefined });
    const path = pathOf(next.tab, next.panel);
    if (window.location.pathname !== path) {
      const url = path + window.location.search;
      if (opts?.replace) window.history.replaceState(null, '', url);
      else window.history.pushState(null, '', url);
    }
  },
  showAccountMenu: () => set({ accountMenu: true }),
  setFrontPage: (frontPage) => set({ frontPage }),
  showAlert: (message, title) => set({ alert: { message, ...(title ? { title } : {}) } }),
  closeAlert: () => set({ alert: null }),
  showSnackbar(s) {
    const id = ++snackSeq;
    set({ snackbar: { duration: 5000, ...s, id } });
    return id;
  },
  closeSnackbar(id) {
    if (id === undefined || get().snackbar?.id === id) set({ snackbar: null });
  },
  setProgress: (progress) => set({ progress }),
  setConfirmLogout: (confirmLogout) => set({ confirmLogout }),
  showError: (errorDialog) => set({ errorDialog }),
  setCaptchaOpen: (captchaOpen) => set({ captchaOpen }),
  setUnread: (unread) => set({ unread }),
  reset: () =>
    set({
      alert: null,
      snackbar: null,
      progress: null,
      confirmLogout: false,
      errorDialog: null,
      captchaOpen: false,
      unread: 0,
    }),
}));

window.addEventListener('popstate', () => {
  const { tab, panel } = parsePath(window.location.pathname);
  useUi.setState({ ...(tab ? { tab } : {}), ...(panel ? { panel } : {}) });
});
