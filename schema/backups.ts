/**
 * Schemas of backups (docs/installs-and-backups.md): an archive of a server's directory made by its agent, kept on
 * the machine or in the machine's S3-compatible storage.
 */
import { z } from 'zod';
import { enumFilter, name, paginationQuery, sortQuery, timestamp } from './http.ts';

export const BACKUP_STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const;
export const BACKUP_LOCATIONS = ['LOCAL', 'S3'] as const;

export const backup = z
  .object({
    id: z.string(),
    serverId: z.string(),
    clusterId: z.string(),
    jobId: z.string().meta({ description: 'The BACKUP job that makes it.' }),
    name: z.string(),
    status: z.enum(BACKUP_STATUSES),
    sizeBytes: z.number().nullable().meta({ description: 'Size of the archive (tar.gz), once completed.' }),
    sha256: z.string().nullable().meta({ description: 'SHA-256 of the archive (hex), checked again when it is restored.' }),
    consistent: z.boolean().nullable().meta({
      description: 'true: the server was stopped, or (MINECRAFT) flushed with saving paused while archived; false: archived while the game was writing.',
    }),
    location: z.enum(BACKUP_LOCATIONS).nullable().meta({ description: "LOCAL: on the machine; S3: in the machine's S3-compatible storage." }),
    error: z.object({ code: z.string(), message: z.string() }).nullable().meta({ description: 'Why it failed.' }),
    createdAt: timestamp,
    completedAt: timestamp.nullable(),
  })
  .meta({ id: 'Backup' });
export type Backup = z.infer<typeof backup>;

export const createBackupBody = z
  .object({
    name: name.optional().meta({ description: 'Default: `backup <date and time, UTC>`.' }),
    requireConsistent: z.boolean().optional().meta({
      description:
        'true: fail the backup rather than archive a running server that cannot be flushed (any running game but an ONLINE MINECRAFT server that answers `save-off`). Default false: such a backup completes with `consistent: false`, and its job’s `result.inconsistentReason` says why.',
    }),
  })
  .strict();

export const backupListQuery = z
  .object({ ...paginationQuery, sort: sortQuery(['createdAt'], '-createdAt'), status: enumFilter(BACKUP_STATUSES).optional() })
  .strict();
