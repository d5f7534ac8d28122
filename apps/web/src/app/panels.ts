import type { ComponentType, LazyExoticComponent } from 'react';
import type { AccountPanel } from '@numa/contract';
import { lazyScreen } from '../components/lazy';

/**
 * The account panels that are built, each a chunk of its own; the menu shows only these (with the
 * visibility rules). The panels belong to their areas; this registry is where the shell puts them
 * together (features never import each other, docs/architecture.md "Web").
 */
export const panelViews: Partial<Record<AccountPanel, LazyExoticComponent<ComponentType>>> = {
  profile: lazyScreen(() => import('../features/profile/ProfilePanel')),
  rates: lazyScreen(() => import('../features/rates/RatesPanel')),
  credit: lazyScreen(() => import('../features/payments/RechargePanel')),
  paymentHistory: lazyScreen(() => import('../features/history/PaymentHistoryPanel')),
  billHistory: lazyScreen(() => import('../features/history/BillHistoryPanel')),
  sms: lazyScreen(() => import('../features/history/SmsHistoryPanel')),
  call: lazyScreen(() => import('../features/history/CallHistoryPanel')),
  invite: lazyScreen(() => import('../features/invite/InvitePanel')),
  redeemCode: lazyScreen(() => import('../features/invite/RedeemCodePanel')),
  codeNumbers: lazyScreen(() => import('../features/codes/NumbersPanel')),
  codeHistory: lazyScreen(() => import('../features/codes/HistoryPanel')),
  notifications: lazyScreen(() => import('../features/notifications/NotificationsPanel')),
  developer: lazyScreen(() => import('../features/developer/DeveloperPanel')),
  templates: lazyScreen(() => import('../features/chats/templates/TemplatesPanel')),
};
