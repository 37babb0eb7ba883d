/**
 * The file jobs an agent runs (docs/files.md#archives-and-pulls): FILE_COMPRESS and FILE_EXTRACT, in the server's file
 * helper (as its account), with progress. A refusal of the helper (a link in the archive, a limit, no space) fails the
 * job with the helper's code (LINK_REFUSED, INVALID_PATH, TOO_LARGE, NO_SPACE…) and its message.
 */
import { FileOpError } from './fileHelper.ts';
import type { FileSessions } from './fileSessions.ts';
import { JobError, type AgentJob, type Progress } from '../jobs/jobRunner.ts';

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

export async function runFileJob(files: FileSessions, job: AgentJob, signal: AbortSignal, progress: Progress): Promise<Record<string, unknown>> {
  const params = job.params;
  const report = (done: number, total: number | null, message: string) =>
    progress(total ? Math.min(100, Math.floor((done / Math.max(total, 1)) * 100)) : null, message);
  try {
    const helper = await files.helperFor(job.serverId ?? '');
    if (job.type === 'FILE_COMPRESS') return await helper.compress(strings(params.sources), String(params.archive ?? ''), { signal, progress: report });
    return await helper.extract(
      String(params.archive ?? ''),
      String(params.destination ?? ''),
      { maxBytes: Number(params.maxBytes), maxEntries: Number(params.maxEntries) },
      { signal, progress: report },
    );
  } catch (error) {
    if (signal.aborted) throw new JobError('CANCELLED', 'cancelled');
    if (error instanceof FileOpError) throw new JobError(error.code, error.message);
    throw error;
  }
}
