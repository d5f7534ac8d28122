-- An outgoing message's carrier id is its own: no two outgoing messages hold the same carrier record.
-- Issue 18 §7: a message found at the carrier after a hand-over of unknown outcome adopts the first
-- record no other outgoing message holds; this index refuses a twin that raced it (two messages of
-- the same text to the same number, recovered at once). It replaces the plain index of migration 004:
-- the status callbacks look up outgoing messages only (incoming copies are found by their sms_id).
DROP INDEX messages_carrier_id;
CREATE UNIQUE INDEX messages_out_carrier_id ON messages (carrier_id)
  WHERE direction = 'out' AND carrier_id IS NOT NULL;
