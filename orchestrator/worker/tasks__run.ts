/**
 * Executes or resumes a TASK_RUN (graphile-worker task `tasks__run`, payload `{ jobId }`, job key
 * `task-run:<jobId>`): takes the run's lease and hands it to the process's executor (tasks/runner.ts), which drives it
 * in the background, so the job ends at once and a run waiting out its steps holds no slot. The lease lets another
 * orchestrator go on with a run whose process died; on a graceful shutdown the executor hands its runs over.
 */
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { RunExecutor } from '../tasks/runner.ts';

const payload = z.object({ jobId: z.uuid() });

export function runTask(runs: RunExecutor): Task {
  return async (raw) => {
    const { jobId } = payload.parse(raw);
    await runs.take(jobId);
  };
}
