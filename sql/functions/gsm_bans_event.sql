-- ban.created and ban.revoked events, written in the transaction that creates or revokes the ban (docs/events.md).
CREATE OR REPLACE FUNCTION gsm_bans_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (cluster_id, type, server_id, data)
  VALUES (NEW.cluster_id, CASE WHEN TG_OP = 'INSERT' THEN 'ban.created' ELSE 'ban.revoked' END, NEW.server_id, gsm_ban_record(NEW));
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER bans_created_event AFTER INSERT ON bans FOR EACH ROW EXECUTE FUNCTION gsm_bans_event();
CREATE OR REPLACE TRIGGER bans_revoked_event AFTER UPDATE OF revoked_at ON bans
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL) EXECUTE FUNCTION gsm_bans_event();
