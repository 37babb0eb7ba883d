-- The latest CPU and memory sample of each server as its agent reported it ({ cpuPercent, memoryBytes, at }), shown
-- on the Server record; written at most every few seconds per server (orchestrator/live/statsWriter.ts).
ALTER TABLE servers ADD COLUMN stats jsonb;
