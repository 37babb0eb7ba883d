-- CUSTOM servers without a template (docs/servers.md#custom-servers): when they are ready, where console commands go
-- and how they stop. Null: the game's own behaviour. Their shape is checked by the API's schema; the agent gets them
-- with the server's configuration.
ALTER TABLE servers
  ADD COLUMN ready jsonb CONSTRAINT servers_ready_object CHECK (jsonb_typeof(ready) = 'object'),
  ADD COLUMN console_mode text CONSTRAINT servers_console_mode_check CHECK (console_mode IN ('RCON', 'STDIN', 'NONE')),
  ADD COLUMN stop jsonb CONSTRAINT servers_stop_object CHECK (jsonb_typeof(stop) = 'object');
