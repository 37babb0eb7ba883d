-- player.left events, once per statement (ingest closes many sessions at once).
CREATE OR REPLACE FUNCTION gsm_sessions_left_event() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE OR REPLACE TRIGGER sessions_left_event AFTER UPDATE ON player_sessions REFERENCING OLD TABLE AS before NEW TABLE AS ended
  FOR EACH STATEMENT EXECUTE FUNCTION gsm_sessions_left_event();
