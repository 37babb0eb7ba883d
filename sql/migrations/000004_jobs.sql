-- History: the functions and triggers below are as this migration left them. Their current definitions are in
-- sql/functions/<function>.sql, applied after the migrations (docs/development.md#migrations).
-- Durable jobs: every state-changing call on a game server becomes a row here, committed with graphile-worker's
-- add_job, the audit entry and the server's desired status in one transaction.

CREATE TABLE jobs (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  server_id uuid REFERENCES servers (id) ON DELETE SET NULL,
  machine_id uuid REFERENCES machines (id) ON DELETE SET NULL,
  player_id uuid,
  task_id uuid,
  type text NOT NULL CHECK (type IN ('START', 'STOP', 'RESTART', 'KILL', 'RCON', 'KICK', 'BAN', 'UNBAN', 'BROADCAST', 'WIPE', 'TASK_RUN')),
  status text NOT NULL DEFAULT 'QUEUED'
    CHECK (status IN ('QUEUED', 'DISPATCHED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED')),
  params jsonb NOT NULL DEFAULT '{}',
  result jsonb,
  error jsonb,
  attempts integer NOT NULL DEFAULT 0,
  created_by_kind text NOT NULL CHECK (created_by_kind IN ('USER', 'TOKEN', 'TASK', 'SYSTEM')),
  created_by_id uuid,
  idempotency_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  dispatched_at timestamptz,
  started_at timestamptz,
  finished_at timestamptz,
  expires_at timestamptz NOT NULL
);
CREATE INDEX jobs_cluster_created_idx ON jobs (cluster_id, created_at DESC, id DESC);
CREATE INDEX jobs_server_idx ON jobs (server_id);
CREATE INDEX jobs_task_idx ON jobs (task_id) WHERE task_id IS NOT NULL;
-- The jobs an agent still has to receive when it connects.
CREATE INDEX jobs_machine_pending_idx ON jobs (machine_id, created_at) WHERE status IN ('QUEUED', 'DISPATCHED', 'RUNNING');

-- Every status change is announced, so waiting requests and dispatchers wake up without polling.
CREATE FUNCTION gsm_jobs_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gsm_job', NEW.id::text || ' ' || NEW.status);
  RETURN NULL;
END
$$;
CREATE TRIGGER jobs_status_notify AFTER INSERT OR UPDATE OF status ON jobs
  FOR EACH ROW EXECUTE FUNCTION gsm_jobs_notify();
