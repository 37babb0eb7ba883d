-- server.status events, written in the transaction that changes the server's status, with why (docs/servers.md).
CREATE OR REPLACE FUNCTION gsm_servers_status_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (cluster_id, type, server_id, data)
  VALUES (NEW.cluster_id, 'server.status', NEW.id, jsonb_build_object(
    'serverId', NEW.id, 'status', NEW.status, 'previous', OLD.status, 'reason', NEW.status_reason, 'exitCode', NEW.last_exit_code));
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER servers_status_event AFTER UPDATE OF status ON servers
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION gsm_servers_status_event();
