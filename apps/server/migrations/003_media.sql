-- Media files (MMS pictures, identity documents, voicemail): bytes in the media store (a folder by
-- default), facts here. A file is readable by the accounts listed in media_access only.

CREATE TABLE media (
  id text PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  -- mms | kyc | voicemail
  kind text NOT NULL,
  mime text NOT NULL,
  size integer NOT NULL,
  file_name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX media_account ON media (account_id, created_at DESC);

CREATE TABLE media_access (
  media_id text NOT NULL REFERENCES media (id),
  account_id bigint NOT NULL REFERENCES accounts (id),
  PRIMARY KEY (media_id, account_id)
);
