-- job.updated events (and task.run.finished when a task run ends), written in the transaction that changes the job.
CREATE OR REPLACE FUNCTION gsm_jobs_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (cluster_id, type, server_id, data)
  VALUES (NEW.cluster_id, 'job.updated', NEW.server_id, gsm_job_record(NEW));
  IF NEW.type = 'TASK_RUN' AND NEW.status IN ('SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED') THEN
    INSERT INTO events (cluster_id, type, data)
    VALUES (NEW.cluster_id, 'task.run.finished', jsonb_build_object('taskId', NEW.task_id, 'jobId', NEW.id, 'status', NEW.status));
  END IF;
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER jobs_event_inserted AFTER INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION gsm_jobs_event();
CREATE OR REPLACE TRIGGER jobs_event_updated AFTER UPDATE OF status ON jobs
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION gsm_jobs_event();
-- A job's progress is a job.updated event too (its agent sends at most one a second).
CREATE OR REPLACE TRIGGER jobs_event_progress AFTER UPDATE OF progress ON jobs
  FOR EACH ROW WHEN (OLD.progress IS DISTINCT FROM NEW.progress AND OLD.status = NEW.status) EXECUTE FUNCTION gsm_jobs_event();
