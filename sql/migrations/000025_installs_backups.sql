-- History: the functions and triggers below are as this migration left them. Their current definitions are in
-- sql/functions/<function>.sql, applied after the migrations (docs/development.md#migrations).
-- Game installation, updates and backups (docs/installs-and-backups.md).

-- New job types, and a job's progress while it runs ({ percent: 0..100 or null, message }), from its agent.
ALTER TABLE jobs DROP CONSTRAINT jobs_type_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_type_check
  CHECK (type IN ('START', 'STOP', 'RESTART', 'KILL', 'RCON', 'KICK', 'BAN', 'UNBAN', 'BROADCAST', 'WIPE', 'TASK_RUN',
                  'INSTALL', 'UPDATE', 'BACKUP', 'RESTORE'));
ALTER TABLE jobs ADD COLUMN progress jsonb;

-- INSTALL_FAILED: the last install or update failed (statusReason says why).
ALTER TABLE servers DROP CONSTRAINT servers_status_check;
ALTER TABLE servers ADD CONSTRAINT servers_status_check
  CHECK (status IN ('INSTALLING', 'INSTALL_FAILED', 'OFFLINE', 'STARTING', 'ONLINE', 'STOPPING', 'RESTARTING', 'CRASHED', 'UNKNOWN'));
ALTER TABLE servers
  -- The game version to install (MINECRAFT: a release id such as 1.21.4; null: the latest release).
  ADD COLUMN version text CONSTRAINT servers_version_length CHECK (length(version) BETWEEN 1 AND 64),
  -- What the last successful INSTALL or UPDATE installed (from its job's result).
  ADD COLUMN installed_version text,
  ADD COLUMN installed_at timestamptz,
  ADD COLUMN accept_eula boolean NOT NULL DEFAULT false,
  ADD COLUMN install_command text CONSTRAINT servers_install_command_length CHECK (length(install_command) BETWEEN 1 AND 1024),
  ADD COLUMN backup_retention integer NOT NULL DEFAULT 5 CONSTRAINT servers_backup_retention_range CHECK (backup_retention BETWEEN 1 AND 100);

CREATE TABLE backups (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  server_id uuid NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
  -- The BACKUP job that makes it.
  job_id uuid NOT NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'COMPLETED', 'FAILED')),
  size_bytes bigint,
  sha256 text CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  consistent boolean,
  location text CHECK (location IN ('LOCAL', 'S3')),
  error jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  CHECK (status <> 'COMPLETED' OR (size_bytes IS NOT NULL AND sha256 IS NOT NULL AND location IS NOT NULL AND consistent IS NOT NULL))
);
CREATE INDEX backups_server_created_idx ON backups (server_id, created_at DESC, id DESC);
CREATE UNIQUE INDEX backups_job_idx ON backups (job_id);

-- A BACKUP job's end completes or fails its backup (in the same transaction as the result), then applies the server's
-- retention: completed backups beyond backup_retention go, oldest first, and so do failed ones beyond it. The agent
-- removes the files of backups that no longer exist when it hears of the change (servers:sync lists each server's).
-- A successful INSTALL or UPDATE records the version it installed.
CREATE FUNCTION gsm_jobs_installs_backups() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_retention integer;
  v_machine uuid;
BEGIN
  IF NEW.type IN ('INSTALL', 'UPDATE') AND NEW.status = 'SUCCEEDED' AND NEW.server_id IS NOT NULL THEN
    UPDATE servers SET installed_version = coalesce(left(NEW.result ->> 'version', 64), installed_version), installed_at = NEW.finished_at
     WHERE id = NEW.server_id;
  ELSIF NEW.type = 'BACKUP' AND NEW.status IN ('SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED') THEN
    IF NEW.status = 'SUCCEEDED'
       AND (NEW.result ->> 'sha256') ~ '^[0-9a-f]{64}$'
       AND jsonb_typeof(NEW.result -> 'sizeBytes') = 'number'
       AND (NEW.result ->> 'location') IN ('LOCAL', 'S3') THEN
      UPDATE backups SET status = 'COMPLETED', size_bytes = (NEW.result ->> 'sizeBytes')::numeric::bigint, sha256 = NEW.result ->> 'sha256',
                         consistent = coalesce((NEW.result ->> 'consistent')::boolean, false), location = NEW.result ->> 'location',
                         completed_at = NEW.finished_at
       WHERE job_id = NEW.id AND status = 'PENDING';
    ELSE
      UPDATE backups SET status = 'FAILED', completed_at = NEW.finished_at,
                         error = coalesce(NEW.error, jsonb_build_object('code', NEW.status, 'message', 'the backup job ended ' || lower(NEW.status)))
       WHERE job_id = NEW.id AND status = 'PENDING';
    END IF;
    SELECT backup_retention, machine_id INTO v_retention, v_machine FROM servers WHERE id = NEW.server_id;
    IF FOUND THEN
      DELETE FROM backups b USING (
        SELECT id, row_number() OVER (PARTITION BY status ORDER BY created_at DESC, id DESC) AS n
          FROM backups WHERE server_id = NEW.server_id AND status IN ('COMPLETED', 'FAILED')
      ) ranked
       WHERE b.id = ranked.id AND ranked.n > v_retention;
      PERFORM pg_notify('gsm_agent', json_build_object('type', 'servers_changed', 'machineId', v_machine)::text);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER jobs_installs_backups AFTER UPDATE OF status ON jobs
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.type IN ('INSTALL', 'UPDATE', 'BACKUP'))
  EXECUTE FUNCTION gsm_jobs_installs_backups();

-- The Job record gains its progress.
CREATE OR REPLACE FUNCTION gsm_job_record(j jobs) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', j.id, 'clusterId', j.cluster_id, 'serverId', j.server_id, 'machineId', j.machine_id, 'playerId', j.player_id,
    'taskId', j.task_id, 'type', j.type, 'status', j.status, 'params', j.params, 'result', j.result, 'error', j.error,
    'progress', j.progress,
    'attempts', j.attempts, 'createdBy', jsonb_build_object('kind', j.created_by_kind, 'id', j.created_by_id),
    'idempotencyKey', j.idempotency_key, 'createdAt', gsm_iso(j.created_at), 'dispatchedAt', gsm_iso(j.dispatched_at),
    'startedAt', gsm_iso(j.started_at), 'finishedAt', gsm_iso(j.finished_at), 'expiresAt', gsm_iso(j.expires_at))
$$;

-- A job's progress is a job.updated event too (its agent sends at most one a second).
CREATE TRIGGER jobs_event_progress AFTER UPDATE OF progress ON jobs
  FOR EACH ROW WHEN (OLD.progress IS DISTINCT FROM NEW.progress AND OLD.status = NEW.status) EXECUTE FUNCTION gsm_jobs_event();
