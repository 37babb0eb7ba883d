-- SFTP access ends within seconds when a member is removed, a role lowered, a key deleted or the password changed
-- (password sessions; docs/sftp.md): each
-- such change tells the agents that may hold that user's open SFTP sessions to check them again now
-- (`sftp_recheck` on the agents' channel, delivered when the change commits). A trigger, so no path that ends a
-- membership (leave, removal, a deleted cluster or user) or deletes a key can forget it.
CREATE OR REPLACE FUNCTION gsm_sftp_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'cluster_members' THEN
    IF TG_OP = 'UPDATE' AND NEW.role = OLD.role THEN
      RETURN NULL;
    END IF;
    PERFORM pg_notify('gsm_agent', json_build_object('type', 'sftp_recheck', 'machineId', m.id, 'userId', OLD.user_id)::text)
       FROM machines m
      WHERE m.cluster_id = OLD.cluster_id AND m.status = 'ONLINE';
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('gsm_agent', json_build_object('type', 'sftp_recheck', 'machineId', m.id, 'userId', OLD.id)::text)
       FROM cluster_members cm
       JOIN machines m ON m.cluster_id = cm.cluster_id
      WHERE cm.user_id = OLD.id AND m.status = 'ONLINE';
  ELSE
    PERFORM pg_notify('gsm_agent', json_build_object('type', 'sftp_recheck', 'machineId', m.id, 'userId', OLD.user_id)::text)
       FROM cluster_members cm
       JOIN machines m ON m.cluster_id = cm.cluster_id
      WHERE cm.user_id = OLD.user_id AND m.status = 'ONLINE';
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER cluster_members_sftp_access AFTER UPDATE OF role OR DELETE ON cluster_members
  FOR EACH ROW EXECUTE FUNCTION gsm_sftp_access_changed();
CREATE OR REPLACE TRIGGER ssh_keys_sftp_access AFTER DELETE ON ssh_keys
  FOR EACH ROW EXECUTE FUNCTION gsm_sftp_access_changed();
CREATE OR REPLACE TRIGGER users_sftp_access AFTER UPDATE OF password_hash ON users
  FOR EACH ROW WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash) EXECUTE FUNCTION gsm_sftp_access_changed();
