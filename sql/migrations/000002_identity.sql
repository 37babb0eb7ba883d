-- Identity and access: users, sessions with rotating refresh tokens, user API tokens scoped to clusters, clusters,
-- their members and invitations, and the audit log.

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  email text NOT NULL,
  display_name text NOT NULL,
  password_hash text,                              -- null for accounts that only sign in through Steam or Discord
  steam_id text,
  discord_id text,
  tier text NOT NULL DEFAULT 'FREE' CHECK (tier IN ('FREE', 'PRO', 'ENTERPRISE')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE UNIQUE INDEX users_steam_id_key ON users (steam_id);
CREATE UNIQUE INDEX users_discord_id_key ON users (discord_id);

-- A sign-in. Access tokens name it (claim `sid`), so ending it ends them on the very next request.
CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_reason text,
  ip text,
  user_agent text
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

-- Single-use refresh tokens; `used_at` set on rotation. Presenting a used one again revokes its session.
CREATE TABLE refresh_tokens (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  token_hash bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE UNIQUE INDEX refresh_tokens_token_hash_key ON refresh_tokens (token_hash);
CREATE INDEX refresh_tokens_session_id_idx ON refresh_tokens (session_id);

CREATE TABLE clusters (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  name text NOT NULL,
  description text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE cluster_members (
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'MODERATOR', 'VIEWER')),
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (cluster_id, user_id)
);
CREATE INDEX cluster_members_user_id_idx ON cluster_members (user_id);

-- User API tokens (`gsm_live_…`), stored as SHA-256.
CREATE TABLE api_tokens (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  token_hash bytea NOT NULL,
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE UNIQUE INDEX api_tokens_token_hash_key ON api_tokens (token_hash);
CREATE INDEX api_tokens_user_id_idx ON api_tokens (user_id);

CREATE TABLE api_token_clusters (
  token_id uuid NOT NULL REFERENCES api_tokens (id) ON DELETE CASCADE,
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  PRIMARY KEY (token_id, cluster_id)
);
CREATE INDEX api_token_clusters_cluster_id_idx ON api_token_clusters (cluster_id);

CREATE TABLE invitations (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'MODERATOR', 'VIEWER')),
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'ACCEPTED', 'REVOKED')),
  token_hash bytea NOT NULL,
  expires_at timestamptz NOT NULL,
  invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
  accepted_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX invitations_token_hash_key ON invitations (token_hash);
CREATE INDEX invitations_cluster_id_idx ON invitations (cluster_id);
-- One open invitation per address and cluster.
CREATE UNIQUE INDEX invitations_pending_email_key ON invitations (cluster_id, lower(email)) WHERE status = 'PENDING';

-- Kept when its cluster is deleted (no foreign key): the history outlives the record.
CREATE TABLE audit_log (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  cluster_id uuid,
  actor_kind text NOT NULL CHECK (actor_kind IN ('USER', 'TOKEN', 'TASK', 'SYSTEM', 'ANONYMOUS')),
  actor_id uuid,
  actor_name text,
  action text NOT NULL,
  target_type text NOT NULL,
  target_id uuid,
  ip text,
  request_id text,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_cluster_at_idx ON audit_log (cluster_id, at DESC, id DESC);
