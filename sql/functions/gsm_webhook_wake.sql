-- A numbered event may be sent: the sequencer's announcement wakes the deliverers too, when a delivery is pending
-- (with no webhook, or none with work, every numbering would otherwise make every deliverer look for work in vain).
-- A delivery is written with its event, in the event's transaction: once the event is numbered, it is seen here.
CREATE OR REPLACE FUNCTION gsm_webhook_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM webhook_deliveries WHERE status = 'PENDING') THEN
    PERFORM pg_notify('gsm_webhooks', 'numbered');
  END IF;
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER event_positions_webhook_wake AFTER UPDATE ON event_positions FOR EACH STATEMENT EXECUTE FUNCTION gsm_webhook_wake();
