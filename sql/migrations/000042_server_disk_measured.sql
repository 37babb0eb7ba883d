-- The size of a server's directory as its agent last measured it (docs/transfers.md): kept when the agent goes away
-- (its live stats are cleared then), so a transfer of a stopped server, or of one whose machine is away, is checked
-- against the room on the target with what is known of its size. Null until first measured.
ALTER TABLE servers ADD COLUMN disk_bytes_measured bigint;
UPDATE servers SET disk_bytes_measured = (stats ->> 'diskBytes')::bigint WHERE stats ? 'diskBytes';
