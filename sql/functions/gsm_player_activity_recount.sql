-- A cluster's day rows counted afresh from its players: what the trigger and the folds keep up, used to fill the rows
-- of the players already there when the rows were introduced (sql/migrations/000010) and after a bulk load that
-- bypassed the trigger.
CREATE OR REPLACE FUNCTION gsm_player_activity_recount(p_cluster uuid)
RETURNS TABLE (day date, first_seen bigint, last_seen bigint, returned_1 bigint, returned_7 bigint, returned_30 bigint)
LANGUAGE sql STABLE AS $$
  SELECT d.day, sum(d.first_seen), sum(d.last_seen), sum(d.returned_1), sum(d.returned_7), sum(d.returned_30)
    FROM players p CROSS JOIN LATERAL gsm_player_activity_of(p.first_seen, p.last_seen, p.last_joined_at, 1) d
   WHERE p.cluster_id = p_cluster
   GROUP BY d.day
$$;
