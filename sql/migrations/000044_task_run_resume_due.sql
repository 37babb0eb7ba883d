-- When a run's graphile-worker job (`task-run:<jobId>`, the one that resumes it if its orchestrator dies) is due, as it
-- was last scheduled: a lease renewal moves the job only when it would otherwise fall due within a renewal or two of
-- the lease's end (orchestrator/tasks/runner.ts), instead of rescheduling every held run's job every 5 s. Null: not
-- known (a run from before this column), so the next renewal moves it.
ALTER TABLE task_runs ADD COLUMN resume_due_at timestamptz;
