-- Install codes and tokens after a security review (docs/agent.md#installing-it).
-- A code from a new install line for an existing machine yields a new token that does not replace the current one at
-- exchange time but when it first authenticates at the gateway: until then both work, so a lost answer or a failed
-- install leaves the machine's agent connected.
ALTER TABLE machines ADD COLUMN pending_token_hash bytea;
CREATE UNIQUE INDEX machines_pending_token_hash_key ON machines (pending_token_hash) WHERE pending_token_hash IS NOT NULL;

-- The SHA-256 of the token a code yields (the same hash machines keep), so the first connection with that token marks
-- the code used even when the token reached the agent some other way.
ALTER TABLE agent_install_codes ADD COLUMN token_hash bytea;
CREATE INDEX agent_install_codes_token ON agent_install_codes (token_hash) WHERE used_at IS NULL AND replaced_at IS NULL;

-- At most one live code per machine: of two concurrent requests for a line, the older code is replaced.
UPDATE agent_install_codes c SET replaced_at = now(), sealed_token = NULL
 WHERE c.used_at IS NULL AND c.replaced_at IS NULL
   AND EXISTS (SELECT 1 FROM agent_install_codes n WHERE n.machine_id = c.machine_id AND n.used_at IS NULL AND n.replaced_at IS NULL
                 AND (n.created_at, n.code_hash) > (c.created_at, c.code_hash));
CREATE UNIQUE INDEX agent_install_codes_one_live ON agent_install_codes (machine_id) WHERE used_at IS NULL AND replaced_at IS NULL;

-- Expired codes keep nothing to unseal.
UPDATE agent_install_codes SET sealed_token = NULL WHERE expires_at <= now() AND sealed_token IS NOT NULL;
