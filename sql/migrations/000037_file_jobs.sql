-- Server files, continued (docs/files.md#archives-and-pulls): compressing, extracting and pulling a URL are jobs with
-- progress, like installs and backups; a cluster's default deny list applies to the servers whose template has none.
ALTER TABLE jobs DROP CONSTRAINT jobs_type_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_type_check
  CHECK (type IN ('START', 'STOP', 'RESTART', 'KILL', 'RCON', 'KICK', 'BAN', 'UNBAN', 'BROADCAST', 'WIPE', 'TASK_RUN',
                  'INSTALL', 'UPDATE', 'BACKUP', 'RESTORE', 'FILE_COMPRESS', 'FILE_EXTRACT', 'FILE_PULL')) NOT VALID;
ALTER TABLE jobs VALIDATE CONSTRAINT jobs_type_check;

-- gitignore-style patterns (at most 256): null or empty, nothing denied beyond the templates' own lists.
ALTER TABLE clusters ADD COLUMN file_deny_list text[] CONSTRAINT clusters_file_deny_list_size CHECK (cardinality(file_deny_list) <= 256);
