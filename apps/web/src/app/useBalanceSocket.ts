import { useEffect } from 'react';
import { balanceKey } from '../lib/balance';
import { currentLanguageCode } from '../lib/i18n';
import { queryClient } from '../lib/query';
import { openChatSocket } from '../lib/socket';
import { useSession } from '../stores/session';

/**
 * A brand without the chat tab (jiema) has no chat socket, yet its balance must move live too (a
 * payment confirmed in the provider's window, a code charged): while signed in, the real-time channel
 * is opened for the `balance` event alone (the chat socket does it elsewhere), with the session's
 * kick handling; after a reconnect the balance is read again (events missed while away).
 */
export function useBalanceSocket(enabled: boolean) {
  const signedIn = useSession((s) => !!s.token);
  useEffect(() => {
    const token = useSession.getState().token;
    if (!enabled || !signedIn || !token) return;
    const socket = openChatSocket(
      { token, languagecode: currentLanguageCode() },
      {
        onMessage: () => {},
        onState: () => {},
        onReconnect: () => void queryClient.invalidateQueries({ queryKey: balanceKey }),
      },
    );
    return () => socket.close();
  }, [enabled, signedIn]);
}
