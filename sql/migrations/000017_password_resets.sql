-- Self-service password resets (with SMTP_URL): a single-use secret e-mailed to the user, valid one hour.
-- Only its SHA-256 is stored. Using one sets the password, spends every other open reset of the user and ends
-- every session of the user.
CREATE TABLE password_resets (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_resets_user_id_idx ON password_resets (user_id, created_at DESC);
