-- What of an agent's console output last reached the service (docs/agent-protocol.md, "Console output across reconnects"): the
-- agent process's run id and the number of the last console frame its connection delivered, written when the
-- connection ends. The next connection (on any orchestrator process) tells the agent, which sends again only what came
-- after it. Null until an agent that numbers its frames has connected.
ALTER TABLE machines ADD COLUMN console_run text, ADD COLUMN console_seen bigint;
