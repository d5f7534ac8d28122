import type { ColumnType, Generated } from 'kysely';

/** Migration 160: scheduled messages (issue 22 §2). */
export interface ScheduledTables {
  scheduled_messages: {
    id: Generated<number>;
    account_id: ColumnType<number, number, never>;
    brand: ColumnType<string, string, never>;
    own_full_number: ColumnType<string, string, never>;
    other_full_number: ColumnType<string, string, never>;
    text: string;
    send_at: Date;
    status: Generated<'waiting' | 'sending' | 'sent' | 'failed' | 'cancelled'>;
    version: Generated<number>;
    retcode: number | null;
    retmsg: Generated<string>;
    sent_at: Date | null;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
}
