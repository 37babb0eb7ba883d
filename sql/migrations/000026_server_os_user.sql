-- The OS account a server runs as, as its agent reported it with its status (docs/servers.md); null until it does.
ALTER TABLE servers ADD COLUMN os_user text CONSTRAINT servers_os_user_length CHECK (length(os_user) BETWEEN 1 AND 64);
