import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../lib/query';

/**
 * The one query client, provided to whatever is under it. A chunk of its own (TanStack Query is not
 * needed to sign in): App wraps the signed-in shell and the front pages in it, the login screen its
 * country picker.
 */
export function QueryScope({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
