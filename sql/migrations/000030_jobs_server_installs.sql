-- Start and Restart of a server never installed look up its latest INSTALL or UPDATE job (orchestrator/jobs/serverJobs.ts):
-- an index of just those, newest first, so that lookup reads one row however many jobs the server has run.
CREATE INDEX jobs_server_installs_idx ON jobs (server_id, created_at DESC, id DESC) WHERE type IN ('INSTALL', 'UPDATE');
