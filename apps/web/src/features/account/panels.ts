import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { AccountPanel } from '@numa/contract';

/** The account panels that are built; the menu shows only these (with the visibility rules). */
export const panelViews: Partial<Record<AccountPanel, LazyExoticComponent<ComponentType>>> = {
  profile: lazy(() => import('./ProfilePanel')),
  credit: lazy(() => import('../payments/RechargePanel')),
  invite: lazy(() => import('../invite/InvitePanel')),
  redeemCode: lazy(() => import('../invite/RedeemCodePanel')),
};
