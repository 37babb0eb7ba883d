-- Machines (hosts running the agent) and the game servers they host.

CREATE TABLE machines (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  name text NOT NULL,
  agent_token_hash bytea NOT NULL,
  status text NOT NULL DEFAULT 'OFFLINE' CHECK (status IN ('ONLINE', 'OFFLINE')),
  hostname text,
  os text,
  agent_version text,
  cpu_count integer,
  memory_bytes bigint,
  metrics jsonb,
  last_seen_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX machines_agent_token_hash_key ON machines (agent_token_hash);
CREATE INDEX machines_cluster_id_idx ON machines (cluster_id);

CREATE TABLE servers (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  machine_id uuid NOT NULL REFERENCES machines (id) ON DELETE CASCADE,
  name text NOT NULL,
  game_type text NOT NULL,
  game_port integer NOT NULL CHECK (game_port BETWEEN 1024 AND 65535),
  query_port integer NOT NULL CHECK (query_port BETWEEN 1024 AND 65535),
  rcon_port integer NOT NULL CHECK (rcon_port BETWEEN 1024 AND 65535),
  max_players integer NOT NULL CHECK (max_players BETWEEN 1 AND 1000),
  status text NOT NULL DEFAULT 'INSTALLING'
    CHECK (status IN ('INSTALLING', 'OFFLINE', 'STARTING', 'ONLINE', 'STOPPING', 'RESTARTING', 'CRASHED', 'UNKNOWN')),
  desired_status text NOT NULL DEFAULT 'STOPPED' CHECK (desired_status IN ('RUNNING', 'STOPPED')),
  players_online integer NOT NULL DEFAULT 0,
  auto_restart boolean NOT NULL DEFAULT true,
  start_command text,
  env jsonb,
  -- Sent to the agent (it needs it to speak RCON); never answered over the REST API.
  rcon_password text NOT NULL,
  last_status_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT servers_ports_distinct CHECK (game_port <> query_port AND game_port <> rcon_port AND query_port <> rcon_port)
);
CREATE INDEX servers_cluster_id_idx ON servers (cluster_id);
CREATE INDEX servers_machine_id_idx ON servers (machine_id);

-- Every port a server uses, so that no two servers of one machine share a port (the primary key says so).
CREATE TABLE server_ports (
  machine_id uuid NOT NULL REFERENCES machines (id) ON DELETE CASCADE,
  port integer NOT NULL,
  server_id uuid NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
  CONSTRAINT server_ports_machine_port_key PRIMARY KEY (machine_id, port)
);
CREATE INDEX server_ports_server_id_idx ON server_ports (server_id);
