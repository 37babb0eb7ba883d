-- Resource limits of a game server (docs/servers.md), sent to its agent in servers:sync: memory in MiB and CPU in
-- percent of one core (150 = one and a half cores); null is no limit. The agent enforces them (docs/agent.md).
ALTER TABLE servers
  ADD COLUMN memory_limit_mb integer
    CONSTRAINT servers_memory_limit_mb_range CHECK (memory_limit_mb BETWEEN 64 AND 1048576),
  ADD COLUMN cpu_limit_percent integer
    CONSTRAINT servers_cpu_limit_percent_range CHECK (cpu_limit_percent BETWEEN 1 AND 102400);
