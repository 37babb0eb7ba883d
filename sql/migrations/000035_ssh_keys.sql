-- SFTP (docs/sftp.md): users register SSH public keys on their account, and sign in to a server's files as
-- `<handle>.<server short id>`. The handle is the user's SFTP name: lower-case, unique, chosen for a new user from the
-- e-mail address (sql/functions/gsm_users_handle.sql), here for the users that already exist.
ALTER TABLE users ADD COLUMN handle text;

WITH bases AS (
  SELECT id,
         coalesce(nullif(left(regexp_replace(lower(split_part(email, '@', 1)), '[^a-z0-9]', '', 'g'), 24), ''), 'user') AS base,
         created_at
    FROM users
), numbered AS (
  SELECT id, base, row_number() OVER (PARTITION BY base ORDER BY created_at, id) AS n FROM bases
)
UPDATE users u
   SET handle = CASE WHEN n.n = 1 THEN n.base ELSE n.base || (n.n - 1)::text END
  FROM numbered n
 WHERE n.id = u.id;

-- A base that ends in digits can meet another's numbered form (`ann1` and the second `ann`): those take their id's start.
UPDATE users u
   SET handle = left(u.handle, 15) || substr(replace(u.id::text, '-', ''), 25, 8)
 WHERE EXISTS (SELECT 1 FROM users o WHERE o.handle = u.handle AND o.id < u.id);

ALTER TABLE users ALTER COLUMN handle SET NOT NULL;
ALTER TABLE users ADD CONSTRAINT users_handle_format CHECK (handle ~ '^[a-z0-9][a-z0-9_-]{0,31}$');
CREATE UNIQUE INDEX users_handle_key ON users (handle);

-- SSH public keys of a user (OpenSSH `authorized_keys` form): ed25519, ecdsa (nistp256/384/521) or rsa of 2048 bits
-- or more. `public_key` is the key's wire form (base64 of the blob), `fingerprint` its SHA256 as OpenSSH prints it.
CREATE TABLE ssh_keys (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  algorithm text NOT NULL,
  bits integer NOT NULL,
  public_key text NOT NULL,
  fingerprint text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE UNIQUE INDEX ssh_keys_user_fingerprint_key ON ssh_keys (user_id, fingerprint);
CREATE INDEX ssh_keys_fingerprint_idx ON ssh_keys (fingerprint);

-- The SFTP service of a machine's agent, as its agent reports it: the port and the host key's SHA256 fingerprint.
ALTER TABLE machines ADD COLUMN sftp_port integer CHECK (sftp_port BETWEEN 1 AND 65535);
ALTER TABLE machines ADD COLUMN sftp_host_key_fingerprint text;
