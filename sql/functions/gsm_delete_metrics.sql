-- A deleted server's or machine's metrics history goes with it (the partitioned metrics tables have no foreign keys),
-- whichever way the row is deleted, including with its cluster.
CREATE OR REPLACE FUNCTION gsm_delete_metrics() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'servers' THEN
    DELETE FROM server_metrics_minute WHERE server_id = OLD.id;
    DELETE FROM server_metrics_hour WHERE server_id = OLD.id;
  ELSE
    DELETE FROM machine_metrics_minute WHERE machine_id = OLD.id;
    DELETE FROM machine_metrics_hour WHERE machine_id = OLD.id;
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER servers_metrics_deleted AFTER DELETE ON servers FOR EACH ROW EXECUTE FUNCTION gsm_delete_metrics();
CREATE OR REPLACE TRIGGER machines_metrics_deleted AFTER DELETE ON machines FOR EACH ROW EXECUTE FUNCTION gsm_delete_metrics();
