import type { Generated } from 'kysely';

/** Migration 120 (issue 23): Web Push keys, subscriptions and the low-balance mark. */
export interface PushTables {
  push_vapid: {
    id: Generated<number>;
    public_key: string;
    private_key: string;
    created_at: Generated<Date>;
  };
  push_subscriptions: {
    id: Generated<number>;
    account_id: number;
    endpoint: string;
    p256dh: string;
    auth: string;
    device: string;
    /** 'en' | 'zh' */
    lang: string;
    previews: Generated<boolean>;
    created_at: Generated<Date>;
    last_sent_at: Date | null;
  };
  push_balance_low: {
    account_id: number;
    since: Generated<Date>;
  };
}
