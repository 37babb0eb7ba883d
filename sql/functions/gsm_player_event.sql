-- player:join / player:leave. Answers the player's id when the report was applied, NULL when it was stale.
-- `p_count` false leaves servers.players_online to the caller (gsm_player_events counts once per batch).
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
