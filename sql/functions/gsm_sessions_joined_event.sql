-- Joins and leaves, once per statement (ingest writes many sessions at once).
CREATE OR REPLACE FUNCTION gsm_sessions_joined_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (cluster_id, type, server_id, at, data)
  SELECT s.cluster_id, 'player.joined', s.server_id, clock_timestamp(),
         jsonb_build_object('playerId', p.id, 'serverId', s.server_id, 'username', p.username, 'steamId', p.steam_id)
    FROM added s JOIN players p ON p.id = s.player_id
   ORDER BY s.joined_at, s.id;
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER sessions_joined_event AFTER INSERT ON player_sessions REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION gsm_sessions_joined_event();
