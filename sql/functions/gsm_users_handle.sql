-- Every user has a handle, the first part of its SFTP user name (`<handle>.<server short id>`, docs/sftp.md):
-- chosen here from the e-mail address when none is given, whichever path creates the user (registration, an
-- invitation, Steam or Discord, `npm run admin`). The lock makes concurrent registrations choose one at a time, so
-- two never pick the same name and one fails on the unique index.
CREATE OR REPLACE FUNCTION gsm_users_handle() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_base text;
  v_candidate text;
  v_n integer := 0;
BEGIN
  IF NEW.handle IS NOT NULL THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('gsm_users_handle'));
  v_base := coalesce(nullif(left(regexp_replace(lower(split_part(NEW.email, '@', 1)), '[^a-z0-9]', '', 'g'), 24), ''), 'user');
  v_candidate := v_base;
  WHILE EXISTS (SELECT 1 FROM users WHERE handle = v_candidate) LOOP
    v_n := v_n + 1;
    v_candidate := v_base || v_n::text;
  END LOOP;
  NEW.handle := v_candidate;
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER users_handle BEFORE INSERT ON users
  FOR EACH ROW EXECUTE FUNCTION gsm_users_handle();
