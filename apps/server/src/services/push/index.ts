import { createPushDevices } from './devices';
import { createPushSending, type PushServiceDeps } from './send';

export type { PushEvent, PushOutcome, PushServiceDeps } from './send';

/**
 * Web Push (issue 23): the account's devices (`devices.ts`) and the notifications sent to them
 * (`send.ts`).
 */
export function createPushService(deps: PushServiceDeps) {
  const devices = createPushDevices(deps);
  const sending = createPushSending(deps, devices);
  return {
    settings: devices.settings,
    subscribe: devices.subscribe,
    setPreviews: devices.setPreviews,
    unsubscribe: devices.unsubscribe,
    onOutcome: sending.onOutcome,
    /** The public key (tests; the settings call gives it to pages). */
    publicKey: async () => (await devices.vapidKeys()).publicKey,
    close: sending.close,
  };
}

export type PushService = ReturnType<typeof createPushService>;
