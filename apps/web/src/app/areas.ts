import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { RailTab } from '@numa/contract';
import { lazyScreen } from '../components/lazy';

/** The rail tabs whose area is built. A tab without one says so plainly (no placeholder data). */
export const tabViews: Partial<Record<RailTab, LazyExoticComponent<ComponentType>>> = {
  // the chats with the contacts plugged in (app/chats.ts), both fetched at once; its texts are in the
  // entry part (the first screen after sign-in), the other areas wait for the rest
  chats: lazy(async () => {
    const [, tab] = await Promise.all([import('./chats'), import('../features/chats/ChatsTab')]);
    return tab;
  }),
  tabAccount: lazyScreen(() => import('./AccountTab')),
  contacts: lazyScreen(() => import('../features/contacts/ContactsTab')),
  numbers: lazyScreen(() => import('../features/numbers/NumbersTab')),
  verification: lazyScreen(() => import('../features/codes/VerificationTab')),
};
