-- The Job record gains its progress.
CREATE OR REPLACE FUNCTION gsm_job_record(j jobs) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', j.id, 'clusterId', j.cluster_id, 'serverId', j.server_id, 'machineId', j.machine_id, 'playerId', j.player_id,
    'taskId', j.task_id, 'type', j.type, 'status', j.status, 'params', j.params, 'result', j.result, 'error', j.error,
    'progress', j.progress,
    'attempts', j.attempts, 'createdBy', jsonb_build_object('kind', j.created_by_kind, 'id', j.created_by_id),
    'idempotencyKey', j.idempotency_key, 'createdAt', gsm_iso(j.created_at), 'dispatchedAt', gsm_iso(j.dispatched_at),
    'startedAt', gsm_iso(j.started_at), 'finishedAt', gsm_iso(j.finished_at), 'expiresAt', gsm_iso(j.expires_at))
$$;
