-- Fleet upgrades check that every server a machine ran was adopted by its new agent, not restarted
-- (docs/upgrades.md#upgrading-the-agents). The agent names the process it runs a server as (pid, the start time it
-- recorded when it started it, whether it adopted it from an earlier agent) with each status, and each status is stored
-- with the connection generation that reported it: a status from before the agent restarted is never taken for the new
-- agent's. Null for statuses of agents before this, and while no process runs. `IF NOT EXISTS`: a database that ran
-- this migration under another number (a development branch) has these columns already.
ALTER TABLE servers
  ADD COLUMN IF NOT EXISTS process_pid integer,
  ADD COLUMN IF NOT EXISTS process_started_at timestamptz,
  ADD COLUMN IF NOT EXISTS process_adopted boolean,
  ADD COLUMN IF NOT EXISTS status_generation bigint;

-- Per machine of a roll: its running servers' processes when its upgrade started (`[{ serverId, pid, startedAt }]`),
-- how many times the command was sent, and when its agent accepted it. An agent that accepted and came back on its old
-- version was rolled back: the roll does not send it the command again.
ALTER TABLE agent_upgrade_machines
  ADD COLUMN IF NOT EXISTS processes jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN IF NOT EXISTS sends integer NOT NULL DEFAULT 0,
  ADD COLUMN IF NOT EXISTS accepted_at timestamptz;
