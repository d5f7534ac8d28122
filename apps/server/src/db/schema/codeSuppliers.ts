import type { Generated } from 'kysely';

/** Migration 101: the order of code suppliers per app and country, their state and recent refusals. */
export interface CodeSuppliersTables {
  code_supplier_routes: {
    /** an app id, or '*' */
    app: string;
    /** ISO alpha-2, or '*' */
    country: string;
    /** supplier names in the order they are asked, comma-separated */
    suppliers: string;
    updated_at: Generated<Date>;
  };
  code_supplier_state: {
    supplier: string;
    last_ok_at: Date | null;
    last_failure_at: Date | null;
    last_kind: string | null;
    last_reason: string | null;
    last_answer: string | null;
    last_action: string | null;
    consecutive_failures: Generated<number>;
    ok_count: Generated<number>;
    failure_count: Generated<number>;
    paused_until: Date | null;
  };
  code_supplier_events: {
    id: Generated<number>;
    supplier: string;
    at: Date;
    operation: string;
    kind: string;
    reason: string;
    answer: string | null;
    action: string | null;
    app: string | null;
    country: string | null;
  };
}
