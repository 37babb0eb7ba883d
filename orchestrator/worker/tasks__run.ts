/**
 * Executes or resumes a TASK_RUN (graphile-worker task `tasks__run`, payload `{ jobId }`, job key
 * `task-run:<jobId>`); see tasks/runner.ts for the lease that lets another orchestrator go on with a run whose
 * process died. Stops promptly on a graceful shutdown, handing the run over.
 */
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { executeRun, type RunnerDeps } from '../tasks/runner.ts';

const payload = z.object({ jobId: z.uuid() });

export function runTask(deps: RunnerDeps): Task {
  return async (raw, helpers) => {
    const { jobId } = payload.parse(raw);
    await executeRun(deps, jobId, helpers.abortSignal);
  };
}
