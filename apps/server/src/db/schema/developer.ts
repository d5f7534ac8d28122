import type { Generated } from 'kysely';
import type { BrandId, Minor } from '@numa/contract';

/** Migration 110 (issue 21): API keys, webhook endpoints and deliveries, SMS-Activate activations. */
export interface DeveloperTables {
  api_keys: {
    id: Generated<number>;
    account_id: number;
    brand: BrandId;
    name: string;
    /** the key's first characters, shown in lists */
    prefix: string;
    /** SHA-256 of the key, hex */
    token_hash: string;
    /** comma-separated ApiScope */
    scopes: string;
    created_at: Generated<Date>;
    last_used_at: Date | null;
    revoked_at: Date | null;
  };
  webhook_endpoints: {
    id: Generated<number>;
    account_id: number;
    url: string;
    description: Generated<string>;
    /** comma-separated WebhookEventType */
    events: string;
    /** whsec_… */
    secret: string;
    enabled: Generated<boolean>;
    /** 'failing' | 'owner' */
    disabled_reason: string | null;
    failing_since: Date | null;
    balance_threshold: Minor | null;
    balance_low: Generated<boolean>;
    created_at: Generated<Date>;
  };
  webhook_deliveries: {
    id: Generated<number>;
    endpoint_id: number;
    account_id: number;
    msg_id: string;
    event_type: string;
    payload: string;
    /** pending | succeeded | failed */
    status: Generated<string>;
    attempts: Generated<number>;
    last_status: number | null;
    last_error: string | null;
    next_attempt_at: Date | null;
    created_at: Generated<Date>;
    delivered_at: Date | null;
  };
  sms_activations: {
    lock_id: number;
    account_id: number;
    key_id: number;
    ready_at: Date | null;
    retry_at: Date | null;
    finished_at: Date | null;
    created_at: Generated<Date>;
  };
}
