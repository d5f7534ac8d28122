-- The carrier simulator's own side (providers/carrier/simulator.ts, CARRIER=simulator): every chat
-- message it accepted, kept as a real carrier keeps its message log. When our server dies between the
-- carrier's acceptance of a hand-over and our record of it, the restarted server asks the carrier
-- whether it has the message before handing it over again (issue 18 §7); the simulator answers from
-- here, so its answer survives a kill -9 of the process it runs in. One row per acceptance: a message
-- handed over twice is two rows, as it would be two texts at a real carrier. Only the simulator reads
-- or writes this table.
CREATE TABLE carrier_simulator_messages (
  id bigserial PRIMARY KEY,
  -- the simulator's message id (SIM…), what the hand-over answered
  sid text NOT NULL UNIQUE,
  -- the hand-over's request key as the carrier received it (OutboundMessage.idempotencyKey)
  request_key text NOT NULL,
  from_number text NOT NULL,
  to_number text NOT NULL,
  body text NOT NULL DEFAULT '',
  num_media integer NOT NULL DEFAULT 0,
  accepted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX carrier_simulator_messages_request ON carrier_simulator_messages (request_key);
