-- A server that is not ONLINE (or UNRESPONSIVE: its process runs, its players may still be on) has nobody on it; nor
-- has a deleted one.
CREATE OR REPLACE FUNCTION gsm_servers_close_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM gsm_close_sessions(OLD.id, NULL, now(), false);
    RETURN NULL;
  END IF;
  -- UNKNOWN is the service's own word (the agent went away), not a report from the agent.
  PERFORM gsm_close_sessions(NEW.id, NULL, least(coalesce(NEW.last_status_at, now()), now()), NEW.status <> 'UNKNOWN');
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER servers_close_sessions AFTER UPDATE OF status ON servers
  FOR EACH ROW WHEN (NEW.status NOT IN ('ONLINE', 'UNRESPONSIVE') AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION gsm_servers_close_sessions();
CREATE OR REPLACE TRIGGER servers_delete_close_sessions AFTER DELETE ON servers
  FOR EACH ROW EXECUTE FUNCTION gsm_servers_close_sessions();
