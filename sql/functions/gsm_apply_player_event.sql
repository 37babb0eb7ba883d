-- A join or leave on a server the caller has locked (FOR UPDATE) and read: its cluster, name and players_synced_at.
-- Answers the player's id when the report was applied, NULL when it was stale. Leaves servers.players_online to the
-- caller. A batch locks and reads its servers once, then applies its reports one by one through this.
CREATE OR REPLACE FUNCTION gsm_apply_player_event(p_server uuid, p_cluster uuid, p_server_name text, p_synced timestamptz, p_kind text,
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
