import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void) {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/**
 * Whether the browser says it is offline (an offline visit opens the app from the service worker's
 * cache). The shell says so on every tab (app/AppShell.tsx); the chats area leaves its own
 * connection banner out meanwhile, so that one banner says it.
 */
export const useOffline = (): boolean =>
  useSyncExternalStore(
    subscribe,
    () => navigator.onLine === false,
    () => false,
  );
