-- Core (issue 8): one queue for everything that runs later or on a schedule (src/jobs). A job is a
-- row; a worker claims due rows with FOR UPDATE SKIP LOCKED and a short lease its heartbeat renews,
-- so each job runs once across any number of servers and a dead process's jobs are taken back
-- within seconds. A finished job is deleted; one that used up its attempts stays, failed, for operators.

CREATE TABLE jobs (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  run_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL CHECK (max_attempts > 0),
  locked_by text,
  locked_until timestamptz,
  -- at most one waiting or running job per key (cleared when the job fails for good)
  dedupe_key text,
  last_error text,
  failed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT jobs_lock_pair CHECK ((locked_by IS NULL) = (locked_until IS NULL))
);
CREATE UNIQUE INDEX jobs_dedupe ON jobs (dedupe_key) WHERE dedupe_key IS NOT NULL;
CREATE INDEX jobs_due ON jobs (run_at, id) WHERE failed_at IS NULL;
CREATE INDEX jobs_locked_by ON jobs (locked_by) WHERE locked_by IS NOT NULL;

-- Recurring work: the server that moves next_run_at on (a conditional UPDATE) enqueues the period's
-- job, so a schedule runs once per period whatever the number of servers.
CREATE TABLE job_schedules (
  name text PRIMARY KEY,
  every_ms bigint NOT NULL CHECK (every_ms > 0),
  next_run_at timestamptz NOT NULL
);

-- The carrier's own queue moves in: sends not done yet become carrier.send jobs (one more attempt).
INSERT INTO jobs (name, payload, run_at, attempts, max_attempts, dedupe_key, last_error)
SELECT 'carrier.send', jsonb_build_object('messageId', message_id), run_after, attempts,
       GREATEST(3, attempts + 1), 'carrier:' || message_id, last_error
  FROM carrier_jobs WHERE done_at IS NULL;
DROP TABLE carrier_jobs;

-- What the purge jobs delete by.
CREATE INDEX captchas_expires ON captchas (expires_at);
CREATE INDEX rate_events_at ON rate_events (at);
CREATE INDEX sessions_expires ON sessions (expires_at);
CREATE INDEX signin_codes_expires ON signin_codes (expires_at);
CREATE INDEX outbox_created ON outbox (created_at);
