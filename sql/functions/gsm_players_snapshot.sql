-- players:snapshot: `p_players` is a JSON array of { steamId, username, ping? }. Answers the ids of the listed
-- players (empty when the snapshot was stale).
CREATE OR REPLACE FUNCTION gsm_players_snapshot(p_server uuid, p_players jsonb, p_at timestamptz) RETURNS uuid[] LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
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
