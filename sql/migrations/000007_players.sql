-- History: the functions and triggers below are as this migration left them. Their current definitions are in
-- sql/functions/<function>.sql, applied after the migrations (docs/development.md#migrations).
-- Players seen on a cluster's servers, their sessions, notes, purchases and bans (docs/api.md, issue 6).
--
-- Agent reports arrive at least once and possibly out of order, so ingest is done by the functions below, one call per
-- report, under these rules:
--   * a player's presence on a server remembers the time of the last join/leave applied; an older or equal report is
--     ignored (duplicates and reordering never open, close or count a session twice);
--   * a snapshot is the whole truth for its server at its time: it opens sessions for players it lists that are not
--     on, closes those that are on and not listed, and reports older than the newest snapshot are ignored;
--   * a server that leaves ONLINE (stops, crashes, its machine goes OFFLINE) or is deleted closes its open sessions.
-- `players.playtime` holds the seconds of closed sessions; open sessions add their elapsed time when read.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE players (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  steam_id text NOT NULL,
  username text NOT NULL,
  uuid text,
  discord_id text,
  flags text[] NOT NULL DEFAULT '{}',
  playtime bigint NOT NULL DEFAULT 0,
  first_seen timestamptz NOT NULL,
  last_seen timestamptz NOT NULL,
  -- When the newest session started: retention asks whether a player came back N days after the first one.
  last_joined_at timestamptz NOT NULL,
  -- The server of the newest open session; null when offline.
  current_server_id uuid REFERENCES servers (id) ON DELETE SET NULL,
  current_joined_at timestamptz,
  open_sessions integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT players_cluster_steam_id_key UNIQUE (cluster_id, steam_id)
);
-- One index per sort, read forwards or backwards (lists sort on the column, then id, in the same direction).
CREATE INDEX players_cluster_playtime_idx ON players (cluster_id, playtime, id);
CREATE INDEX players_cluster_last_seen_idx ON players (cluster_id, last_seen, id);
-- Covering last_joined_at too: the retention cohorts are read from this index alone.
CREATE INDEX players_cluster_first_seen_idx ON players (cluster_id, first_seen, id) INCLUDE (last_joined_at);
CREATE INDEX players_cluster_username_idx ON players (cluster_id, lower(username), id);
CREATE INDEX players_online_idx ON players (cluster_id, current_server_id) WHERE current_server_id IS NOT NULL;
-- Search matches the username or the platform id: one trigram index over both, joined by a character a search
-- term may not hold (control characters are refused), so a match never spans the two.
CREATE INDEX players_search_trgm_idx ON players USING gin ((lower(username) || E'\x01' || lower(steam_id)) gin_trgm_ops);

-- server_id and server_name are kept when the server is deleted: history outlives it.
CREATE TABLE player_sessions (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  player_id uuid NOT NULL REFERENCES players (id) ON DELETE CASCADE,
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  server_id uuid NOT NULL,
  server_name text NOT NULL,
  joined_at timestamptz NOT NULL,
  left_at timestamptz,
  ping integer,
  CONSTRAINT player_sessions_order CHECK (left_at IS NULL OR left_at >= joined_at)
);
CREATE INDEX player_sessions_player_idx ON player_sessions (player_id, joined_at DESC, id DESC);
CREATE INDEX player_sessions_server_player_idx ON player_sessions (server_id, player_id);
CREATE UNIQUE INDEX player_sessions_open_key ON player_sessions (server_id, player_id) WHERE left_at IS NULL;

-- The last join/leave applied per player and server (see the rules above).
CREATE TABLE player_presence (
  player_id uuid NOT NULL REFERENCES players (id) ON DELETE CASCADE,
  server_id uuid NOT NULL,
  last_event_at timestamptz NOT NULL,
  PRIMARY KEY (player_id, server_id)
);

ALTER TABLE servers ADD COLUMN players_synced_at timestamptz;

-- Players per cluster, kept by a trigger: an unfiltered list's total and the statistics' total without counting
-- a million rows. Spread over up to 256 rows per cluster by the writing backend, so concurrent ingest transactions adding
-- players do not queue on one row lock; the count is the sum.
CREATE TABLE cluster_player_counts (
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  shard smallint NOT NULL,
  players bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (cluster_id, shard)
);
-- Statement-level, from the transition table: one counter write per statement however many rows it adds (a row
-- updated again and again in one transaction gets slower each time).
CREATE FUNCTION gsm_count_players_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cluster_player_counts AS c (cluster_id, shard, players)
  SELECT cluster_id, pg_backend_pid() % 256, count(*) FROM added GROUP BY cluster_id
  ON CONFLICT (cluster_id, shard) DO UPDATE SET players = c.players + excluded.players;
  RETURN NULL;
END
$$;
CREATE FUNCTION gsm_count_players_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Any one row of the cluster takes the decrement (none left: the cluster itself is going).
  UPDATE cluster_player_counts c SET players = c.players - r.gone
    FROM (SELECT cluster_id, count(*) AS gone FROM removed GROUP BY cluster_id) r
   WHERE (c.cluster_id, c.shard) = (SELECT cluster_id, shard FROM cluster_player_counts WHERE cluster_id = r.cluster_id LIMIT 1);
  RETURN NULL;
END
$$;
CREATE TRIGGER players_count_added AFTER INSERT ON players REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION gsm_count_players_added();
CREATE TRIGGER players_count_removed AFTER DELETE ON players REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION gsm_count_players_removed();

CREATE TABLE player_notes (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  player_id uuid NOT NULL REFERENCES players (id) ON DELETE CASCADE,
  content text NOT NULL,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_notes_player_idx ON player_notes (player_id, created_at DESC, id DESC);

CREATE TABLE player_purchases (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  player_id uuid NOT NULL REFERENCES players (id) ON DELETE CASCADE,
  product_name text NOT NULL,
  amount numeric(20, 4) NOT NULL,
  currency text NOT NULL DEFAULT 'USD',
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_purchases_player_idx ON player_purchases (player_id, created_at DESC, id DESC);

CREATE TABLE bans (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  player_id uuid NOT NULL REFERENCES players (id) ON DELETE CASCADE,
  -- A server's deletion revokes its own bans first (servers_revoke_bans below); the rows stay as history.
  server_id uuid REFERENCES servers (id) ON DELETE SET NULL,
  reason text NOT NULL,
  cluster_wide boolean NOT NULL,
  expires_at timestamptz,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  revoked_by uuid,
  -- When the game bans were lifted (revoked, or expired and lifted by the expiry job).
  lifted_at timestamptz,
  CONSTRAINT bans_scope CHECK (cluster_wide OR server_id IS NOT NULL OR revoked_at IS NOT NULL)
);
CREATE INDEX bans_cluster_created_idx ON bans (cluster_id, created_at DESC, id DESC);
CREATE INDEX bans_player_active_idx ON bans (player_id) WHERE revoked_at IS NULL;

-- Closes open sessions: of one server (player NULL) or of one player on it, at `at`. Adds their time to playtime
-- and moves each player's current server to another open session, if any. Closing a whole server also marks the
-- time up to which it is known to be empty, so an older snapshot arriving late cannot reopen its sessions.
-- `p_reported` false: the service closes them itself (the agent went away, the server was deleted) at its own clock,
-- which must not make the agent's later reports (on the agent's clock) look stale.
CREATE FUNCTION gsm_close_sessions(p_server uuid, p_player uuid, p_at timestamptz, p_reported boolean DEFAULT true)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_ids uuid[];
  v_still_on uuid[];
BEGIN
  WITH ended AS (
    UPDATE player_sessions s SET left_at = greatest(p_at, s.joined_at)
     WHERE s.server_id = p_server AND s.left_at IS NULL AND (p_player IS NULL OR s.player_id = p_player)
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
  -- Closing one player's session leaves the server's count to the caller (batches count once at the end).
  IF p_player IS NULL THEN
    UPDATE servers SET players_online = 0,
           players_synced_at = CASE WHEN p_reported THEN greatest(players_synced_at, p_at) ELSE players_synced_at END
     WHERE id = p_server;
  END IF;
  RETURN cardinality(v_ids);
END
$$;

-- Opens a session unless one is open (then only its ping changes); creates or renames the player. Answers the
-- player's id.
-- `p_player`: the player's id when the caller has already looked it up (NULL: look it up, or create the player).
CREATE FUNCTION gsm_open_session(p_server uuid, p_steam_id text, p_username text, p_at timestamptz, p_ping integer,
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
    SELECT id INTO v_player FROM players WHERE cluster_id = v_cluster AND steam_id = p_steam_id;
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
    SELECT id INTO v_player FROM players WHERE cluster_id = v_cluster AND steam_id = p_steam_id;
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

-- player:join / player:leave. Answers the player's id when the report was applied, NULL when it was stale.
-- `p_count` false leaves servers.players_online to the caller (gsm_player_events counts once per batch).
CREATE FUNCTION gsm_player_event(p_server uuid, p_kind text, p_steam_id text, p_username text, p_at timestamptz, p_ping integer,
                                 p_count boolean DEFAULT true)
RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  v_cluster uuid;
  v_server_name text;
  v_synced timestamptz;
  v_player uuid;
  v_last timestamptz;
BEGIN
  -- One report per server at a time: the row lock orders them against snapshots and status changes.
  SELECT cluster_id, name, players_synced_at INTO v_cluster, v_server_name, v_synced FROM servers WHERE id = p_server FOR UPDATE;
  IF v_cluster IS NULL OR (v_synced IS NOT NULL AND p_at <= v_synced) THEN
    RETURN NULL;
  END IF;
  SELECT p.id, pp.last_event_at INTO v_player, v_last
    FROM players p LEFT JOIN player_presence pp ON pp.player_id = p.id AND pp.server_id = p_server
   WHERE p.cluster_id = v_cluster AND p.steam_id = p_steam_id;
  IF v_last IS NOT NULL AND p_at <= v_last THEN
    RETURN NULL;
  END IF;
  IF p_kind = 'join' THEN
    v_player := gsm_open_session(p_server, p_steam_id, p_username, p_at, p_ping, v_cluster, v_server_name, v_player);
  ELSIF v_player IS NOT NULL THEN
    -- Closing records the presence; a leave with no open session still counts as the latest word, so an older join
    -- arriving later stays ignored.
    IF gsm_close_sessions(p_server, v_player, p_at) = 0 THEN
      INSERT INTO player_presence AS pp (player_id, server_id, last_event_at) VALUES (v_player, p_server, p_at)
      ON CONFLICT (player_id, server_id) DO UPDATE SET last_event_at = greatest(pp.last_event_at, excluded.last_event_at);
    END IF;
    -- The name may have changed; last_seen moves only with a session that ended (a leave without one is no sign
    -- of play).
    UPDATE players SET username = p_username, updated_at = now() WHERE id = v_player AND username <> p_username;
  ELSE
    RETURN NULL;
  END IF;
  IF p_count THEN
    UPDATE servers SET players_online = (SELECT count(*) FROM player_sessions WHERE server_id = p_server AND left_at IS NULL)
     WHERE id = p_server;
  END IF;
  RETURN v_player;
END
$$;

-- Several joins and leaves in order (`p_events`: JSON array of { serverId, kind, steamId, username, at, ping? }), as
-- the gateway batches them under load. Answers, per event, what gsm_player_event answers.
CREATE FUNCTION gsm_player_events(p_events jsonb) RETURNS uuid[] LANGUAGE plpgsql AS $$
DECLARE
  v_ids uuid[] := '{}';
  v_event jsonb;
BEGIN
  FOR v_event IN SELECT * FROM jsonb_array_elements(p_events) LOOP
    v_ids := array_append(v_ids, gsm_player_event((v_event->>'serverId')::uuid, v_event->>'kind', v_event->>'steamId', v_event->>'username',
                                                  (v_event->>'at')::timestamptz, (v_event->>'ping')::integer, false));
  END LOOP;
  UPDATE servers sv SET players_online = (SELECT count(*) FROM player_sessions s WHERE s.server_id = sv.id AND s.left_at IS NULL)
   WHERE sv.id IN (SELECT DISTINCT (e->>'serverId')::uuid FROM jsonb_array_elements(p_events) e);
  RETURN v_ids;
END
$$;

-- players:snapshot: `p_players` is a JSON array of { steamId, username, ping? }. Answers the ids of the listed
-- players (empty when the snapshot was stale).
CREATE FUNCTION gsm_players_snapshot(p_server uuid, p_players jsonb, p_at timestamptz) RETURNS uuid[] LANGUAGE plpgsql AS $$
DECLARE
  v_cluster uuid;
  v_synced timestamptz;
  v_ids uuid[] := '{}';
  v_entry jsonb;
  v_player uuid;
BEGIN
  SELECT cluster_id, players_synced_at INTO v_cluster, v_synced FROM servers WHERE id = p_server FOR UPDATE;
  IF v_cluster IS NULL OR (v_synced IS NOT NULL AND p_at <= v_synced) THEN
    RETURN v_ids;
  END IF;
  -- Gone: open here and not listed — unless a join newer than the snapshot says otherwise.
  PERFORM gsm_close_sessions(p_server, s.player_id, p_at)
     FROM player_sessions s JOIN players p ON p.id = s.player_id
     LEFT JOIN player_presence pp ON pp.player_id = s.player_id AND pp.server_id = p_server
    WHERE s.server_id = p_server AND s.left_at IS NULL AND (pp.last_event_at IS NULL OR pp.last_event_at <= p_at)
      AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_players) e WHERE e->>'steamId' = p.steam_id);
  -- Listed: on — unless a leave newer than the snapshot says otherwise.
  FOR v_entry IN
    SELECT e FROM jsonb_array_elements(p_players) e
     WHERE NOT EXISTS (SELECT 1 FROM players p JOIN player_presence pp ON pp.player_id = p.id AND pp.server_id = p_server
                        WHERE p.cluster_id = v_cluster AND p.steam_id = e->>'steamId' AND pp.last_event_at > p_at)
  LOOP
    v_player := gsm_open_session(p_server, v_entry->>'steamId', v_entry->>'username', p_at, (v_entry->>'ping')::integer);
    v_ids := v_ids || v_player;
  END LOOP;
  UPDATE servers SET players_synced_at = p_at,
         players_online = (SELECT count(*) FROM player_sessions WHERE server_id = p_server AND left_at IS NULL)
   WHERE id = p_server;
  RETURN v_ids;
END
$$;

-- A server that is not ONLINE has nobody on it; nor has a deleted one.
CREATE FUNCTION gsm_servers_close_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM gsm_close_sessions(OLD.id, NULL, now(), false);
    RETURN NULL;
  END IF;
  -- UNKNOWN is the service's own word (the agent went away), not a report from the agent.
  PERFORM gsm_close_sessions(NEW.id, NULL, least(coalesce(NEW.last_status_at, now()), now()), NEW.status <> 'UNKNOWN');
  RETURN NULL;
END
$$;
CREATE TRIGGER servers_close_sessions AFTER UPDATE OF status ON servers
  FOR EACH ROW WHEN (NEW.status <> 'ONLINE' AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION gsm_servers_close_sessions();
CREATE TRIGGER servers_delete_close_sessions AFTER DELETE ON servers
  FOR EACH ROW EXECUTE FUNCTION gsm_servers_close_sessions();

-- A deleted server's own bans end with it (kept, revoked) and their expiry jobs go.
CREATE FUNCTION gsm_servers_revoke_bans() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_ban uuid;
BEGIN
  FOR v_ban IN
    UPDATE bans SET revoked_at = now(), lifted_at = coalesce(lifted_at, now())
     WHERE server_id = OLD.id AND revoked_at IS NULL RETURNING id
  LOOP
    PERFORM graphile_worker.remove_job('ban:' || v_ban);
  END LOOP;
  RETURN OLD;
END
$$;
CREATE TRIGGER servers_revoke_bans BEFORE DELETE ON servers FOR EACH ROW EXECUTE FUNCTION gsm_servers_revoke_bans();
