-- Each new event becomes a delivery for every enabled webhook of its cluster that subscribes to its type; the
-- deliverers are woken (one notification per transaction: Postgres folds identical ones).
CREATE OR REPLACE FUNCTION gsm_webhook_fanout() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_deliveries (webhook_id, event_id, event_type)
  SELECT w.id, NEW.id, NEW.type FROM webhooks w
   WHERE w.cluster_id = NEW.cluster_id AND w.enabled AND (NEW.type = ANY (w.events) OR '*' = ANY (w.events))
  ON CONFLICT DO NOTHING;
  IF FOUND THEN
    PERFORM pg_notify('gsm_webhooks', 'pending');
  END IF;
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER events_webhook_fanout AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION gsm_webhook_fanout();
