-- Job delivery without a graphile-worker job per job. The job row itself carries when its delivery is next checked;
-- every orchestrator process sweeps the due ones (orchestrator/tasks/jobs__dispatch.ts): announces a job again with
-- back-off while its agent has not acknowledged it, reminds the agent of a job it holds, and expires a job past
-- `expires_at`. The row is durable with the accept, so a job is still swept if the orchestrator dies right after it.
-- Jobs accepted before this migration keep their graphile-worker jobs (the task still runs them).

-- When the sweep next looks at the job; null: nobody delivers it (a job the orchestrator runs itself, TASK_RUN).
ALTER TABLE jobs ADD COLUMN next_check_at timestamptz;
-- How many times the sweep has announced it (the back-off exponent).
ALTER TABLE jobs ADD COLUMN delivery_checks integer NOT NULL DEFAULT 0;

-- The sweep's scan: only jobs that have not ended, ordered by when they are due.
CREATE INDEX jobs_next_check_idx ON jobs (next_check_at)
  WHERE next_check_at IS NOT NULL AND status IN ('QUEUED', 'DISPATCHED', 'RUNNING');
