-- History: the functions and triggers below are as this migration left them. Their current definitions are in
-- sql/functions/<function>.sql, applied after the migrations (docs/development.md#migrations).
-- The event log (docs/events.md): everything that happens in a cluster, written by triggers in the same transaction as
-- the change it describes (an outbox), so a committed change always has its event and a rolled-back one never has.
--
-- Readers resume after a cursor, so events need an order in which a reader can never miss one: `position`. It is NOT
-- given at insert time (transactions commit out of order, so a position taken at insert could become visible after a
-- reader has already read past it). One sequencer at a time (gsm_sequence_events, holding the row lock of event_positions) numbers the
-- events that are committed and not numbered yet, above every number given before. Readers see numbered events only,
-- so a position, once seen, is never followed by a smaller one. Events of one server are numbered in the order they
-- happened: their transactions update the server's row, so they commit in that order.

CREATE TABLE events (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  position bigint,
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  type text NOT NULL,
  server_id uuid,
  at timestamptz NOT NULL DEFAULT clock_timestamp(),
  data jsonb NOT NULL
);
CREATE UNIQUE INDEX events_position_key ON events (position);
CREATE INDEX events_pending_idx ON events (at, id) WHERE position IS NULL;
CREATE INDEX events_cluster_position_idx ON events (cluster_id, position) WHERE position IS NOT NULL;
CREATE INDEX events_server_position_idx ON events (server_id, position) WHERE position IS NOT NULL AND server_id IS NOT NULL;
CREATE INDEX events_at_idx ON events (at);

-- Timestamps in events are written as the API writes them: ISO 8601 UTC with milliseconds.
CREATE FUNCTION gsm_iso(p timestamptz) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_char(p AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

-- A pending event wakes the sequencers (one notification per transaction: Postgres folds identical ones).
CREATE FUNCTION gsm_events_pending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gsm_events_pending', 'pending');
  RETURN NULL;
END
$$;
CREATE TRIGGER events_pending AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION gsm_events_pending();

-- The highest position given so far (kept apart from the events, which retention deletes). Its row lock is what makes
-- the sequencer one at a time: two at once could interleave numbers, and a reader could skip one that commits late.
CREATE TABLE event_positions (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  last_position bigint NOT NULL
);
INSERT INTO event_positions (last_position) VALUES (0);

-- Numbers up to p_limit committed, unnumbered events after the highest position given; answers how many. Announces
-- the highest position on `gsm_events` so every API node reads the new events once.
CREATE FUNCTION gsm_sequence_events(p_limit integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_base bigint;
  v_count integer;
BEGIN
  SELECT last_position INTO v_base FROM event_positions FOR UPDATE;
  WITH pending AS (
    SELECT id, row_number() OVER (ORDER BY at, id) AS n FROM events WHERE position IS NULL ORDER BY at, id LIMIT p_limit
  )
  UPDATE events e SET position = v_base + pending.n FROM pending WHERE e.id = pending.id;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  IF v_count > 0 THEN
    UPDATE event_positions SET last_position = v_base + v_count;
    PERFORM pg_notify('gsm_events', (v_base + v_count)::text);
  END IF;
  RETURN v_count;
END
$$;

-- ---- the sources

-- Why a server is in its status, and how its process last ended (docs/servers.md).
ALTER TABLE servers ADD COLUMN status_reason text, ADD COLUMN last_exit_code integer;

CREATE FUNCTION gsm_servers_status_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (cluster_id, type, server_id, data)
  VALUES (NEW.cluster_id, 'server.status', NEW.id, jsonb_build_object(
    'serverId', NEW.id, 'status', NEW.status, 'previous', OLD.status, 'reason', NEW.status_reason, 'exitCode', NEW.last_exit_code));
  RETURN NULL;
END
$$;
CREATE TRIGGER servers_status_event AFTER UPDATE OF status ON servers
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION gsm_servers_status_event();

CREATE FUNCTION gsm_machines_status_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (cluster_id, type, data)
  VALUES (NEW.cluster_id, 'machine.status', jsonb_build_object('machineId', NEW.id, 'status', NEW.status));
  RETURN NULL;
END
$$;
CREATE TRIGGER machines_status_event AFTER UPDATE OF status ON machines
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION gsm_machines_status_event();

-- The Job record as the API answers it (orchestrator/jobs/store.ts, JOB_COLUMNS).
CREATE FUNCTION gsm_job_record(j jobs) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', j.id, 'clusterId', j.cluster_id, 'serverId', j.server_id, 'machineId', j.machine_id, 'playerId', j.player_id,
    'taskId', j.task_id, 'type', j.type, 'status', j.status, 'params', j.params, 'result', j.result, 'error', j.error,
    'attempts', j.attempts, 'createdBy', jsonb_build_object('kind', j.created_by_kind, 'id', j.created_by_id),
    'idempotencyKey', j.idempotency_key, 'createdAt', gsm_iso(j.created_at), 'dispatchedAt', gsm_iso(j.dispatched_at),
    'startedAt', gsm_iso(j.started_at), 'finishedAt', gsm_iso(j.finished_at), 'expiresAt', gsm_iso(j.expires_at))
$$;

CREATE FUNCTION gsm_jobs_event() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER jobs_event_inserted AFTER INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION gsm_jobs_event();
CREATE TRIGGER jobs_event_updated AFTER UPDATE OF status ON jobs
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION gsm_jobs_event();

-- Joins and leaves, once per statement (ingest writes many sessions at once).
CREATE FUNCTION gsm_sessions_joined_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (cluster_id, type, server_id, at, data)
  SELECT s.cluster_id, 'player.joined', s.server_id, clock_timestamp(),
         jsonb_build_object('playerId', p.id, 'serverId', s.server_id, 'username', p.username, 'steamId', p.steam_id)
    FROM added s JOIN players p ON p.id = s.player_id
   ORDER BY s.joined_at, s.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER sessions_joined_event AFTER INSERT ON player_sessions REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION gsm_sessions_joined_event();

CREATE FUNCTION gsm_sessions_left_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (cluster_id, type, server_id, at, data)
  SELECT s.cluster_id, 'player.left', s.server_id, clock_timestamp(),
         jsonb_build_object('playerId', p.id, 'serverId', s.server_id, 'username', p.username, 'steamId', p.steam_id)
    FROM ended s JOIN before b ON b.id = s.id AND b.left_at IS NULL AND s.left_at IS NOT NULL
    JOIN players p ON p.id = s.player_id
   ORDER BY s.left_at, s.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER sessions_left_event AFTER UPDATE ON player_sessions REFERENCING OLD TABLE AS before NEW TABLE AS ended
  FOR EACH STATEMENT EXECUTE FUNCTION gsm_sessions_left_event();

-- The Ban record as the API answers it (orchestrator/players/bans.ts, BAN_COLUMNS).
CREATE FUNCTION gsm_ban_record(b bans) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', b.id, 'playerId', b.player_id, 'clusterId', b.cluster_id, 'serverId', b.server_id, 'reason', b.reason,
    'clusterWide', b.cluster_wide, 'expiresAt', gsm_iso(b.expires_at), 'createdBy', b.created_by,
    'createdAt', gsm_iso(b.created_at), 'revokedAt', gsm_iso(b.revoked_at),
    'active', b.revoked_at IS NULL AND (b.expires_at IS NULL OR b.expires_at > now()))
$$;

CREATE FUNCTION gsm_bans_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (cluster_id, type, server_id, data)
  VALUES (NEW.cluster_id, CASE WHEN TG_OP = 'INSERT' THEN 'ban.created' ELSE 'ban.revoked' END, NEW.server_id, gsm_ban_record(NEW));
  RETURN NULL;
END
$$;
CREATE TRIGGER bans_created_event AFTER INSERT ON bans FOR EACH ROW EXECUTE FUNCTION gsm_bans_event();
CREATE TRIGGER bans_revoked_event AFTER UPDATE OF revoked_at ON bans
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL) EXECUTE FUNCTION gsm_bans_event();
