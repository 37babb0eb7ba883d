-- The principal cache's invalidations (docs/access.md, "The principal cache"): every change that affects who a bearer
-- token is or what its user may do in a cluster announces, in its own transaction, what it changed on `gsm_principal`:
--   t:<token id>  an API token revoked, expiring, renamed or re-scoped     s:<session id>  a session ended or extended
--   u:<user id>   a user's tier, e-mail, name or password, or the user     m:<cluster id>:<user id>  a membership
--   c:<cluster id> a deleted cluster                                      r:<server id>  a server deleted or moved
-- Each API process drops the entries named. The connection that made the change is also told, by a notice
-- (`gsm: principal changed`): the API process that made it waits for its own invalidations before its cache answers
-- again, and only then (a request that changed no principal leaves the cache on). `last_used_at` is not in the list:
-- recording a token's use changes nothing a request is decided on. Identical notifications of one transaction reach
-- listeners once.
CREATE OR REPLACE FUNCTION gsm_principal_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
  tag text;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  IF TG_TABLE_NAME = 'api_tokens' THEN tag := 't:' || changed.id;
  ELSIF TG_TABLE_NAME = 'api_token_clusters' THEN tag := 't:' || changed.token_id;
  ELSIF TG_TABLE_NAME = 'sessions' THEN tag := 's:' || changed.id;
  ELSIF TG_TABLE_NAME = 'users' THEN tag := 'u:' || changed.id;
  ELSIF TG_TABLE_NAME = 'cluster_members' THEN tag := 'm:' || changed.cluster_id || ':' || changed.user_id;
  ELSIF TG_TABLE_NAME = 'servers' THEN tag := 'r:' || changed.id;
  ELSE tag := 'c:' || changed.id;
  END IF;
  PERFORM pg_notify('gsm_principal', tag);
  RAISE NOTICE 'gsm: principal changed';
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER api_tokens_principal_changed AFTER UPDATE OF user_id, name, token_hash, expires_at OR DELETE ON api_tokens
  FOR EACH ROW EXECUTE FUNCTION gsm_principal_changed();
CREATE OR REPLACE TRIGGER api_token_clusters_principal_changed AFTER INSERT OR DELETE ON api_token_clusters
  FOR EACH ROW EXECUTE FUNCTION gsm_principal_changed();
CREATE OR REPLACE TRIGGER sessions_principal_changed AFTER UPDATE OF user_id, expires_at, revoked_at OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION gsm_principal_changed();
CREATE OR REPLACE TRIGGER users_principal_changed AFTER UPDATE OF email, display_name, tier, password_hash OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION gsm_principal_changed();
CREATE OR REPLACE TRIGGER cluster_members_principal_changed AFTER INSERT OR UPDATE OF role OR DELETE ON cluster_members
  FOR EACH ROW EXECUTE FUNCTION gsm_principal_changed();
CREATE OR REPLACE TRIGGER clusters_principal_changed AFTER DELETE ON clusters
  FOR EACH ROW EXECUTE FUNCTION gsm_principal_changed();
-- A server's cluster is cached for the requests naming the server: dropped when the server goes (or, by a hand's
-- UPDATE, changes cluster; the service never moves one).
CREATE OR REPLACE TRIGGER servers_principal_changed AFTER DELETE ON servers
  FOR EACH ROW EXECUTE FUNCTION gsm_principal_changed();
CREATE OR REPLACE TRIGGER servers_principal_moved AFTER UPDATE OF cluster_id ON servers
  FOR EACH ROW WHEN (OLD.cluster_id IS DISTINCT FROM NEW.cluster_id) EXECUTE FUNCTION gsm_principal_changed();
