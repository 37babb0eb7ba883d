-- History: the functions and triggers below are as this migration left them. Their current definitions are in
-- sql/functions/<function>.sql, applied after the migrations (docs/development.md#migrations).
-- Player activity per UTC day, so the statistics (docs/api.md) and a cluster's player count are sums over a few
-- hundred rows instead of scans of a million players: for each cluster and day, how many players were first seen
-- that day, how many were last seen that day, and of the first ones how many came back (a session starting 1, 7 or
-- 30 days after their first). A window then adds up the whole days inside it and reads only the players of the one
-- day it starts in from the players indexes (players/store.ts).
--
-- A trigger on players records each change as a delta row in player_activity_changes (append-only: concurrent ingest
-- transactions never wait on one counter row, and one transaction adding many players never updates the same row
-- again and again); the orchestrator folds the deltas into player_activity_days every two seconds, in one statement
-- that moves them, so a reader adding up both tables sees every change exactly once. It fires only when a player's
-- day, first sighting or comeback changes: a leave on the day of the join writes nothing.
-- It replaces cluster_player_counts (000007), whose per-statement counter updates cost more on every new player.

CREATE TABLE player_activity_days (
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  day date NOT NULL,
  -- Players whose first_seen / last_seen falls on this day (UTC).
  first_seen bigint NOT NULL DEFAULT 0,
  last_seen bigint NOT NULL DEFAULT 0,
  -- Of those first seen this day, the players whose newest session started at least 24 / 168 / 720 hours after.
  returned_1 bigint NOT NULL DEFAULT 0,
  returned_7 bigint NOT NULL DEFAULT 0,
  returned_30 bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (cluster_id, day)
);

-- No foreign key (its check would lock the cluster row for every change): a deleted cluster's deltas are dropped
-- when folded.
CREATE TABLE player_activity_changes (
  cluster_id uuid NOT NULL,
  day date NOT NULL,
  first_seen bigint NOT NULL,
  last_seen bigint NOT NULL,
  returned_1 bigint NOT NULL,
  returned_7 bigint NOT NULL,
  returned_30 bigint NOT NULL
);
CREATE INDEX player_activity_changes_cluster_idx ON player_activity_changes (cluster_id);

-- What one player counts for in the day rows, times `p_sign` (+1 for the row as it is now, -1 for what it was): one
-- first sighting on its first day (with its comebacks: the newest session starting 24, 168 or 720 hours or more after
-- the first) and one last sighting on its last day. The one definition the trigger, the removal and the recount use.
CREATE FUNCTION gsm_player_activity_of(p_first_seen timestamptz, p_last_seen timestamptz, p_last_joined_at timestamptz, p_sign integer)
RETURNS TABLE (day date, first_seen integer, last_seen integer, returned_1 integer, returned_7 integer, returned_30 integer)
LANGUAGE sql STABLE AS $$
  VALUES ((p_first_seen AT TIME ZONE 'UTC')::date, p_sign, 0,
          p_sign * (p_last_joined_at >= p_first_seen + interval '24 hours')::int,
          p_sign * (p_last_joined_at >= p_first_seen + interval '168 hours')::int,
          p_sign * (p_last_joined_at >= p_first_seen + interval '720 hours')::int),
         ((p_last_seen AT TIME ZONE 'UTC')::date, 0, p_sign, 0, 0, 0)
$$;

-- A player's contribution to the day rows (the sign: +1 for the row as it is now, -1 for what it was). The common
-- cases are decided first: a new player whose first and last sighting are the same day, a player whose last day moved
-- and nothing else, and a join that changed no day and no comeback (nothing to write).
CREATE FUNCTION gsm_player_activity_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_first date := (NEW.first_seen AT TIME ZONE 'UTC')::date;
  v_last date := (NEW.last_seen AT TIME ZONE 'UTC')::date;
  v_back boolean := NEW.last_joined_at >= NEW.first_seen + interval '24 hours';
BEGIN
  IF TG_OP = 'INSERT' AND v_first = v_last AND NOT v_back THEN
    INSERT INTO player_activity_changes (cluster_id, day, first_seen, last_seen, returned_1, returned_7, returned_30)
    VALUES (NEW.cluster_id, v_first, 1, 1, 0, 0, 0);
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.first_seen = NEW.first_seen
     AND (OLD.last_joined_at >= OLD.first_seen + interval '24 hours') = v_back
     AND (OLD.last_joined_at >= OLD.first_seen + interval '168 hours') = (NEW.last_joined_at >= NEW.first_seen + interval '168 hours')
     AND (OLD.last_joined_at >= OLD.first_seen + interval '720 hours') = (NEW.last_joined_at >= NEW.first_seen + interval '720 hours') THEN
    IF (OLD.last_seen AT TIME ZONE 'UTC')::date = v_last THEN
      RETURN NULL;
    END IF;
    INSERT INTO player_activity_changes (cluster_id, day, first_seen, last_seen, returned_1, returned_7, returned_30)
    VALUES (NEW.cluster_id, (OLD.last_seen AT TIME ZONE 'UTC')::date, 0, -1, 0, 0, 0), (NEW.cluster_id, v_last, 0, 1, 0, 0, 0);
    RETURN NULL;
  END IF;
  INSERT INTO player_activity_changes (cluster_id, day, first_seen, last_seen, returned_1, returned_7, returned_30)
  SELECT NEW.cluster_id, d.day, sum(d.first_seen), sum(d.last_seen), sum(d.returned_1), sum(d.returned_7), sum(d.returned_30)
    FROM (SELECT * FROM gsm_player_activity_of(NEW.first_seen, NEW.last_seen, NEW.last_joined_at, 1)
          UNION ALL
          SELECT * FROM gsm_player_activity_of(OLD.first_seen, OLD.last_seen, OLD.last_joined_at, -1) WHERE TG_OP = 'UPDATE') d
   GROUP BY d.day
  HAVING sum(d.first_seen) <> 0 OR sum(d.last_seen) <> 0 OR sum(d.returned_1) <> 0 OR sum(d.returned_7) <> 0 OR sum(d.returned_30) <> 0;
  RETURN NULL;
END
$$;
CREATE TRIGGER players_activity_added AFTER INSERT ON players
  FOR EACH ROW EXECUTE FUNCTION gsm_player_activity_changed();
-- The condition is short on purpose: Postgres parses a trigger's WHEN again for every UPDATE statement, and ingest
-- updates a player in a statement of its own. The function itself returns at once when no day or comeback changed.
CREATE TRIGGER players_activity_changed AFTER UPDATE OF first_seen, last_seen, last_joined_at ON players
  FOR EACH ROW WHEN (OLD.first_seen <> NEW.first_seen OR OLD.last_joined_at <> NEW.last_joined_at
                     OR (OLD.last_seen AT TIME ZONE 'UTC')::date <> (NEW.last_seen AT TIME ZONE 'UTC')::date)
  EXECUTE FUNCTION gsm_player_activity_changed();
-- Removed players take their sessions and presence with them (those tables have no foreign key to players: its check
-- was a statement of its own for every session opened and every presence recorded, a tenth of ingest; their rows are
-- only ever written by the functions below, for a player row they have just read or written). Players removed with
-- their cluster need nothing more; any other removal is subtracted from the day rows.
CREATE FUNCTION gsm_players_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM player_sessions WHERE player_id IN (SELECT id FROM removed);
  DELETE FROM player_presence WHERE player_id IN (SELECT id FROM removed);
  INSERT INTO player_activity_changes (cluster_id, day, first_seen, last_seen, returned_1, returned_7, returned_30)
  SELECT r.cluster_id, d.day, sum(d.first_seen), sum(d.last_seen), sum(d.returned_1), sum(d.returned_7), sum(d.returned_30)
    FROM removed r CROSS JOIN LATERAL gsm_player_activity_of(r.first_seen, r.last_seen, r.last_joined_at, -1) d
   WHERE EXISTS (SELECT 1 FROM clusters c WHERE c.id = r.cluster_id)
   GROUP BY r.cluster_id, d.day;
  RETURN NULL;
END
$$;
CREATE TRIGGER players_removed AFTER DELETE ON players REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION gsm_players_removed();
ALTER TABLE player_sessions DROP CONSTRAINT player_sessions_player_id_fkey;
ALTER TABLE player_presence DROP CONSTRAINT player_presence_player_id_fkey;

-- Moves the deltas into the day rows (answers how many were moved). One fold at a time; a reader adding up both
-- tables in one statement sees each delta once, before or after.
CREATE FUNCTION gsm_fold_player_activity() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_moved bigint;
  v_clusters uuid[];
  v_days date[];
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('gsm_fold_player_activity')) THEN
    RETURN 0;
  END IF;
  WITH moved AS (
    DELETE FROM player_activity_changes RETURNING *
  ), summed AS (
    SELECT m.cluster_id, m.day, sum(m.first_seen) AS first_seen, sum(m.last_seen) AS last_seen,
           sum(m.returned_1) AS returned_1, sum(m.returned_7) AS returned_7, sum(m.returned_30) AS returned_30, count(*) AS deltas
      FROM moved m GROUP BY m.cluster_id, m.day
  ), folded AS (
    INSERT INTO player_activity_days AS a (cluster_id, day, first_seen, last_seen, returned_1, returned_7, returned_30)
    SELECT s.cluster_id, s.day, s.first_seen, s.last_seen, s.returned_1, s.returned_7, s.returned_30
      -- Locked, so a cluster being deleted is waited for and then skipped (its deltas dropped), not an error.
      FROM summed s WHERE EXISTS (SELECT 1 FROM clusters c WHERE c.id = s.cluster_id FOR KEY SHARE)
    ON CONFLICT (cluster_id, day) DO UPDATE
       SET first_seen = a.first_seen + excluded.first_seen, last_seen = a.last_seen + excluded.last_seen,
           returned_1 = a.returned_1 + excluded.returned_1, returned_7 = a.returned_7 + excluded.returned_7,
           returned_30 = a.returned_30 + excluded.returned_30
  )
  SELECT coalesce(sum(deltas), 0), array_agg(cluster_id), array_agg(day) INTO v_moved, v_clusters, v_days FROM summed;
  -- Days every player has moved on from (only among the days just changed).
  IF v_moved > 0 THEN
    DELETE FROM player_activity_days a USING unnest(v_clusters, v_days) AS t (cluster_id, day)
     WHERE a.cluster_id = t.cluster_id AND a.day = t.day AND (a.first_seen, a.last_seen, a.returned_1, a.returned_7, a.returned_30) = (0, 0, 0, 0, 0);
  END IF;
  RETURN v_moved;
