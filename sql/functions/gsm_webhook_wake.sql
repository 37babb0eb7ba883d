-- A numbered event may be sent: the sequencer's announcement wakes the deliverers too.
CREATE OR REPLACE FUNCTION gsm_webhook_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gsm_webhooks', 'numbered');
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER event_positions_webhook_wake AFTER UPDATE ON event_positions FOR EACH STATEMENT EXECUTE FUNCTION gsm_webhook_wake();
