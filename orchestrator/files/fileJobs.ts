/**
 * The file jobs (docs/files.md#archives-and-pulls): FILE_COMPRESS and FILE_EXTRACT, run by the server's agent in its
 * file helper as the server's account, accepted like the other server jobs (the job and its audit entry, with the
 * paths and sizes, in one transaction; 202 with the job, whose `progress` the agent reports).
 */
import type { CommonQueryMethods } from 'slonik';
import type { Job } from '../../schema/jobs.ts';
import type { Origin } from '../../schema/origin.ts';
import { acceptServerJob } from '../jobs/serverJobs.ts';
import { auditFileChange, type FileServer } from './serverFiles.ts';

export type FileJobRequest =
  | { type: 'FILE_COMPRESS'; params: { sources: string[]; archive: string } }
  | { type: 'FILE_EXTRACT'; params: { archive: string; destination: string; maxBytes: number; maxEntries: number }; archiveSize: number };

const AUDIT = { FILE_COMPRESS: 'server.file_compress', FILE_EXTRACT: 'server.file_extract' } as const;

export async function requestFileJob(tx: CommonQueryMethods, origin: Origin, server: FileServer, request: FileJobRequest): Promise<Job> {
  const created = await acceptServerJob(tx, origin, {
    serverId: server.id,
    clusterId: server.clusterId,
    type: request.type,
    params: request.params,
    desired: null,
    requireRunning: false,
  });
  const details =
    request.type === 'FILE_COMPRESS'
      ? { path: `/${request.params.archive}`, sources: request.params.sources.map((source) => `/${source}`), jobId: created.id }
      : { path: `/${request.params.archive}`, size: request.archiveSize, to: `/${request.params.destination}`, jobId: created.id };
  await auditFileChange(tx, origin, server, AUDIT[request.type], details);
  return created;
}
