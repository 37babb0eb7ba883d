-- Closing one player's session and closing a whole server are two statements now: one statement serving both (with
-- "p_player IS NULL OR ...") could not keep a generic plan, so PL/pgSQL planned it again on every leave.
CREATE OR REPLACE FUNCTION gsm_close_sessions(p_server uuid, p_player uuid, p_at timestamptz, p_reported boolean DEFAULT true)
RETURNS integer LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
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
