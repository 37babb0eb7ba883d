-- A machine whose agent disconnected: when its servers become UNKNOWN unless the agent is back first (an agent
-- restart or upgrade keeps the game servers running, and their status should not flap). NULL: nothing pending.
ALTER TABLE machines ADD COLUMN servers_unknown_at timestamptz;
CREATE INDEX machines_servers_unknown_idx ON machines (servers_unknown_at) WHERE servers_unknown_at IS NOT NULL;
