-- Speech-to-text results (issue 25): one row per recording (the SHA-256 of its bytes) and language,
-- so a recording is sent to the paid provider once per language, whichever server is asked. `status`:
-- pending (a server is asking the provider since claimed_at; another server waits for it, or takes
-- the claim over once it is stale), done (`text`), failed (the provider could not transcribe this
-- recording: answered 600002 again without asking; `reason` says why).
CREATE TABLE stt_transcripts (
  audio_sha256 text NOT NULL CHECK (audio_sha256 ~ '^[0-9a-f]{64}$'),
  language text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
  provider text NOT NULL,
  text text,
  reason text,
  claimed_at timestamptz NOT NULL,
  finished_at timestamptz,
  PRIMARY KEY (audio_sha256, language),
  CONSTRAINT stt_transcripts_done_text CHECK ((status = 'done') = (text IS NOT NULL))
);
