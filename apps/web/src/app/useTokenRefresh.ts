import { useEffect } from 'react';
import { constants, endpoints } from '@numa/contract';
import { call, isApiError, NETWORK_FAILURE } from '../lib/api';
import { keys, storage } from '../lib/storage';
import { useSession } from '../stores/session';

/**
 * Replaces the token every 12 hours (spec 000 §4). A refused refresh removes the stored token; a
 * network failure tries again in a minute.
 */
export function useTokenRefresh() {
  const token = useSession((s) => s.token);
  useEffect(() => {
    if (!token) return;
    // the issue time is kept with the token, so the 12-hour schedule survives reloads
    const issued = Number(storage.get(keys.tokenAt)) || Date.now();
    if (!storage.get(keys.tokenAt)) storage.set(keys.tokenAt, String(issued));
    let timer = 0;
    const schedule = (ms: number) => {
      timer = window.setTimeout(run, Math.max(0, ms));
    };
    const run = async () => {
      try {
        const res = await call(endpoints.refreshToken, {}, { silent: true });
        useSession.getState().replaceToken(res.token);
      } catch (e) {
        if (isApiError(e) && e.retcode === NETWORK_FAILURE) schedule(60_000);
        else if (useSession.getState().token) useSession.getState().logout(isApiError(e) ? e.retcode : null);
      }
    };
    schedule(issued + constants.tokenRefreshMs - Date.now());
    return () => window.clearTimeout(timer);
  }, [token]);
}
