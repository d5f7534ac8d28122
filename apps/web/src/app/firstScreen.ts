import type { AccountPanel, RailTab } from '@numa/contract';
import { brand } from '../lib/config';
import { loadRestTexts } from '../lib/i18n';
import { useSession } from '../stores/session';
import { useUi } from '../stores/ui';
import { tabs } from './visibility';

type Load = () => Promise<unknown>;

// the same modules app/areas.ts, app/panels.ts and the screens load lazily: an import started here
// is the one they find (the browser fetches and runs a module once)
const tabChunks: Partial<Record<RailTab, Load[]>> = {
  chats: [() => import('./chats'), () => import('../features/chats/ChatsTab')],
  contacts: [() => import('../features/contacts/ContactsTab')],
  // the numbers area opens on its New number panel, with the first-open tip in a dialog
  numbers: [
    () => import('../features/numbers/NumbersTab'),
    () => import('../features/numbers/NewNumber'),
    ...(brand.numbersTip ? [() => import('../components/DialogFrame')] : []),
  ],
  verification: [() => import('../features/codes/VerificationTab')],
  tabAccount: [() => import('./AccountTab')],
};
const panelChunks: Partial<Record<AccountPanel, Load>> = {
  profile: () => import('../features/profile/ProfilePanel'),
  credit: () => import('../features/payments/RechargePanel'),
  paymentHistory: () => import('../features/history/PaymentHistoryPanel'),
  billHistory: () => import('../features/history/BillHistoryPanel'),
  sms: () => import('../features/history/SmsHistoryPanel'),
  call: () => import('../features/history/CallHistoryPanel'),
};

/**
 * A signed-in page load fetches the screen its path names (with the chunks it opens at once) and the
 * rest of the texts beside the shell, from the first frame on (main.tsx; issue 24 §3): left to React
 * they came one after another, each chunk asked for only when the one before it had run and rendered
 * (entry → shell → tab → panel → the panel's own lazy parts), a round trip apiece on a phone's link.
 * Only what the first screen shows is fetched; a signed-out page fetches nothing more.
 */
export function preloadFirstScreen(): void {
  if (!useSession.getState().token) return;
  const { tab, panel } = useUi.getState();
  const current = tabs.includes(tab) ? tab : tabs[0];
  const loads = [...((current && tabChunks[current]) ?? [])];
  if (current === 'tabAccount') {
    const panelChunk = panelChunks[panel];
    if (panelChunk && !brand.hiddenAccountPanels.includes(panel)) loads.push(panelChunk);
  }
  // the chats screen shows only the entry's texts
  if (current !== 'chats') void loadRestTexts().catch(() => {});
  for (const load of loads) void load().catch(() => {});
}
