-- A retry with an Idempotency-Key looks for the job its first request accepted (a node may have died before storing
-- the answer): jobs are found by key. Only keyed jobs are indexed, so jobs without a key cost the index nothing.
CREATE INDEX jobs_idempotency_key_idx ON jobs (idempotency_key, created_by_id) WHERE idempotency_key IS NOT NULL;
