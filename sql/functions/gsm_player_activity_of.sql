-- What one player counts for in the day rows, times `p_sign` (+1 for the row as it is now, -1 for what it was): one
-- first sighting on its first day (with its comebacks: the newest session starting 24, 168 or 720 hours or more after
-- the first) and one last sighting on its last day. The one definition the trigger, the removal and the recount use.
CREATE OR REPLACE FUNCTION gsm_player_activity_of(p_first_seen timestamptz, p_last_seen timestamptz, p_last_joined_at timestamptz, p_sign integer)
RETURNS TABLE (day date, first_seen integer, last_seen integer, returned_1 integer, returned_7 integer, returned_30 integer)
LANGUAGE sql STABLE AS $$
  VALUES ((p_first_seen AT TIME ZONE 'UTC')::date, p_sign, 0,
          p_sign * (p_last_joined_at >= p_first_seen + interval '24 hours')::int,
          p_sign * (p_last_joined_at >= p_first_seen + interval '168 hours')::int,
          p_sign * (p_last_joined_at >= p_first_seen + interval '720 hours')::int),
         ((p_last_seen AT TIME ZONE 'UTC')::date, 0, p_sign, 0, 0, 0)
$$;
