-- Single-use registration codes for the install one-liner (docs/agent.md#installing-it). The line carries a code, not
-- the agent token: the installer exchanges the code once, within an hour, for the token sealed under it.
CREATE TABLE agent_install_codes (
  -- SHA-256 of the code (`gsm_install_…`); the code itself is never stored.
  code_hash bytea PRIMARY KEY,
  machine_id uuid NOT NULL REFERENCES machines (id) ON DELETE CASCADE,
  -- The agent token the code yields, AES-256-GCM under a key derived from the code (so a copy of the database alone
  -- does not give the token); emptied once the code is used or replaced.
  sealed_token bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  used_from text,
  -- A newer code (or a token rotation) for the same machine replaced this one before it was used.
  replaced_at timestamptz
);
CREATE INDEX agent_install_codes_machine ON agent_install_codes (machine_id);
