-- Server files (docs/files.md): the audit log's entries say what a file change touched (path, size), and the last 20
-- versions of every text file (≤ 1 MiB) written through the API or SFTP are kept as the config history.
ALTER TABLE audit_log ADD COLUMN details jsonb;

CREATE TABLE file_versions (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  server_id uuid NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
  path text NOT NULL CHECK (length(path) BETWEEN 1 AND 3072),
  content text NOT NULL CHECK (octet_length(content) <= 1048576),
  size integer NOT NULL,
  sha256 text NOT NULL,
  -- Who wrote it: a user (API or SFTP), a token, the service.
  actor_kind text NOT NULL,
  actor_id text,
  actor_name text,
  via text NOT NULL CHECK (via IN ('api', 'sftp', 'restore')),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX file_versions_path ON file_versions (server_id, path, created_at DESC, id DESC);

-- Resumable uploads (docs/files.md#resumable-uploads): the bytes wait in a file beside the target in the server's
-- directory (its size is the upload's offset); this row says where and how large it is to become.
CREATE TABLE file_uploads (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  server_id uuid NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
  path text NOT NULL CHECK (length(path) BETWEEN 1 AND 3072),
  part_path text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  if_match text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX file_uploads_server ON file_uploads (server_id, created_at);
