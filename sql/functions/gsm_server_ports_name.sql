-- A port claimed without a name is named after the server's seed port it is (game, query or rcon). The code of this
-- release always names its ports; the previous release (before named allocations, migration 000033) inserts
-- `(machine_id, port, server_id)` only, and keeps working on this schema during a rolling upgrade thanks to this
-- (docs/upgrades.md). A port that is none of the three stays unnamed and is refused by the NOT NULL.
CREATE OR REPLACE FUNCTION gsm_server_ports_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.name IS NULL THEN
    SELECT CASE NEW.port WHEN s.game_port THEN 'game' WHEN s.query_port THEN 'query' WHEN s.rcon_port THEN 'rcon' END
      INTO NEW.name FROM servers s WHERE s.id = NEW.server_id;
  END IF;
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER server_ports_name BEFORE INSERT ON server_ports
  FOR EACH ROW EXECUTE FUNCTION gsm_server_ports_name();
