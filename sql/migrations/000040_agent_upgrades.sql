-- Fleet upgrades of agents (docs/upgrades.md#upgrading-the-agents): a roll upgrades a cluster's machines a batch at a
-- time from the service's own agent package; the orchestrator drives it and resumes it after a restart from these rows.
-- One roll at a time runs per cluster.
CREATE TABLE agent_upgrades (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  state text NOT NULL DEFAULT 'RUNNING' CHECK (state IN ('RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
  batch_size integer NOT NULL CHECK (batch_size BETWEEN 1 AND 100),
  timeout_seconds integer NOT NULL CHECK (timeout_seconds BETWEEN 10 AND 3600),
  version text NOT NULL,
  package_url text,
  package_sha256 text NOT NULL,
  reason text,
  created_by_name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE UNIQUE INDEX agent_upgrades_one_running ON agent_upgrades (cluster_id) WHERE state = 'RUNNING';
CREATE INDEX agent_upgrades_cluster_idx ON agent_upgrades (cluster_id, created_at DESC);

-- Each machine of a roll, in order. `generation` is the machine's connection generation when the upgrade was sent (the
-- agent is back once a newer connection is ONLINE); `servers` the ids of its servers that were RUNNING then, which must
-- be RUNNING again. No foreign key to machines: a machine removed later keeps its line in the roll's history.
CREATE TABLE agent_upgrade_machines (
  upgrade_id uuid NOT NULL REFERENCES agent_upgrades (id) ON DELETE CASCADE,
  machine_id uuid NOT NULL,
  machine_name text NOT NULL,
  position integer NOT NULL,
  state text NOT NULL DEFAULT 'PENDING' CHECK (state IN ('PENDING', 'UPGRADING', 'SUCCEEDED', 'FAILED', 'SKIPPED', 'CANCELLED')),
  from_version text,
  to_version text,
  generation bigint,
  sent_at timestamptz,
  servers uuid[] NOT NULL DEFAULT '{}',
  reason text,
  started_at timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (upgrade_id, machine_id)
);
