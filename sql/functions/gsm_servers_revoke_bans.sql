-- A deleted server's own bans end with it (kept, revoked) and their expiry jobs go.
CREATE OR REPLACE FUNCTION gsm_servers_revoke_bans() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_ban uuid;
BEGIN
  FOR v_ban IN
    UPDATE bans SET revoked_at = now(), lifted_at = coalesce(lifted_at, now())
     WHERE server_id = OLD.id AND revoked_at IS NULL RETURNING id
  LOOP
    PERFORM graphile_worker.remove_job('ban:' || v_ban);
  END LOOP;
  RETURN OLD;
END
$$;
CREATE OR REPLACE TRIGGER servers_revoke_bans BEFORE DELETE ON servers FOR EACH ROW EXECUTE FUNCTION gsm_servers_revoke_bans();
