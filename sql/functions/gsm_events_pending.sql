-- A pending event wakes the sequencers (one notification per transaction: Postgres folds identical ones).
CREATE OR REPLACE FUNCTION gsm_events_pending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gsm_events_pending', 'pending');
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER events_pending AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION gsm_events_pending();
