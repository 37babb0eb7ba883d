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
