import { QueryClient } from '@tanstack/react-query';
import { onSessionReset } from '../stores/session';
import { isApiError, NETWORK_FAILURE } from './api';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // a refused call will be refused again; only the network is worth retrying
      retry: (count, err) => count < 2 && isApiError(err) && err.retcode === NETWORK_FAILURE,
    },
    mutations: { retry: false },
  },
});

onSessionReset(() => queryClient.clear());
