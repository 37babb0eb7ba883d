-- Room on each page of task_runs for the next version of a run's row. A run's row is rewritten every few seconds while
-- it lasts (its lease renewed every 5 s, its step advanced, its child jobs recorded), and none of those columns is
-- indexed: with free space on the page the new version stays there (a HOT update), so no index entry is added and the
-- WAL carries only the bytes that changed (with wal_level below logical). Measured in the 4 a.m. storm (docs/tasks.md):
-- the lease renewals' WAL fell from 90 MB to 34 MB. Changing a table's storage parameter does not rewrite it (pages
-- written from now on keep the room), and its lock (SHARE UPDATE EXCLUSIVE) lets reads and writes go on.
ALTER TABLE task_runs SET (fillfactor = 50);
