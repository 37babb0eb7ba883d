/**
 * One scheduled task: what it does and when, **Run now** (OWNER, ADMIN), and its run history: every run (the TASK_RUN
 * jobs of `GET /clusters/<id>/jobs?taskId=`), newest first, a page at a time, each with its outcome and what each step
 * did on each server (the run's `result.steps`).
 */
import { useEffect, useState } from 'preact/hooks';
import type { Schemas } from '../../../clients/typescript/src/client.ts';
import { all, api } from '../session.ts';
import { link, type PageProps } from '../nav.ts';
import { Action, can, formatTime, Notice, Pager, Show, Status, Table, useLoad } from '../ui.tsx';

type Task = Schemas['Task'];
type Job = Schemas['Job'];
type StepOutcome = {
  index: number;
  type: string;
  jobs: { serverId: string; jobId: string | null; status: string; error: { code: string; message: string } | null }[];
};

const RUNS_PER_PAGE = 20;
/** While a run on show is under way the list is read again this often (its outcome comes when it ends). */
const UNDERWAY_POLL_MS = 2_000;
const underway = (status: string) => status === 'QUEUED' || status === 'DISPATCHED' || status === 'RUNNING';

export function TaskPage({ cluster, id }: PageProps) {
  const taskId = id!;
  const task = useLoad(() => api.get<Task>(`/api/v1/tasks/${taskId}`), [taskId]);
  const servers = useLoad(() => all<Schemas['Server']>(`/api/v1/clusters/${cluster.id}/servers`), [cluster.id]);
  const [page, setPage] = useState(1);
  const runs = useLoad(
    () =>
      api.get<{ data: Job[]; meta: { totalPages: number; total?: number } }>(`/api/v1/clusters/${cluster.id}/jobs`, {
        taskId,
        type: 'TASK_RUN',
        limit: RUNS_PER_PAGE,
        page,
      }),
    [cluster.id, taskId, page],
  );
  const active = runs.data?.data.some((run) => underway(run.status)) ?? false;
  useEffect(() => {
    if (!active || runs.loading) return;
    const timer = setTimeout(() => (runs.reload(), task.reload()), UNDERWAY_POLL_MS);
    return () => clearTimeout(timer);
  }, [active, runs.loading, runs.reload]);
  const serverName = (serverId: string) => servers.data?.find((server) => server.id === serverId)?.name ?? serverId.slice(0, 8);
  // What this page offers depends on the role in the address's cluster: a task of another cluster is not this page's.
  if (task.data && task.data.clusterId !== cluster.id) return <Notice kind="error">This task is not in the cluster {cluster.name}.</Notice>;

  return (
    <Show loaded={task}>
      {(current) => (
        <section>
          <header class="page-head">
            <h1>{current.name}</h1>
            <a href={link('c', cluster.id, 'tasks')}>All tasks</a>
          </header>
          {current.description && <p>{current.description}</p>}
          <dl class="facts">
            <dt>Schedule</dt>
            <dd>
              <code>{current.schedule}</code> ({current.timezone})
            </dd>
            <dt>Next run</dt>
            <dd>{current.enabled ? formatTime(current.nextRunAt) : 'disabled'}</dd>
            <dt>Servers</dt>
            <dd>{current.serverIds.map(serverName).join(', ') || '—'}</dd>
            <dt>Steps</dt>
            <dd>
              <ol class="steps">
                {(current.steps as { type: string; command?: string; message?: string; delaySeconds: number }[]).map((step, index) => (
                  <li key={index}>
                    {step.type}
                    {step.command ? ` “${step.command}”` : ''}
                    {step.message ? ` “${step.message}”` : ''}
                    {step.delaySeconds ? ` after ${step.delaySeconds} s` : ''}
                  </li>
                ))}
              </ol>
            </dd>
          </dl>
          {can(cluster.role, 'manage') && (
            <p>
              <Action run={async () => (await api.post(`/api/v1/tasks/${taskId}/run`), page === 1 ? runs.reload() : setPage(1))}>Run now</Action>
            </p>
          )}
          <h2>Runs</h2>
          <Show loaded={runs}>
            {(answer) => (
              <>
                <Table
                  label="Runs"
                  rows={answer.data}
                  rowKey={(run) => run.id}
                  empty="Not run yet."
                  columns={[
                    { title: 'Started', cell: (run) => formatTime(run.startedAt ?? run.createdAt) },
                    { title: 'By', cell: (run) => (run.createdBy.kind === 'TASK' ? 'schedule' : 'run now') },
                    { title: 'Outcome', cell: (run) => <Status status={run.status} /> },
                    { title: 'Took', cell: (run) => took(run), class: 'number' },
                    { title: 'Steps', cell: (run) => <Steps run={run} serverName={serverName} /> },
                  ]}
                />
                <Pager page={page} pages={answer.meta.totalPages} go={setPage} />
              </>
            )}
          </Show>
        </section>
      )}
    </Show>
  );
}

function took(run: Job): string {
  if (!run.startedAt || !run.finishedAt) return '—';
  const seconds = Math.max(0, Math.round((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** What each step did on each server; the run's own error (why it failed, or ended) under them. */
function Steps({ run, serverName }: { run: Job; serverName: (id: string) => string }) {
  const steps = ((run.result as { steps?: StepOutcome[] } | null)?.steps ?? []) as StepOutcome[];
  const skipped = (run.params as { skippedServerIds?: string[] }).skippedServerIds ?? [];
  return (
    <div class="run-steps">
      {underway(run.status) && steps.length === 0 && <span class="muted">under way…</span>}
      {steps.length > 0 && (
        <ol class="steps">
          {steps.map((step) => (
            <li key={step.index} value={step.index + 1}>
              {step.type}:{' '}
              {step.jobs.length === 0
                ? 'no server'
                : step.jobs.map((child, at) => (
                    <span key={`${child.serverId}-${at}`} class="outcome">
                      {serverName(child.serverId)} <Status status={child.status} />
                      {child.error && <span class="muted"> {child.error.message}</span>}
                    </span>
                  ))}
            </li>
          ))}
        </ol>
      )}
      {skipped.length > 0 && <span class="muted">Left out (not online): {skipped.map(serverName).join(', ')}</span>}
      {run.error && <div class="field-error">{run.error.message}</div>}
    </div>
  );
}
