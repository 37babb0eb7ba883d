-- A user API token acts in a cluster only while its user is a member there (docs/access.md). Its scope row for that
-- cluster used to survive the membership, so a member who was removed (or left) and was later invited again got the
-- old token's access back. The scope now ends with the membership, whichever way it ends (leave, removal, a deleted
-- cluster or user): a trigger, so no path that deletes a membership can forget it.
CREATE OR REPLACE FUNCTION gsm_drop_token_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM api_token_clusters s
   USING api_tokens t
   WHERE s.token_id = t.id AND t.user_id = OLD.user_id AND s.cluster_id = OLD.cluster_id;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER cluster_members_drop_token_scope AFTER DELETE ON cluster_members
  FOR EACH ROW EXECUTE FUNCTION gsm_drop_token_scope();
