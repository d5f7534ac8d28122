import { useQuery } from '@tanstack/react-query';
import { pushEndpoints as e } from '@numa/contract/push';
import { call } from '../../../lib/api';
import { queryClient } from '../../../lib/query';
import { queryKeys } from '../../../lib/queryKeys';

/** The Notifications panel's calls (issue 23): the contract's subpath, fetched with the panel's chunk only. */
export const usePushSettings = (endpoint: string | null, enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.push.settings(endpoint),
    queryFn: () => call(e.getPushSettings, { endpoint }),
    enabled,
  });

const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.push.all });

export async function fetchPublicKey(): Promise<string> {
  return (await call(e.getPushSettings, { endpoint: null })).publicKey;
}

export async function savePushSubscription(sub: PushSubscriptionJSON, previews: boolean) {
  const { endpoint, keys } = sub;
  if (!endpoint || !keys?.p256dh || !keys.auth) throw new Error('the browser gave no subscription keys');
  const res = await call(e.subscribePush, {
    endpoint,
    keys: { p256dh: keys.p256dh, auth: keys.auth },
    previews,
  });
  await refresh();
  return res.device;
}

export async function setPreviews(id: string, previews: boolean) {
  await call(e.updatePushDevice, { id, previews });
  await refresh();
}

export async function removeDevice(id: string) {
  await call(e.unsubscribePush, { id });
  await refresh();
}