END
$$;

-- A cluster's day rows counted afresh from its players: what the trigger and the folds keep up, used to fill the rows
-- of the players already here (below) and after a bulk load that bypassed the trigger.
CREATE FUNCTION gsm_player_activity_recount(p_cluster uuid)
RETURNS TABLE (day date, first_seen bigint, last_seen bigint, returned_1 bigint, returned_7 bigint, returned_30 bigint)
LANGUAGE sql STABLE AS $$
  SELECT d.day, sum(d.first_seen), sum(d.last_seen), sum(d.returned_1), sum(d.returned_7), sum(d.returned_30)
    FROM players p CROSS JOIN LATERAL gsm_player_activity_of(p.first_seen, p.last_seen, p.last_joined_at, 1) d
   WHERE p.cluster_id = p_cluster
   GROUP BY d.day
$$;
INSERT INTO player_activity_days (cluster_id, day, first_seen, last_seen, returned_1, returned_7, returned_30)
SELECT c.id, r.* FROM clusters c CROSS JOIN LATERAL gsm_player_activity_recount(c.id) r;

DROP TRIGGER players_count_added ON players;
DROP TRIGGER players_count_removed ON players;
DROP FUNCTION gsm_count_players_added();
DROP FUNCTION gsm_count_players_removed();
DROP TABLE cluster_player_counts;

