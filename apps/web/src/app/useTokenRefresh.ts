import { useEffect } from 'react';
import { constants } from '@numa/contract';
import { isApiError, NETWORK_FAILURE } from '../lib/api';
import { keys, storage } from '../lib/storage';
import { refreshSessionToken } from '../shared/api/session';
import { useSession } from '../stores/session';

/** The Web Lock the tabs of one origin (one brand's host) refresh under, one at a time. */
export const refreshLockName = 'numa.tokenRefresh';

/**
 * Runs `fn` while no other tab of this origin runs it (the Web Locks API); where a browser has no
 * Web Locks, at once (the server then answers two tabs refreshing one token alike: issue 18).
 */
function exclusive(fn: () => Promise<void>): Promise<void> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? locks.request(refreshLockName, fn).then(() => undefined) : fn();
}

/**
 * Replaces the token every 12 hours (spec 000 §4). A refused refresh removes the stored token; a
 * network failure tries again in a minute. Tabs of one browser share the token, and only the newest
 * token of a session may refresh (issue 9): so they refresh one at a time (a Web Lock), and a tab
 * whose token another tab replaced meanwhile takes the new one instead of refreshing (timers of
 * background tabs fire together, and all at once after a computer wakes). The server answers two
 * refreshes of one token at the same moment with the same new token besides (issue 18), for browsers
 * without Web Locks.
 */
export function useTokenRefresh() {
  const token = useSession((s) => s.token);
  useEffect(() => {
    if (!token) return;
    // the issue time is kept with the token, so the 12-hour schedule survives reloads
    const issued = Number(storage.get(keys.tokenAt)) || Date.now();
    if (!storage.get(keys.tokenAt)) storage.set(keys.tokenAt, String(issued));
    let timer = 0;
    let cancelled = false;
    const schedule = (ms: number) => {
      timer = window.setTimeout(run, Math.max(0, ms));
    };
    const refresh = async () => {
      // another tab replaced the token already (while this one waited for the lock, or before): a
      // replaced token asking again would end the session everywhere, so this tab follows it instead
      const stored = storage.get(keys.token);
      if (cancelled || useSession.getState().token !== token) return;
      if (stored && stored !== token) {
        useSession.setState({ token: stored });
        return;
      }
      try {
        const res = await refreshSessionToken();
        useSession.getState().replaceToken(res.token);
      } catch (e) {
        if (isApiError(e) && e.retcode === NETWORK_FAILURE) schedule(60_000);
        else if (useSession.getState().token) useSession.getState().logout(isApiError(e) ? e.retcode : null);
      }
    };
    const run = () => void exclusive(refresh);
    // a random spread as well, so the tabs rarely even wait for one another
    schedule(issued + constants.tokenRefreshMs - Date.now() + Math.random() * 30_000);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [token]);
}
