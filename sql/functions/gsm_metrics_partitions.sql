-- Creates the partitions around `now` (minute tables: the day before to two days ahead; hour tables: this month and
-- the next), idempotently. Called by every orchestrator on a slow beat, and by sql/migrations/000023 for the first ones.
CREATE OR REPLACE FUNCTION gsm_metrics_partitions(now timestamptz) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  day timestamp;
  month timestamp;
  base text;
BEGIN
  FOR day IN SELECT generate_series(date_trunc('day', now AT TIME ZONE 'UTC') - interval '1 day', date_trunc('day', now AT TIME ZONE 'UTC') + interval '2 days', interval '1 day') LOOP
    FOREACH base IN ARRAY ARRAY['server_metrics_minute', 'machine_metrics_minute'] LOOP
      EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
        base || '_p' || to_char(day, 'YYYYMMDD'), base, day AT TIME ZONE 'UTC', (day + interval '1 day') AT TIME ZONE 'UTC');
    END LOOP;
  END LOOP;
  FOR month IN SELECT generate_series(date_trunc('month', now AT TIME ZONE 'UTC'), date_trunc('month', now AT TIME ZONE 'UTC') + interval '1 month', interval '1 month') LOOP
    FOREACH base IN ARRAY ARRAY['server_metrics_hour', 'machine_metrics_hour'] LOOP
      EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
        base || '_p' || to_char(month, 'YYYYMM'), base, month AT TIME ZONE 'UTC', (month + interval '1 month') AT TIME ZONE 'UTC');
    END LOOP;
  END LOOP;
END $$;
