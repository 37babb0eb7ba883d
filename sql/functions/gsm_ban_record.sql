-- The Ban record as the API answers it (orchestrator/players/bans.ts, BAN_COLUMNS).
CREATE OR REPLACE FUNCTION gsm_ban_record(b bans) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', b.id, 'playerId', b.player_id, 'clusterId', b.cluster_id, 'serverId', b.server_id, 'reason', b.reason,
    'clusterWide', b.cluster_wide, 'expiresAt', gsm_iso(b.expires_at), 'createdBy', b.created_by,
    'createdAt', gsm_iso(b.created_at), 'revokedAt', gsm_iso(b.revoked_at),
    'active', b.revoked_at IS NULL AND (b.expires_at IS NULL OR b.expires_at > now()))
$$;
