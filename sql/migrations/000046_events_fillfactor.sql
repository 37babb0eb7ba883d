-- Room on each page of events for the numbered version of each event: half the page, so that every event of a page
-- fits there twice. Every event is written twice: inserted unnumbered, then given its position by the sequencer
-- (gsm_sequence_events). The position is indexed, so that second write is a new row version with new index entries
-- whatever the room; but when the new version fits on the same page as the old, the WAL carries only the bytes that
-- changed (the position) instead of the whole event, its data included: over the 4 a.m. storm (docs/tasks.md) the
-- numbering's WAL fell from 122 MB to 46 MB. Events are numbered within a second of being written, so the room is used
-- at once, and freed again as the old versions are pruned. Changing a table's storage parameter does not rewrite the
-- table: pages written from now on keep the room.
ALTER TABLE events SET (fillfactor = 50);
