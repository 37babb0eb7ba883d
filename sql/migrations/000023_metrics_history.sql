-- History: the functions and triggers below are as this migration left them. Their current definitions are in
-- sql/functions/<function>.sql, applied after the migrations (docs/development.md#migrations).
-- Metrics history (docs/metrics.md): per-minute points per server and per machine, rolled up to hourly points.
-- Each point keeps sums and maxima with its sample count, so points written by several gateways in one minute merge
-- (sum + sum, greatest of the maxima) and averages are sum / samples. Tables are partitioned by time: minute points
-- by day, hourly points by month; retention drops whole partitions, never rows one by one. A server or machine
-- deleted takes its points with it (a trigger: no foreign key, whose check would cost a lookup per point written;
-- points are only written for servers and machines that exist).

CREATE TABLE server_metrics_minute (
  server_id uuid NOT NULL,
  at timestamptz NOT NULL,
  samples integer NOT NULL,
  cpu_sum double precision NOT NULL,
  cpu_max real NOT NULL,
  memory_sum double precision NOT NULL,
  memory_max bigint NOT NULL,
  players_sum double precision NOT NULL,
  players_max integer NOT NULL,
  PRIMARY KEY (server_id, at)
) PARTITION BY RANGE (at);

CREATE TABLE server_metrics_hour (LIKE server_metrics_minute INCLUDING DEFAULTS, PRIMARY KEY (server_id, at)) PARTITION BY RANGE (at);

CREATE TABLE machine_metrics_minute (
  machine_id uuid NOT NULL,
  at timestamptz NOT NULL,
  samples integer NOT NULL,
  cpu_sum double precision NOT NULL,
  cpu_max real NOT NULL,
  memory_sum double precision NOT NULL,
  memory_max bigint NOT NULL,
  disk_sum double precision NOT NULL,
  disk_max bigint NOT NULL,
  PRIMARY KEY (machine_id, at)
) PARTITION BY RANGE (at);

CREATE TABLE machine_metrics_hour (LIKE machine_metrics_minute INCLUDING DEFAULTS, PRIMARY KEY (machine_id, at)) PARTITION BY RANGE (at);

CREATE FUNCTION gsm_delete_metrics() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'servers' THEN
    DELETE FROM server_metrics_minute WHERE server_id = OLD.id;
    DELETE FROM server_metrics_hour WHERE server_id = OLD.id;
  ELSE
    DELETE FROM machine_metrics_minute WHERE machine_id = OLD.id;
    DELETE FROM machine_metrics_hour WHERE machine_id = OLD.id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER servers_metrics_deleted AFTER DELETE ON servers FOR EACH ROW EXECUTE FUNCTION gsm_delete_metrics();
CREATE TRIGGER machines_metrics_deleted AFTER DELETE ON machines FOR EACH ROW EXECUTE FUNCTION gsm_delete_metrics();

-- Hours whose minute points are rolled up (each once, by one orchestrator); hourly points are read up to the last one.
CREATE TABLE metrics_rollups (hour timestamptz PRIMARY KEY, rolled_at timestamptz NOT NULL DEFAULT now());

-- Creates the partitions around `now` (minute tables: the day before to two days ahead; hour tables: this month and
-- the next), idempotently. Called by every orchestrator on a slow beat, and here for the first ones.
CREATE FUNCTION gsm_metrics_partitions(now timestamptz) RETURNS void LANGUAGE plpgsql AS $$
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

-- Drops the partitions wholly older than the retention (minute tables: `minute_days`, hour tables: `hour_days`);
-- answers how many were dropped.
CREATE FUNCTION gsm_metrics_expire(now timestamptz, minute_days integer, hour_days integer) RETURNS integer LANGUAGE plpgsql AS $$
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

SELECT gsm_metrics_partitions(now());
