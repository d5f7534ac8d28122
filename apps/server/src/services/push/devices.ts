import type { Lang } from '@numa/contract';
import { pushLimits, type PushDevice } from '@numa/contract/push';
import type { Database } from '../../db';
import { ApiError } from '../../lib/errors';
import { keptReads } from '../../lib/keptReads';
import { lazy } from '../../lib/lazy';
import { checkUserUrl, type UrlPolicy } from '../webhooks/guard';
import { pushRepo, type PushSubscriptionRow } from '../../repositories/push';

/** "Chrome on Android" from a user agent (detect-browser), for the device list. */
export function deviceName(userAgent: string | undefined): string {
  const d = userAgent ? lazy.detectBrowser().detect(userAgent) : null;
  if (!d || d.type !== 'browser') return 'Browser';
  const name = d.name
    .split(/[-_]/)
    .map((w) => (w === 'ios' ? 'iOS' : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');
  return d.os ? `${name} · ${d.os}` : name;
}

export interface PushDevicesDeps {
  db: Database;
  vapid: { publicKey?: string | undefined; privateKey?: string | undefined; subject: string };
  /** Where push services may be (the webhooks' policy: production only https to public addresses). */
  policy: UrlPolicy;
}

/**
 * The account's devices (Web Push subscriptions): the VAPID keys they subscribe with, subscribing
 * (the endpoint checked like a webhook URL, at most `pushLimits.devices` per account), previews on
 * or off, removing one, and whether an account has any (asked on every committed balance change, so
 * kept for a few seconds).
 */
export function createPushDevices(deps: PushDevicesDeps) {
  const { db } = deps;
  let keys: Promise<{ publicKey: string; privateKey: string }> | null = null;
  /** Whether an account has devices, for a while (a balance change asks on every commit). */
  const hasDevices = keptReads<number, boolean>(5_000);

  /** The VAPID pair: configuration's, else the database's (made once). */
  function vapidKeys() {
    keys ??= (async () => {
      const { publicKey, privateKey } = deps.vapid;
      if (publicKey && privateKey) return { publicKey, privateKey };
      if (publicKey || privateKey)
        throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all');
      const kept = await pushRepo.vapid(db.q);
      if (kept) return kept;
      await pushRepo.insertVapid(db.q, lazy.webPush().generateVAPIDKeys());
      const made = await pushRepo.vapid(db.q);
      if (!made) throw new Error('VAPID keys were not kept');
      return made;
    })().catch((err: unknown) => {
      keys = null;
      throw err;
    });
    return keys;
  }

  const toDevice = (r: PushSubscriptionRow, endpoint: string | null): PushDevice => ({
    id: String(r.id),
    device: r.device,
    previews: r.previews,
    lang: r.lang,
    createdAt: r.createdAt.getTime(),
    lastSentAt: r.lastSentAt ? r.lastSentAt.getTime() : null,
    current: endpoint !== null && r.endpoint === endpoint,
  });

  return {
    vapidKeys,

    /** Whether the account has a device (cached for a few seconds). */
    any(accountId: number): Promise<boolean> {
      // an account's commits at once share one read
      return hasDevices.get(accountId, async () => (await pushRepo.count(db.q, accountId)) > 0);
    },

    /** Drops what `any` keeps of an account (its devices changed). */
    forget(accountId: number) {
      hasDevices.delete(accountId);
    },

    async settings(accountId: number, endpoint: string | null) {
      const { publicKey } = await vapidKeys();
      const devices = (await pushRepo.ofAccount(db.q, accountId)).map((r) => toDevice(r, endpoint));
      return { publicKey, devices };
    },

    async subscribe(
      accountId: number,
      p: { endpoint: string; keys: { p256dh: string; auth: string }; previews: boolean },
      meta: { userAgent: string | undefined; lang: Lang },
    ): Promise<PushDevice> {
      await checkUserUrl(p.endpoint, deps.policy, 'endpoint');
      const mine = await pushRepo.ofAccount(db.q, accountId);
      if (!mine.some((s) => s.endpoint === p.endpoint) && mine.length >= pushLimits.devices)
        throw new ApiError(400000, null, `at most ${pushLimits.devices} devices`);
      const row = await pushRepo.upsert(db.q, {
        accountId,
        endpoint: p.endpoint,
        p256dh: p.keys.p256dh,
        auth: p.keys.auth,
        device: deviceName(meta.userAgent),
        lang: meta.lang,
        previews: p.previews,
      });
      hasDevices.delete(accountId);
      return toDevice(row, p.endpoint);
    },

    async setPreviews(accountId: number, id: string, previews: boolean): Promise<PushDevice> {
      const row = /^\d{1,15}$/.test(id)
        ? await pushRepo.setPreviews(db.q, accountId, Number(id), previews)
        : null;
      if (!row) throw new ApiError(100002, null, 'no such device');
      return toDevice(row, null);
    },

    async unsubscribe(accountId: number, id: string): Promise<void> {
      const gone = /^\d{1,15}$/.test(id) ? await pushRepo.remove(db.q, accountId, Number(id)) : false;
      if (!gone) throw new ApiError(100002, null, 'no such device');
      hasDevices.delete(accountId);
    },
  };
}

export type PushDevices = ReturnType<typeof createPushDevices>;
