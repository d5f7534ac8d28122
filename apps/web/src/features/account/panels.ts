import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { AccountPanel } from '@numa/contract';

/** The account panels that are built; the menu shows only these (with the visibility rules). */
export const panelViews: Partial<Record<AccountPanel, LazyExoticComponent<ComponentType>>> = {
  profile: lazy(() => import('./ProfilePanel')),
  rates: lazy(() => import('../rates/RatesPanel')),
  credit: lazy(() => import('../payments/RechargePanel')),
  paymentHistory: lazy(() => import('../history/PaymentHistoryPanel')),
  billHistory: lazy(() => import('../history/BillHistoryPanel')),
  sms: lazy(() => import('../history/SmsHistoryPanel')),
  call: lazy(() => import('../history/CallHistoryPanel')),
  invite: lazy(() => import('../invite/InvitePanel')),
  redeemCode: lazy(() => import('../invite/RedeemCodePanel')),
  numberManagement: lazy(() => import('../codes/NumbersPanel')),
  subscriptionHistory: lazy(() => import('../codes/HistoryPanel')),
};
