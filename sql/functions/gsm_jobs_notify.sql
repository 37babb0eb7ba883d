-- Every status change is announced, so waiting requests and dispatchers wake up without polling.
CREATE OR REPLACE FUNCTION gsm_jobs_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gsm_job', NEW.id::text || ' ' || NEW.status);
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER jobs_status_notify AFTER INSERT OR UPDATE OF status ON jobs
  FOR EACH ROW EXECUTE FUNCTION gsm_jobs_notify();
