-- Timestamps in events are written as the API writes them: ISO 8601 UTC with milliseconds.
CREATE OR REPLACE FUNCTION gsm_iso(p timestamptz) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_char(p AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;
