-- Idempotency-Key (docs/api.md): the first answer to a key, replayed to the same principal for 24 hours.
CREATE TABLE idempotency_keys (
  principal text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  -- null while the first request is still being answered
  status integer,
  body jsonb,
  location text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (principal, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
