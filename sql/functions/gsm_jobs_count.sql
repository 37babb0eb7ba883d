-- Job counters for /metrics (docs/operations.md#the-domain-on-metrics): jobs created by type, ended by type and status, and the
-- accept → end latency histogram, kept in the same transaction as the job's change, so they are exact across every
-- process and survive restarts; a scrape sums a count's rows. Each connection counts in a slot of its own
-- (gsm_counter_slot), so two transactions never wait for each other's count: a connection runs one transaction at a
-- time. (16 slots chosen by transaction id made a storm's transactions queue on the counters' row locks: in the 4 a.m.
-- benchmark the counting statements spent 42 s in all, most of it waiting. Slots chosen by pid modulo 32768 were
-- shared by two backends whose pids were 32768 apart, common where pid_max is higher, as systemd sets it.) The slots of
-- connections that closed are folded into slot -1 every few minutes (orchestrator/jobs/counters.ts), so the rows stay
-- about as many as the connections.
CREATE OR REPLACE FUNCTION gsm_jobs_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_slot smallint := gsm_counter_slot();
  v_seconds double precision;
  v_bucket smallint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO job_counters AS c (type, status, slot, n) VALUES (NEW.type, 'CREATED', v_slot, 1)
      ON CONFLICT ON CONSTRAINT job_counters_pkey DO UPDATE SET n = c.n + 1;
    RETURN NULL;
  END IF;
  IF NEW.status IN ('SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED') AND OLD.status NOT IN ('SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED') THEN
    INSERT INTO job_counters AS c (type, status, slot, n) VALUES (NEW.type, NEW.status, v_slot, 1)
      ON CONFLICT ON CONSTRAINT job_counters_pkey DO UPDATE SET n = c.n + 1;
    v_seconds := greatest(extract(epoch FROM coalesce(NEW.finished_at, now()) - NEW.created_at), 0);
    SELECT coalesce(min(i), array_length(gsm_job_latency_bounds(), 1) + 1) INTO v_bucket
      FROM generate_subscripts(gsm_job_latency_bounds(), 1) i WHERE v_seconds <= (gsm_job_latency_bounds())[i];
    INSERT INTO job_latency AS l (type, bucket, slot, n, seconds) VALUES (NEW.type, v_bucket, v_slot, 1, v_seconds)
      ON CONFLICT ON CONSTRAINT job_latency_pkey DO UPDATE SET n = l.n + 1, seconds = l.seconds + EXCLUDED.seconds;
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER jobs_counted_inserted AFTER INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION gsm_jobs_count();
CREATE OR REPLACE TRIGGER jobs_counted_updated AFTER UPDATE OF status ON jobs FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION gsm_jobs_count();
