-- Saved replies (issue 22 §3): an account's message templates, a name and a text each, up to
-- constants.templatesMax (the service counts under a per-account advisory lock).
CREATE TABLE message_templates (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  text text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX message_templates_account ON message_templates (account_id, id);