-- Each session's cluster is its player's (whose foreign key already removes it with the cluster); checking it on every
-- session opened only locked the cluster row once more per report.
ALTER TABLE player_sessions DROP CONSTRAINT player_sessions_cluster_id_fkey;

-- Closing one player's session and closing a whole server are two statements now: one statement serving both (with
-- "p_player IS NULL OR ...") could not keep a generic plan, so PL/pgSQL planned it again on every leave.
CREATE OR REPLACE FUNCTION gsm_close_sessions(p_server uuid, p_player uuid, p_at timestamptz, p_reported boolean DEFAULT true)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_sessions uuid[];
  v_ids uuid[];
  v_still_on uuid[];
BEGIN
  IF p_player IS NULL THEN
    SELECT array_agg(id) INTO v_sessions FROM player_sessions WHERE server_id = p_server AND left_at IS NULL;
  ELSE
    SELECT array_agg(id) INTO v_sessions FROM player_sessions WHERE server_id = p_server AND player_id = p_player AND left_at IS NULL;
  END IF;
  IF v_sessions IS NOT NULL THEN
    WITH ended AS (
      UPDATE player_sessions s SET left_at = greatest(p_at, s.joined_at)
       WHERE s.id = ANY (v_sessions)
      RETURNING s.player_id, s.left_at, extract(epoch FROM s.left_at - s.joined_at)::bigint AS seconds
    ), counted AS (
      -- The common case, one open session, ends here; players still on another server get their current server below.
      UPDATE players p SET playtime = p.playtime + e.seconds, last_seen = greatest(p.last_seen, e.left_at),
             open_sessions = greatest(p.open_sessions - 1, 0), updated_at = now(),
             current_server_id = CASE WHEN p.open_sessions <= 1 THEN NULL ELSE p.current_server_id END,
             current_joined_at = CASE WHEN p.open_sessions <= 1 THEN NULL ELSE p.current_joined_at END
        FROM ended e WHERE p.id = e.player_id
      RETURNING p.id, p.open_sessions > 0 AS still_on
    ), presence AS (
      INSERT INTO player_presence AS pp (player_id, server_id, last_event_at)
      SELECT e.player_id, p_server, e.left_at FROM ended e WHERE p_reported
      ON CONFLICT (player_id, server_id) DO UPDATE SET last_event_at = greatest(pp.last_event_at, excluded.last_event_at)
    )
    SELECT coalesce(array_agg(id), '{}'), coalesce(array_agg(id) FILTER (WHERE still_on), '{}') INTO v_ids, v_still_on FROM counted;
    IF cardinality(v_still_on) > 0 THEN
      UPDATE players p SET (current_server_id, current_joined_at) =
             (SELECT s.server_id, s.joined_at FROM player_sessions s
               WHERE s.player_id = p.id AND s.left_at IS NULL ORDER BY s.joined_at DESC, s.id DESC LIMIT 1)
       WHERE p.id = ANY (v_still_on);
    END IF;
  END IF;
  -- Closing one player's session leaves the server's count to the caller (batches count once at the end).
  IF p_player IS NULL THEN
    UPDATE servers SET players_online = 0,
           players_synced_at = CASE WHEN p_reported THEN greatest(players_synced_at, p_at) ELSE players_synced_at END
     WHERE id = p_server;
  END IF;
  RETURN coalesce(cardinality(v_ids), 0);
