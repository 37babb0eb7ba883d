-- Room on each page of events for the numbered version of each event: half the page, so that nearly every event of a
-- page fits there twice (the numbered version is 8 bytes longer: a page filled to the brim may send its last one to
-- another page). Every event is written twice: inserted unnumbered, then given its position by the sequencer
-- (gsm_sequence_events). The position is indexed, so that second write is a new row version with new index entries
-- whatever the room; but when the new version fits on the same page as the old, the WAL carries only the bytes that
-- changed (the position) instead of the whole event, its data included (with wal_level below logical): over the 4 a.m.
-- storm (docs/tasks.md) the numbering's WAL fell from 122–125 MB to 46 MB. Changing a table's storage parameter does
-- not rewrite the table, and its lock (SHARE UPDATE EXCLUSIVE) lets reads and writes go on; it waits only for a VACUUM
-- or a CREATE INDEX CONCURRENTLY of the table under way (docs/upgrades.md#lock-time-outs).
ALTER TABLE events SET (fillfactor = 50);
