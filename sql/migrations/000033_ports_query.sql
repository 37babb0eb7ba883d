-- Ports and query (docs/servers.md#ports-and-allocations, docs/servers.md#query-and-liveness).

-- A machine's addresses: those its operators give, and those its agent reports in its host facts.
ALTER TABLE machines
  ADD COLUMN addresses text[] NOT NULL DEFAULT '{}',
  ADD COLUMN reported_addresses text[] NOT NULL DEFAULT '{}';

-- The port ranges the service picks a machine's ports from (and explicit ports must lie in, once a machine has any).
-- Overlaps are refused by the API under the machine's row lock.
CREATE TABLE machine_port_ranges (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  machine_id uuid NOT NULL REFERENCES machines (id) ON DELETE CASCADE,
  first_port integer NOT NULL CHECK (first_port BETWEEN 1024 AND 65535),
  last_port integer NOT NULL CHECK (last_port BETWEEN 1024 AND 65535),
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT machine_port_ranges_size CHECK (last_port >= first_port AND last_port - first_port < 10000)
);
CREATE INDEX machine_port_ranges_machine ON machine_port_ranges (machine_id, first_port);

-- server_ports become named allocations: game, query, rcon and the extras a game asks for (Rust's app port).
-- The primary key (machine_id, port) still says that a port of a machine belongs to one server.
ALTER TABLE server_ports
  ADD COLUMN name text,
  ADD COLUMN protocol text NOT NULL DEFAULT 'BOTH' CHECK (protocol IN ('TCP', 'UDP', 'BOTH'));
UPDATE server_ports p SET name = CASE p.port WHEN s.game_port THEN 'game' WHEN s.query_port THEN 'query' WHEN s.rcon_port THEN 'rcon' END
  FROM servers s WHERE s.id = p.server_id;
DELETE FROM server_ports WHERE name IS NULL;
ALTER TABLE server_ports
  ALTER COLUMN name SET NOT NULL,
  ADD CONSTRAINT server_ports_name_format CHECK (name ~ '^[a-z][a-z0-9_-]{0,31}$');
CREATE UNIQUE INDEX server_ports_server_name ON server_ports (server_id, name);

-- Query state and liveness.
ALTER TABLE servers
  ADD COLUMN query jsonb,
  -- The server's own query protocol (null: its game's; NONE: never queried).
  ADD COLUMN query_protocol text CHECK (query_protocol IN ('A2S', 'MINECRAFT', 'TCP', 'NONE')),
  ADD COLUMN unresponsive_after integer NOT NULL DEFAULT 5 CHECK (unresponsive_after BETWEEN 1 AND 100),
  ADD COLUMN restart_when_unresponsive boolean NOT NULL DEFAULT false;
ALTER TABLE servers DROP CONSTRAINT servers_status_check;
ALTER TABLE servers ADD CONSTRAINT servers_status_check
  CHECK (status IN ('INSTALLING', 'INSTALL_FAILED', 'OFFLINE', 'STARTING', 'ONLINE', 'UNRESPONSIVE', 'STOPPING', 'RESTARTING', 'CRASHED', 'UNKNOWN'));