END
$$;

-- Ingest runs the same few statements over and over with different values. PL/pgSQL plans each statement afresh
-- ("custom" plans) as long as a generic plan looks costlier, which for statements taking arrays or several parameters
-- it always does; planning then cost more than running them (a fifth of the ingest profile). Their generic plans are
-- the index lookups the custom ones find. (The setting holds for the functions these call, too.)
ALTER FUNCTION gsm_close_sessions(uuid, uuid, timestamptz, boolean) SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION gsm_players_snapshot(uuid, jsonb, timestamptz) SET plan_cache_mode = force_generic_plan;

-- A join or leave on a server the caller has locked (FOR UPDATE) and read: its cluster, name and players_synced_at.
-- Answers the player's id when the report was applied, NULL when it was stale. Leaves servers.players_online to the
-- caller. A batch locks and reads its servers once, then applies its reports one by one through this.
CREATE FUNCTION gsm_apply_player_event(p_server uuid, p_cluster uuid, p_server_name text, p_synced timestamptz, p_kind text,
                                       p_steam_id text, p_username text, p_at timestamptz, p_ping integer)
RETURNS uuid LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_player uuid;
  v_username text;
  v_last timestamptz;
BEGIN
  IF p_cluster IS NULL OR (p_synced IS NOT NULL AND p_at <= p_synced) THEN
    RETURN NULL;
  END IF;
  -- The player's row stays locked to the end of the transaction (see gsm_open_session below).
  SELECT p.id, p.username, pp.last_event_at INTO v_player, v_username, v_last
    FROM players p LEFT JOIN player_presence pp ON pp.player_id = p.id AND pp.server_id = p_server
   WHERE p.cluster_id = p_cluster AND p.steam_id = p_steam_id
     FOR NO KEY UPDATE OF p;
  IF v_last IS NOT NULL AND p_at <= v_last THEN
    RETURN NULL;
  END IF;
  IF p_kind = 'join' THEN
    RETURN gsm_open_session(p_server, p_steam_id, p_username, p_at, p_ping, p_cluster, p_server_name, v_player);
  END IF;
  IF v_player IS NULL THEN
    RETURN NULL;
  END IF;
  -- Closing records the presence; a leave with no open session still counts as the latest word, so an older join
  -- arriving later stays ignored.
  IF gsm_close_sessions(p_server, v_player, p_at) = 0 THEN
    INSERT INTO player_presence AS pp (player_id, server_id, last_event_at) VALUES (v_player, p_server, p_at)
    ON CONFLICT (player_id, server_id) DO UPDATE SET last_event_at = greatest(pp.last_event_at, excluded.last_event_at);
  END IF;
  -- The name may have changed; last_seen moves only with a session that ended (a leave without one is no sign of play).
  IF v_username <> p_username THEN
    UPDATE players SET username = p_username, updated_at = now() WHERE id = v_player;
  END IF;
  RETURN v_player;
