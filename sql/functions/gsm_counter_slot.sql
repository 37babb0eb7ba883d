-- The job counters' slot of this connection (gsm_jobs_count): its own, held for as long as it is open by a
-- session-level advisory lock (class 1735617891, "gsmc"; in pg_locks: classid 1735617891, objsubid 2, objid the slot),
-- so no two open connections of the database count in the same slot, whatever their pids. A connection takes the first
-- free slot from its pid's onwards when it first writes a job, and remembers it in the setting gsm.counter_slot. Each
-- count takes the remembered slot's lock again (a lock the session holds already is counted once more, at no cost to
-- others), so a slot whose lock was dropped by hand (pg_advisory_unlock_all) is not used unheld: taken meanwhile by
-- another connection, a free one is found. A transaction that rolls back takes the setting with it, not the lock: the
-- next count finds the lock this connection holds in pg_locks. The fold (orchestrator/jobs/counters.ts) moves the rows
-- of slots nobody holds.
CREATE OR REPLACE FUNCTION gsm_counter_slot() RETURNS smallint LANGUAGE plpgsql AS $$
DECLARE
  c_class constant integer := 1735617891;  -- COUNTER_SLOT_LOCK_CLASS in orchestrator/jobs/counters.ts
  v_kept text := current_setting('gsm.counter_slot', true);
  v_slot integer;
BEGIN
  IF v_kept IS NOT NULL AND v_kept <> '' AND pg_try_advisory_lock(c_class, v_kept::integer) THEN
    RETURN v_kept::smallint;
  END IF;
  IF v_kept IS NULL OR v_kept = '' THEN
    SELECT objid::integer INTO v_slot FROM pg_locks
     WHERE locktype = 'advisory' AND classid = c_class AND objsubid = 2 AND objid < 32768 AND pid = pg_backend_pid() AND granted
     ORDER BY objid LIMIT 1;
  END IF;
  IF v_slot IS NULL THEN
    FOR i IN 0..32767 LOOP
      IF pg_try_advisory_lock(c_class, (pg_backend_pid() + i) % 32768) THEN
        v_slot := (pg_backend_pid() + i) % 32768;
        EXIT;
      END IF;
    END LOOP;
  END IF;
  -- Every slot held (32,768 connections): share the pid's, as counting did before slots were held.
  v_slot := coalesce(v_slot, pg_backend_pid() % 32768);
  PERFORM set_config('gsm.counter_slot', v_slot::text, false);
  RETURN v_slot::smallint;
END $$;
