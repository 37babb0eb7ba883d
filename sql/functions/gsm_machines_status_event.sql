-- machine.status events, written in the transaction that changes the machine's status.
CREATE OR REPLACE FUNCTION gsm_machines_status_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (cluster_id, type, data)
  VALUES (NEW.cluster_id, 'machine.status', jsonb_build_object('machineId', NEW.id, 'status', NEW.status));
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER machines_status_event AFTER UPDATE OF status ON machines
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION gsm_machines_status_event();
