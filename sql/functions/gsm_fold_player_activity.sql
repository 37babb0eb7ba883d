-- Moves the deltas into the day rows (answers how many were moved). One fold at a time; a reader adding up both
-- tables in one statement sees each delta once, before or after.
CREATE OR REPLACE FUNCTION gsm_fold_player_activity() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_moved bigint;
  v_clusters uuid[];
  v_days date[];
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('gsm_fold_player_activity')) THEN
    RETURN 0;
  END IF;
  WITH moved AS (
    DELETE FROM player_activity_changes RETURNING *
  ), summed AS (
    SELECT m.cluster_id, m.day, sum(m.first_seen) AS first_seen, sum(m.last_seen) AS last_seen,
           sum(m.returned_1) AS returned_1, sum(m.returned_7) AS returned_7, sum(m.returned_30) AS returned_30, count(*) AS deltas
      FROM moved m GROUP BY m.cluster_id, m.day
  ), folded AS (
    INSERT INTO player_activity_days AS a (cluster_id, day, first_seen, last_seen, returned_1, returned_7, returned_30)
    SELECT s.cluster_id, s.day, s.first_seen, s.last_seen, s.returned_1, s.returned_7, s.returned_30
      -- Locked, so a cluster being deleted is waited for and then skipped (its deltas dropped), not an error.
      FROM summed s WHERE EXISTS (SELECT 1 FROM clusters c WHERE c.id = s.cluster_id FOR KEY SHARE)
    ON CONFLICT (cluster_id, day) DO UPDATE
       SET first_seen = a.first_seen + excluded.first_seen, last_seen = a.last_seen + excluded.last_seen,
           returned_1 = a.returned_1 + excluded.returned_1, returned_7 = a.returned_7 + excluded.returned_7,
           returned_30 = a.returned_30 + excluded.returned_30
  )
  SELECT coalesce(sum(deltas), 0), array_agg(cluster_id), array_agg(day) INTO v_moved, v_clusters, v_days FROM summed;
  -- Days every player has moved on from (only among the days just changed).
  IF v_moved > 0 THEN
    DELETE FROM player_activity_days a USING unnest(v_clusters, v_days) AS t (cluster_id, day)
     WHERE a.cluster_id = t.cluster_id AND a.day = t.day AND (a.first_seen, a.last_seen, a.returned_1, a.returned_7, a.returned_30) = (0, 0, 0, 0, 0);
  END IF;
  RETURN v_moved;
END
$$;
