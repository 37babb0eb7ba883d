-- History: the functions and triggers below are as this migration left them. Their current definitions are in
-- sql/functions/<function>.sql, applied after the migrations (docs/development.md#migrations).
-- A user API token acts in a cluster only while its user is a member there (docs/access.md). Its scope row for that
-- cluster used to survive the membership, so a member who was removed (or left) and was later invited again got the
-- old token's access back. The scope now ends with the membership, whichever way it ends (leave, removal, a deleted
-- cluster or user): a trigger, so no path that deletes a membership can forget it.
CREATE FUNCTION gsm_drop_token_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM api_token_clusters s
   USING api_tokens t
   WHERE s.token_id = t.id AND t.user_id = OLD.user_id AND s.cluster_id = OLD.cluster_id;
  RETURN NULL;
END $$;
CREATE TRIGGER cluster_members_drop_token_scope AFTER DELETE ON cluster_members
  FOR EACH ROW EXECUTE FUNCTION gsm_drop_token_scope();

-- Scope rows already left behind by memberships that ended before this migration.
DELETE FROM api_token_clusters s
 USING api_tokens t
 WHERE s.token_id = t.id
   AND NOT EXISTS (SELECT 1 FROM cluster_members m WHERE m.cluster_id = s.cluster_id AND m.user_id = t.user_id);
