import type { ColumnType, Generated } from 'kysely';
import type { BrandId, Direction, MessageType, Minor } from '@numa/contract';

/** Migration 004: own numbers, messages (one copy per account), conversations, call settings, ads. */
export interface ChatsTables {
  virtual_numbers: {
    id: Generated<number>;
    account_id: number;
    tel_code: string;
    number: string;
    full_number: string;
    country: string;
    toll_free: Generated<boolean>;
    toll_free_verified: Generated<boolean>;
    plan_id: Generated<number>;
    /** a date: read it with to_char (drivers turn a bare date into a local-time Date) */
    payment_date: ColumnType<Date, string, string>;
    month_rent: Generated<Minor>;
    created_at: Generated<Date>;
  };
  call_settings: {
    account_id: number;
    forward_status: Generated<number>;
    voicemail_status: Generated<number>;
  };
  messages: {
    id: Generated<number>;
    account_id: number;
    own_full_number: string;
    own_tel_code: string;
    other_full_number: string;
    other_tel_code: Generated<string>;
    direction: Direction;
    type: MessageType;
    text: Generated<string>;
    media: Generated<string>;
    /** 0 sent, 1 pending, 2 failed */
    status: 0 | 1 | 2;
    retcode: number | null;
    retmsg: string | null;
    highlight_target: Generated<string>;
    highlight_text: Generated<string>;
    sms_id: string;
    date: number;
    charge: Generated<Minor>;
    segments: Generated<number>;
    carrier: string | null;
    carrier_id: string | null;
    stt: string | null;
    stt_status: number | null;
    /** When the message was delivered (epoch ms; migration 110), NULL until then. */
    delivered_at: number | null;
    deleted: Generated<boolean>;
    created_at: Generated<Date>;
  };
  chats: {
    account_id: number;
    own_full_number: string;
    other_full_number: string;
    max_date: number;
    last_date: number | null;
    last_message_id: number | null;
    /** Set by the trigger chats_version on every write (migration 055): the chat list's validator. */
    version: ColumnType<number, never, never>;
  };
  banner_ads: {
    brand: BrandId;
    redirect_url: Generated<string>;
    picture_url: Generated<string>;
    redirect_url_cn: Generated<string>;
    picture_url_cn: Generated<string>;
  };
}