END
$$;

CREATE OR REPLACE FUNCTION gsm_player_event(p_server uuid, p_kind text, p_steam_id text, p_username text, p_at timestamptz, p_ping integer,
                                            p_count boolean DEFAULT true)
RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  v_server servers%ROWTYPE;
  v_player uuid;
BEGIN
  -- One report per server at a time: the row lock orders them against snapshots and status changes.
  SELECT * INTO v_server FROM servers WHERE id = p_server FOR UPDATE;
  v_player := gsm_apply_player_event(p_server, v_server.cluster_id, v_server.name, v_server.players_synced_at, p_kind,
                                     p_steam_id, p_username, p_at, p_ping);
  IF v_player IS NOT NULL AND p_count THEN
    UPDATE servers SET players_online = (SELECT count(*) FROM player_sessions WHERE server_id = p_server AND left_at IS NULL)
     WHERE id = p_server;
  END IF;
  RETURN v_player;
END
$$;

-- The batch: its servers are locked (in id order, so two batches never deadlock) and read once.
CREATE OR REPLACE FUNCTION gsm_player_events(p_events jsonb) RETURNS uuid[] LANGUAGE plpgsql AS $$
DECLARE
  v_ids uuid[] := '{}';
  v_event record;
BEGIN
  PERFORM 1 FROM servers WHERE id IN (SELECT DISTINCT (e->>'serverId')::uuid FROM jsonb_array_elements(p_events) e) ORDER BY id FOR UPDATE;
  FOR v_event IN
    SELECT (e->>'serverId')::uuid AS server_id, s.cluster_id, s.name, s.players_synced_at, e->>'kind' AS kind, e->>'steamId' AS steam_id,
           e->>'username' AS username, (e->>'at')::timestamptz AS at, (e->>'ping')::integer AS ping
      FROM jsonb_array_elements(p_events) WITH ORDINALITY AS r (e, n)
      LEFT JOIN servers s ON s.id = (e->>'serverId')::uuid
     ORDER BY n
  LOOP
    v_ids := array_append(v_ids, gsm_apply_player_event(v_event.server_id, v_event.cluster_id, v_event.name, v_event.players_synced_at,
                                                        v_event.kind, v_event.steam_id, v_event.username, v_event.at, v_event.ping));
  END LOOP;
  UPDATE servers sv SET players_online = (SELECT count(*) FROM player_sessions s WHERE s.server_id = sv.id AND s.left_at IS NULL)
   WHERE sv.id IN (SELECT DISTINCT (e->>'serverId')::uuid FROM jsonb_array_elements(p_events) e);
  RETURN v_ids;
END
$$;

