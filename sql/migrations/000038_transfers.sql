-- Transfers of a server to another machine (docs/transfers.md): a TRANSFER job that the service runs itself, its
-- durable state in a row of `transfers` (phase, what was copied, the archive's checksum), and the ports reserved on the
-- target until the switch.
ALTER TABLE jobs DROP CONSTRAINT jobs_type_check;
-- NOT VALID: jobs is big; every row there already passes (the list only grows). 000039 validates it.
ALTER TABLE jobs ADD CONSTRAINT jobs_type_check
  CHECK (type IN ('START', 'STOP', 'RESTART', 'KILL', 'RCON', 'KICK', 'BAN', 'UNBAN', 'BROADCAST', 'WIPE', 'TASK_RUN',
                  'INSTALL', 'UPDATE', 'BACKUP', 'RESTORE', 'FILE_COMPRESS', 'FILE_EXTRACT', 'FILE_PULL',
                  'TRANSFER')) NOT VALID;

CREATE TABLE transfers (
  job_id uuid PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
  server_id uuid NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  source_machine_id uuid NOT NULL REFERENCES machines (id) ON DELETE CASCADE,
  target_machine_id uuid NOT NULL REFERENCES machines (id) ON DELETE CASCADE,
  -- CHECK_SPACE, STOP, PACK, COPY, SWITCH, START, CLEAN_UP; ROLL_BACK after a failure or cancel before the switch;
  -- DONE, FAILED or CANCELLED at the end.
  phase text NOT NULL DEFAULT 'CHECK_SPACE'
    CHECK (phase IN ('CHECK_SPACE', 'STOP', 'PACK', 'COPY', 'SWITCH', 'START', 'CLEAN_UP', 'ROLL_BACK', 'DONE', 'FAILED', 'CANCELLED')),
  keep_source boolean NOT NULL DEFAULT false,
  include_backups boolean NOT NULL DEFAULT true,
  -- Bytes per second the copy may use (null: no limit).
  bandwidth_limit bigint CHECK (bandwidth_limit > 0),
  -- What the server was asked to do before the transfer stopped it: given back on the target (or the source on a roll back).
  desired_before text NOT NULL CHECK (desired_before IN ('RUNNING', 'STOPPED')),
  -- The ports it holds on the target after the switch: [{ name, port, protocol }].
  allocations jsonb NOT NULL,
  -- What is copied, in order: [{ key, kind, backupId?, sizeBytes, sha256 }], known once the source packed the server.
  items jsonb,
  -- Bytes of all items the target acknowledged (a resume starts from the target's own count of the current item).
  bytes_done bigint NOT NULL DEFAULT 0,
  bytes_total bigint,
  -- Each resume of the copy (after a crash or a reconnection): [{ phase, fromBytes, acknowledgedBefore, at }].
  resumes jsonb NOT NULL DEFAULT '[]',
  -- Why it failed or was rolled back ({ code, message }), and whether a cancel was asked for.
  error jsonb,
  cancel_requested_at timestamptz,
  -- The orchestrator process running it, and until when (a process that died leaves it to another after this).
  lease_owner text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX transfers_unfinished ON transfers (lease_until) WHERE finished_at IS NULL;
CREATE INDEX transfers_server ON transfers (server_id, created_at DESC);
-- One transfer at a time per server.
CREATE UNIQUE INDEX transfers_one_per_server ON transfers (server_id) WHERE finished_at IS NULL;

-- Ports reserved on a transfer's target until its switch (or its end): nobody else is given them meanwhile.
CREATE TABLE transfer_ports (
  machine_id uuid NOT NULL REFERENCES machines (id) ON DELETE CASCADE,
  port integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
  job_id uuid NOT NULL REFERENCES transfers (job_id) ON DELETE CASCADE,
  name text NOT NULL,
  PRIMARY KEY (machine_id, port)
);
CREATE INDEX transfer_ports_job ON transfer_ports (job_id);
