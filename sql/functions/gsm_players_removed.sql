-- Removed players take their sessions and presence with them (those tables have no foreign key to players: its check
-- was a statement of its own for every session opened and every presence recorded, a tenth of ingest; their rows are
-- only ever written by the ingest functions (gsm_apply_player_event, gsm_players_snapshot and the ones they call), for a
-- player row they have just read or written). Players removed with their cluster need nothing more; any other removal
-- is subtracted from the day rows.
CREATE OR REPLACE FUNCTION gsm_players_removed() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE OR REPLACE TRIGGER players_removed AFTER DELETE ON players REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION gsm_players_removed();
