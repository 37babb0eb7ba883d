-- Scheduled tasks: a cron schedule in a time zone, target servers and ordered steps. Each occurrence becomes a
-- TASK_RUN job whose child jobs carry the task's id; the pending occurrence is one graphile-worker job keyed
-- `task:<id>`, added, replaced or removed in the same transaction as the task row.

CREATE TABLE tasks (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text,
  -- Five-field cron, evaluated in `timezone` (IANA).
  schedule text NOT NULL,
  timezone text NOT NULL DEFAULT 'UTC',
  -- [{ type, command?, message?, delaySeconds, continueOnFailure }], validated by the API (schema/tasks.ts).
  steps jsonb NOT NULL CHECK (jsonb_typeof(steps) = 'array' AND jsonb_array_length(steps) BETWEEN 1 AND 20),
  only_when_online boolean NOT NULL DEFAULT false,
  enabled boolean NOT NULL DEFAULT true,
  -- The pending occurrence; null while disabled. The graphile-worker job `task:<id>` is scheduled at this instant.
  next_run_at timestamptz,
  last_run_at timestamptz,
  last_run_status text CHECK (last_run_status IN ('RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED', 'MISSED', 'SKIPPED')),
  -- The TASK_RUN whose status last_run_status is (null after a MISSED or SKIPPED occurrence): only that run, or the
  -- cancel of that run, writes its outcome here, so a run that ends late never overwrites a newer run's status.
  last_run_job_id uuid,
  -- Occurrences that passed (SKIPPED, or MISSED) while the run last_run_job_id was under way, [{ scheduledAt, status }]:
  -- they leave its RUNNING status alone and are listed (the first 100) in that run's result (`skippedOccurrences`)
  -- when it ends.
  skipped_occurrences jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (enabled OR next_run_at IS NULL)
);
CREATE INDEX tasks_cluster_id_idx ON tasks (cluster_id, created_at, id);

-- A task's target servers, in the order given. Deleting a server drops it from every task.
CREATE TABLE task_servers (
  task_id uuid NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  server_id uuid NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
  position integer NOT NULL,
  PRIMARY KEY (task_id, server_id)
);
CREATE INDEX task_servers_server_id_idx ON task_servers (server_id);

-- Progress of a TASK_RUN job, so that a run survives the orchestrator process that executes it: the executor holds a
-- lease it renews; when the lease lapses (the process died) the run's graphile-worker job resumes it elsewhere.
-- jobs.task_id has no foreign key on purpose: a run's history outlives a deleted task.
CREATE TABLE task_runs (
  job_id uuid PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
  task_id uuid NOT NULL,
  -- What the run does, fixed when it starts (editing the task does not change a run under way).
  steps jsonb NOT NULL,
  server_ids uuid[] NOT NULL,
  only_when_online boolean NOT NULL,
  -- The step to run next (or whose child jobs are awaited), and when it is due (its delay after the previous one).
  step_index integer NOT NULL DEFAULT 0,
  step_due_at timestamptz NOT NULL DEFAULT now(),
  -- Child jobs of the current step once created; null before.
  step_jobs jsonb,
  -- Per finished step: [{ type, jobs: [{ serverId, jobId, status, error }], skipped: [serverId] }].
  outcomes jsonb NOT NULL DEFAULT '[]',
  lease_owner uuid,
  lease_until timestamptz
);
CREATE INDEX task_runs_task_id_idx ON task_runs (task_id);
