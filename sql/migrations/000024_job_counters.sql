-- History: the functions and triggers below are as this migration left them. Their current definitions are in
-- sql/functions/<function>.sql, applied after the migrations (docs/development.md#migrations).
-- Job counters for /metrics (docs/operations.md#metrics): jobs created by type, ended by type and status, and the
-- accept → end latency histogram, kept by triggers in the same transaction as the job's change, so they are exact
-- across every process and survive restarts. Each count is spread over 16 slots (a row lock per slot, not one for all
-- jobs of a type); a scrape sums them.
CREATE TABLE job_counters (
  type text NOT NULL,
  status text NOT NULL, -- 'CREATED' or the final status
  slot smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (type, status, slot)
);
CREATE TABLE job_latency (
  type text NOT NULL,
  bucket smallint NOT NULL, -- index into gsm_job_latency_bounds(); one past the last is +Inf
  slot smallint NOT NULL,
  n bigint NOT NULL,
  seconds double precision NOT NULL,
  PRIMARY KEY (type, bucket, slot)
);

-- Upper bounds (seconds) of the latency buckets.
CREATE FUNCTION gsm_job_latency_bounds() RETURNS double precision[] LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY[0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600]::double precision[]
$$;

CREATE FUNCTION gsm_jobs_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_slot smallint := floor(random() * 16);
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

CREATE TRIGGER jobs_counted_inserted AFTER INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION gsm_jobs_count();
CREATE TRIGGER jobs_counted_updated AFTER UPDATE OF status ON jobs FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION gsm_jobs_count();

-- Jobs that exist already count as created (and, when ended, as ended), so the counters start from the truth.
INSERT INTO job_counters (type, status, slot, n) SELECT type, 'CREATED', 0, count(*) FROM jobs GROUP BY type;
INSERT INTO job_counters (type, status, slot, n)
  SELECT type, status, 0, count(*) FROM jobs WHERE status IN ('SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED') GROUP BY type, status;
