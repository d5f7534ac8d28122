import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { RailTab } from '@numa/contract';

/** The rail tabs whose area is built. A tab without one says so plainly (no placeholder data). */
export const tabViews: Partial<Record<RailTab, LazyExoticComponent<ComponentType>>> = {
  chats: lazy(() => import('../features/chats/ChatsTab')),
  tabAccount: lazy(() => import('../features/account/AccountTab')),
  contacts: lazy(() => import('../features/contacts/ContactsTab')),
  numbers: lazy(() => import('../features/numbers/NumbersTab')),
  verification: lazy(() => import('../features/codes/VerificationTab')),
};
