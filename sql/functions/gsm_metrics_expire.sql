-- Drops the partitions wholly older than the retention (minute tables: `minute_days`, hour tables: `hour_days`);
-- answers how many were dropped.
CREATE OR REPLACE FUNCTION gsm_metrics_expire(now timestamptz, minute_days integer, hour_days integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  part record;
  dropped integer := 0;
BEGIN
  FOR part IN
    SELECT c.relname AS name, p.relname AS parent
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
     WHERE p.relname IN ('server_metrics_minute', 'machine_metrics_minute', 'server_metrics_hour', 'machine_metrics_hour')
  LOOP
    IF (part.parent LIKE '%\_minute' AND (to_date(right(part.name, 8), 'YYYYMMDD') + interval '1 day') AT TIME ZONE 'UTC' <= now - make_interval(days => minute_days))
       OR (part.parent LIKE '%\_hour' AND (to_date(right(part.name, 6), 'YYYYMM') + interval '1 month') AT TIME ZONE 'UTC' <= now - make_interval(days => hour_days)) THEN
      EXECUTE format('DROP TABLE %I', part.name);
      dropped := dropped + 1;
    END IF;
  END LOOP;
  DELETE FROM metrics_rollups WHERE hour < now - make_interval(days => minute_days) - interval '1 day';
  RETURN dropped;
END $$;
