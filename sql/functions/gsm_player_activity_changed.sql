-- A player's contribution to the day rows (the sign: +1 for the row as it is now, -1 for what it was). The common
-- cases are decided first: a new player whose first and last sighting are the same day, a player whose last day moved
-- and nothing else, and a join that changed no day and no comeback (nothing to write).
CREATE OR REPLACE FUNCTION gsm_player_activity_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_first date := (NEW.first_seen AT TIME ZONE 'UTC')::date;
  v_last date := (NEW.last_seen AT TIME ZONE 'UTC')::date;
  v_back boolean := NEW.last_joined_at >= NEW.first_seen + interval '24 hours';
BEGIN
  IF TG_OP = 'INSERT' AND v_first = v_last AND NOT v_back THEN
    INSERT INTO player_activity_changes (cluster_id, day, first_seen, last_seen, returned_1, returned_7, returned_30)
    VALUES (NEW.cluster_id, v_first, 1, 1, 0, 0, 0);
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.first_seen = NEW.first_seen
     AND (OLD.last_joined_at >= OLD.first_seen + interval '24 hours') = v_back
     AND (OLD.last_joined_at >= OLD.first_seen + interval '168 hours') = (NEW.last_joined_at >= NEW.first_seen + interval '168 hours')
     AND (OLD.last_joined_at >= OLD.first_seen + interval '720 hours') = (NEW.last_joined_at >= NEW.first_seen + interval '720 hours') THEN
    IF (OLD.last_seen AT TIME ZONE 'UTC')::date = v_last THEN
      RETURN NULL;
    END IF;
    INSERT INTO player_activity_changes (cluster_id, day, first_seen, last_seen, returned_1, returned_7, returned_30)
    VALUES (NEW.cluster_id, (OLD.last_seen AT TIME ZONE 'UTC')::date, 0, -1, 0, 0, 0), (NEW.cluster_id, v_last, 0, 1, 0, 0, 0);
    RETURN NULL;
  END IF;
  INSERT INTO player_activity_changes (cluster_id, day, first_seen, last_seen, returned_1, returned_7, returned_30)
  SELECT NEW.cluster_id, d.day, sum(d.first_seen), sum(d.last_seen), sum(d.returned_1), sum(d.returned_7), sum(d.returned_30)
    FROM (SELECT * FROM gsm_player_activity_of(NEW.first_seen, NEW.last_seen, NEW.last_joined_at, 1)
          UNION ALL
          SELECT * FROM gsm_player_activity_of(OLD.first_seen, OLD.last_seen, OLD.last_joined_at, -1) WHERE TG_OP = 'UPDATE') d
   GROUP BY d.day
  HAVING sum(d.first_seen) <> 0 OR sum(d.last_seen) <> 0 OR sum(d.returned_1) <> 0 OR sum(d.returned_7) <> 0 OR sum(d.returned_30) <> 0;
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER players_activity_added AFTER INSERT ON players
  FOR EACH ROW EXECUTE FUNCTION gsm_player_activity_changed();
-- The condition is short on purpose: Postgres parses a trigger's WHEN again for every UPDATE statement, and ingest
-- updates a player in a statement of its own. The function itself returns at once when no day or comeback changed.
CREATE OR REPLACE TRIGGER players_activity_changed AFTER UPDATE OF first_seen, last_seen, last_joined_at ON players
  FOR EACH ROW WHEN (OLD.first_seen <> NEW.first_seen OR OLD.last_joined_at <> NEW.last_joined_at
                     OR (OLD.last_seen AT TIME ZONE 'UTC')::date <> (NEW.last_seen AT TIME ZONE 'UTC')::date)
  EXECUTE FUNCTION gsm_player_activity_changed();
