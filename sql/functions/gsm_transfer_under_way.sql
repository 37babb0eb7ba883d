-- The job of the transfer of `p_server_id` under way (not ended), or null. VOLATILE on purpose: in READ COMMITTED each
-- call reads with a snapshot of its own, taken when it runs, not the calling statement's. A job's accepting UPDATE of
-- the server row that waited for a transfer's transaction (which locks and updates that row) re-checks its WHERE on the
-- row as that transaction left it, and this call then sees the transfer it committed; a subquery of the statement
-- would still read the statement's older snapshot and let the job through beside the transfer.
-- PL/pgSQL, not SQL: its query is planned once per connection, where a SQL function's body was parsed and planned
-- again in every statement that called it (twice in every job's accept).
CREATE OR REPLACE FUNCTION gsm_transfer_under_way(p_server_id uuid) RETURNS uuid LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RETURN (SELECT job_id FROM transfers WHERE server_id = p_server_id AND finished_at IS NULL LIMIT 1);
END
$$;
