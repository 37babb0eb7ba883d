-- Servers deleted in the service, per machine: its agent removes a server's files only when told so explicitly
-- (servers:sync's `deleted`), never because a sync merely omits it (docs/agent.md#how-it-runs-a-game-server). Kept 90 days, so an
-- agent that was offline meanwhile still learns of the deletion.
CREATE TABLE deleted_servers (
  id uuid PRIMARY KEY,
  machine_id uuid NOT NULL REFERENCES machines (id) ON DELETE CASCADE,
  deleted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX deleted_servers_machine ON deleted_servers (machine_id, deleted_at);
