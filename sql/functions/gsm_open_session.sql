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