-- A player row found by a report is locked (FOR NO KEY UPDATE: updates of it and reports about it queue, lookups
-- by its key do not) until the report's transaction ends. Without the foreign keys of player_sessions and
-- player_presence, this is what keeps a player deleted meanwhile from getting a session or a presence row: the
-- deletion waits for the report and its trigger then removes what the report wrote, or the report finds no player
-- and creates it afresh (a join) or ignores itself (a leave). The same lookups as in 000007, with the lock.
CREATE OR REPLACE FUNCTION gsm_open_session(p_server uuid, p_steam_id text, p_username text, p_at timestamptz, p_ping integer,
                                 p_cluster uuid DEFAULT NULL, p_server_name text DEFAULT NULL, p_player uuid DEFAULT NULL)
RETURNS uuid LANGUAGE plpgsql AS $$
-- Every write of a players row touches all its indexes (the columns written are indexed), so each case writes the
-- row once at most: a new player is inserted with its session's effects, a player who comes on is updated once, and
-- one already on (a snapshot) is written only when the name changed.
DECLARE
  v_cluster uuid := p_cluster;
  v_server_name text := p_server_name;
  v_player uuid := p_player;
  v_ping integer;
BEGIN
  IF v_cluster IS NULL THEN
    SELECT cluster_id, name INTO v_cluster, v_server_name FROM servers WHERE id = p_server;
  END IF;
  IF v_player IS NULL THEN
    SELECT id INTO v_player FROM players WHERE cluster_id = v_cluster AND steam_id = p_steam_id FOR NO KEY UPDATE;
  END IF;
  IF v_player IS NULL THEN
    INSERT INTO players (cluster_id, steam_id, username, uuid, first_seen, last_seen, last_joined_at, open_sessions, current_server_id, current_joined_at)
    VALUES (v_cluster, p_steam_id, p_username,
            CASE WHEN p_steam_id ~* '^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$' THEN lower(p_steam_id) END,
            p_at, p_at, p_at, 1, p_server, p_at)
    ON CONFLICT (cluster_id, steam_id) DO NOTHING
    RETURNING id INTO v_player;
    IF v_player IS NOT NULL THEN
      INSERT INTO player_sessions (player_id, cluster_id, server_id, server_name, joined_at, ping)
      VALUES (v_player, v_cluster, p_server, v_server_name, p_at, p_ping);
      INSERT INTO player_presence (player_id, server_id, last_event_at) VALUES (v_player, p_server, p_at);
      RETURN v_player;
    END IF;
    -- Created meanwhile by another transaction: go on as for a known player.
    SELECT id INTO v_player FROM players WHERE cluster_id = v_cluster AND steam_id = p_steam_id FOR NO KEY UPDATE;
  END IF;
  SELECT ping INTO v_ping FROM player_sessions WHERE server_id = p_server AND player_id = v_player AND left_at IS NULL;
  IF FOUND THEN
    IF p_ping IS NOT NULL AND p_ping IS DISTINCT FROM v_ping THEN
      UPDATE player_sessions SET ping = p_ping WHERE server_id = p_server AND player_id = v_player AND left_at IS NULL;
    END IF;
    UPDATE players SET username = p_username, updated_at = now() WHERE id = v_player AND username <> p_username;
  ELSE
    INSERT INTO player_sessions (player_id, cluster_id, server_id, server_name, joined_at, ping)
    VALUES (v_player, v_cluster, p_server, v_server_name, p_at, p_ping);
    UPDATE players SET username = p_username, first_seen = least(first_seen, p_at), last_seen = greatest(last_seen, p_at),
           open_sessions = open_sessions + 1, last_joined_at = greatest(last_joined_at, p_at), updated_at = now(),
           current_server_id = CASE WHEN current_joined_at IS NULL OR current_joined_at <= p_at THEN p_server ELSE current_server_id END,
           current_joined_at = CASE WHEN current_joined_at IS NULL OR current_joined_at <= p_at THEN p_at ELSE current_joined_at END
     WHERE id = v_player;
  END IF;
  INSERT INTO player_presence AS pp (player_id, server_id, last_event_at) VALUES (v_player, p_server, p_at)
  ON CONFLICT (player_id, server_id) DO UPDATE SET last_event_at = greatest(pp.last_event_at, excluded.last_event_at);
  RETURN v_player;
END
$$;
