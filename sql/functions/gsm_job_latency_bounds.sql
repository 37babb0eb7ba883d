-- Upper bounds (seconds) of the latency buckets.
CREATE OR REPLACE FUNCTION gsm_job_latency_bounds() RETURNS double precision[] LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY[0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600]::double precision[]
$$;
