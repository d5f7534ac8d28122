-- Scheduled messages (issue 22 §2): an SMS written now and sent by the jobs module at `send_at`.
-- States: waiting → sending → sent | failed, or waiting → cancelled (failed → waiting again by an
-- edit). `version` grows with every edit; the job of a row is keyed by (id, version), and sending
-- claims the row with one conditional UPDATE (waiting and due → sending). The message it becomes
-- has smsId `sch-<id>`, so the send path's duplicate guard charges a repeated try once.
CREATE TABLE scheduled_messages (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  brand text NOT NULL,
  own_full_number text NOT NULL,
  other_full_number text NOT NULL,
  text text NOT NULL,
  send_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'waiting'
    CHECK (status IN ('waiting', 'sending', 'sent', 'failed', 'cancelled')),
  version integer NOT NULL DEFAULT 1,
  retcode integer,
  retmsg text NOT NULL DEFAULT '',
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- a conversation's list (what is still to go, or failed)
CREATE INDEX scheduled_messages_chat ON scheduled_messages (account_id, own_full_number, other_full_number, send_at)
  WHERE status IN ('waiting', 'sending', 'failed');
-- the due rows, oldest first (the dev route's "run due ones now", a sweep after an outage)
CREATE INDEX scheduled_messages_due ON scheduled_messages (send_at, id) WHERE status IN ('waiting', 'sending');
