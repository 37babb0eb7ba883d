/**
 * Transfers of a server to another machine (docs/transfers.md): the request body.
 */
import { z } from 'zod';
import { AppError } from './errors.ts';
import { id } from './http.ts';

const PORT_MESSAGE = 'ports are 1024..65535';
const port = z.int({ message: 'expected a whole number' }).min(1024, PORT_MESSAGE).max(65535, PORT_MESSAGE);

export const TRANSFER_PHASES = ['CHECK_SPACE', 'STOP', 'PACK', 'COPY', 'SWITCH', 'START', 'CLEAN_UP', 'ROLL_BACK', 'DONE', 'FAILED', 'CANCELLED'] as const;
export type TransferPhase = (typeof TRANSFER_PHASES)[number];
/** Phases before the switch: a cancel is still possible, and a failure rolls back to the source. */
export const BEFORE_SWITCH: ReadonlySet<TransferPhase> = new Set(['CHECK_SPACE', 'STOP', 'PACK', 'COPY']);

/** Bytes per second a transfer's copy may use at least (below this a transfer would take days). */
export const MIN_BANDWIDTH_LIMIT = 64 * 1024;

/** A live transfer (copy while the server runs, stop only for a final sync) is not built: asked for, it is a 400. */
export const LIVE_NOT_OFFERED =
  'live transfers (copying while the server runs, then a final sync) are not offered: the server is stopped for the whole copy; leave live out or false';

export const transferBody = z
  .object({
    machineId: id.meta({ description: 'The machine to move the server to: another machine of the server’s cluster.' }),
    allocations: z
      .record(z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, 'port names are lower-case letters, digits, _ and -, starting with a letter (at most 32)'), port)
      .refine((value) => Object.keys(value).length <= 19, 'at most 19 ports')
      .optional()
      .meta({
        description:
          'Ports on the target by name (`game`, `query`, `rcon`, extras); those not given are picked free from the target’s port ranges. They are reserved at once.',
        example: { game: 27015, query: 27016, rcon: 27017 },
      }),
    keepSource: z.boolean().default(false).meta({ description: 'Keep the server’s files on the source machine after the switch (default false).' }),
    includeBackups: z.boolean().default(true).meta({
      description:
        'Copy the server’s local backups to the target (default true); false: they are deleted at the switch (the job’s `params.backupsToDelete` lists them). Those on S3 are re-pointed either way.',
    }),
    bandwidthLimit: z
      .int()
      .min(MIN_BANDWIDTH_LIMIT, `at least ${MIN_BANDWIDTH_LIMIT} bytes per second`)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .meta({ description: 'Bytes per second the copy may use (default: no limit).' }),
    live: z
      .boolean()
      .optional()
      .refine((value) => value !== true, LIVE_NOT_OFFERED)
      .meta({ description: 'Not offered: `true` is refused (400). The server is stopped for the whole copy.' }),
  })
  .strict()
  .meta({ id: 'TransferRequest' });

/** The 409 of a power or file action while the server moves: it names the transfer's job. */
export const transferConflict = (jobId: string) =>
  new AppError(409, `The server is being transferred to another machine (job ${jobId}): wait for the transfer to end, or cancel it`, {
    extra: { code: 'TRANSFER_IN_PROGRESS', jobId },
  });
