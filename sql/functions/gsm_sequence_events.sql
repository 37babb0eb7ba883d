-- Numbers up to p_limit committed, unnumbered events after the highest position given; answers how many. Announces
-- the highest position on `gsm_events` so every API node reads the new events once.
CREATE OR REPLACE FUNCTION gsm_sequence_events(p_limit integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_base bigint;
  v_count integer;
BEGIN
  SELECT last_position INTO v_base FROM event_positions FOR UPDATE;
  WITH pending AS (
    SELECT id, row_number() OVER (ORDER BY at, id) AS n FROM events WHERE position IS NULL ORDER BY at, id LIMIT p_limit
  )
  UPDATE events e SET position = v_base + pending.n FROM pending WHERE e.id = pending.id;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  IF v_count > 0 THEN
    UPDATE event_positions SET last_position = v_base + v_count;
    PERFORM pg_notify('gsm_events', (v_base + v_count)::text);
  END IF;
  RETURN v_count;
END
$$;
