-- A BACKUP job's end completes or fails its backup (in the same transaction as the result), then applies the server's
-- retention: completed backups beyond backup_retention go, oldest first, and so do failed ones beyond it. The agent
-- removes the files of backups that no longer exist when it hears of the change (servers:sync lists each server's).
-- A successful INSTALL or UPDATE records the version it installed.
CREATE OR REPLACE FUNCTION gsm_jobs_installs_backups() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE OR REPLACE TRIGGER jobs_installs_backups AFTER UPDATE OF status ON jobs
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.type IN ('INSTALL', 'UPDATE', 'BACKUP'))
  EXECUTE FUNCTION gsm_jobs_installs_backups();
