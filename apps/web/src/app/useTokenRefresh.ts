import { useEffect } from 'react';
import { constants, endpoints } from '@numa/contract';
import { call, isApiError, NETWORK_FAILURE } from '../lib/api';
import { keys, storage } from '../lib/storage';
import { useSession } from '../stores/session';

/**
 * Replaces the token every 12 hours (spec 000 §4). A refused refresh removes the stored token; a
 * network failure tries again in a minute. Of several tabs, the first to refresh wins and the others
 * take its token (storage event, or the check before refreshing): only the newest token of a session
 * may refresh (issue 9).
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
      // another tab replaced the token already (only the newest token of a session may refresh: a
      // replaced one asking again ends the session everywhere); this tab follows it instead
      const stored = storage.get(keys.token);
      if (stored && stored !== token) {
        useSession.setState({ token: stored });
        return;
      }
      try {
        const res = await call(endpoints.refreshToken, {}, { silent: true });
        useSession.getState().replaceToken(res.token);
      } catch (e) {
        if (isApiError(e) && e.retcode === NETWORK_FAILURE) schedule(60_000);
        else if (useSession.getState().token) useSession.getState().logout(isApiError(e) ? e.retcode : null);
      }
    };
    // tabs of one browser share the token: a random spread so one of them refreshes and the others follow it
    schedule(issued + constants.tokenRefreshMs - Date.now() + Math.random() * 30_000);
    return () => window.clearTimeout(timer);
  }, [token]);
}
