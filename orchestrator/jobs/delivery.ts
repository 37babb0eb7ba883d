/**
 * Delivery of a job to the agent of its machine: the ack window, the announcement, the job message as the gateway
 * reads it back, and the expiry of one job. The job message is defined once, in schema/agentEvents.ts: built here in
 * SQL from the job's row (JOB_EVENT_JSON), it is validated against `jobWireEvent` (`jobEvent` with any type: the agent
 * decides which types it runs) wherever the gateway takes it, announced or read back.
 *
 * The connection lives on whichever orchestrator process the agent is connected to, so delivery is announced through
 * Postgres NOTIFY; that process sends the job and waits ACK_WINDOW_MS for the agent's ack, which marks it DISPATCHED
 * (reports.ts). The first announcement goes out in the statement that accepts the job (store.ts, serverJobs.ts:
 * ANNOUNCE_NEW_JOB), which also sets the job's first delivery check at the end of the ack window; from then on the
 * delivery sweep (deliverySweep.ts) announces it again or expires it.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { jobWireEvent, type JobWireEvent } from '../../schema/agentEvents.ts';
import { AGENT_CHANNEL, notifyAgent } from '../gateway/notifications.ts';

/**
 * The acknowledgement window: how long the agent has to acknowledge a job it is sent (the gateway's wait for the
 * ack), and so when a job's delivery is first checked by the sweep after it was accepted.
 */
export const ACK_WINDOW_MS = 5_000;
/** How often a job that is with its agent but not finished is announced again. */
export const RECHECK_MS = 30_000;

/**
 * The announcement carries the job itself when its params are at most this long (NOTIFY payloads stop at 8000 bytes),
 * so the gateway sends it without reading it back; a longer one is read by the gateway.
 */
const ANNOUNCED_PARAMS_MAX_BYTES = 6_000;

/** When a new job's delivery is first checked: the end of the ack window (null: not dispatched, a TASK_RUN). */
export const firstCheckAt = (dispatched: boolean) =>
  sql.fragment`CASE WHEN ${dispatched}::boolean THEN now() + make_interval(secs => ${ACK_WINDOW_MS / 1000}) END`;

/**
 * The job message of the job row `j`, as JSON: the fields of schema/agentEvents.ts `jobEvent`, its deadline the job's
 * `expiresAt` (test/gateway/jobs.test.ts checks every path that sends it against the schema).
 */
const JOB_EVENT_JSON = sql.fragment`(jsonb_build_object(
  'jobId', j.id, 'type', j.type, 'serverId', j.server_id, 'params', j.params,
  'deadline', to_char(j.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  || CASE WHEN j.dispatched_at IS NULL THEN '{}'::jsonb
          ELSE jsonb_build_object('acceptedAgoMs', greatest(0, floor(extract(epoch FROM clock_timestamp() - j.dispatched_at) * 1000))::bigint) END)`;

/**
 * Announce: a select-list item announcing the new job `j` (a CTE over the inserted row) to the gateway of its
 * machine, so the first delivery goes out as the statement's transaction commits. The announcement carries the job
 * message, so the gateway need not read the job back (unless its params are long).
 */
export const ANNOUNCE_NEW_JOB = sql.fragment`
  CASE WHEN j.next_check_at IS NOT NULL AND j.machine_id IS NOT NULL THEN pg_notify(${AGENT_CHANNEL}, json_build_object(
    'type', 'job_dispatch', 'machineId', j.machine_id, 'jobId', j.id,
    'job', CASE WHEN octet_length(j.params::text) <= ${ANNOUNCED_PARAMS_MAX_BYTES} THEN ${JOB_EVENT_JSON} END)::text) END AS "announced"`;

/** Announce again, one job (without its content: the gateway reads it back). */
export const announceJob = (connection: CommonQueryMethods, machineId: string, jobId: string): Promise<void> =>
  notifyAgent(connection, { type: 'job_dispatch', machineId, jobId });

const agentJobRow = z.object({ job: z.unknown(), cancelRequested: z.boolean() });
/** A job message to send, and whether a cancel was asked for meanwhile. */
export type AgentJobRow = { job: JobWireEvent; cancelRequested: boolean };
/** A job whose row cannot make a job message (`jobWireEvent`): it was ended FAILED (UNDELIVERABLE) with this reason. */
export type UndeliverableJob = { undeliverable: string };

/**
 * The job message of a job of this machine that has not ended, and whether a cancel was asked for meanwhile; null
 * when there is none. A row that cannot make a valid message would fail the same way at every announcement until it
 * expired: it ends at once, FAILED with the code UNDELIVERABLE and the reason (answered, for the gateway to log).
 */
export async function jobForAgent(connection: CommonQueryMethods, machineId: string, jobId: string): Promise<AgentJobRow | UndeliverableJob | null> {
  const row = await connection.maybeOne(sql.type(agentJobRow)`
    SELECT ${JOB_EVENT_JSON} AS job, j.cancel_requested_at IS NOT NULL AS "cancelRequested" FROM jobs j
     WHERE j.id = ${jobId} AND j.machine_id = ${machineId} AND j.status IN ('QUEUED', 'DISPATCHED', 'RUNNING')`);
  if (!row) return null;
  const parsed = jobWireEvent.safeParse(row.job);
  if (parsed.success) return { job: parsed.data, cancelRequested: row.cancelRequested };
  const reason = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(job)'}: ${issue.message}`)
    .join('; ');
  await failUndeliverableJob(connection, jobId, `the service cannot send this job to its agent (${reason})`);
  return { undeliverable: reason };
}

/** Fail, one job that has not ended and that no agent can be sent: its row does not make a valid job message. */
async function failUndeliverableJob(connection: CommonQueryMethods, jobId: string, message: string): Promise<void> {
  await connection.query(sql.unsafe`
    UPDATE jobs SET status = 'FAILED', finished_at = now(), next_check_at = NULL, error = ${sql.jsonb({ code: 'UNDELIVERABLE', message })}
     WHERE id = ${jobId} AND status IN ('QUEUED', 'DISPATCHED', 'RUNNING')`);
}

/** The machine's jobs that have not ended nor expired, oldest first (sent when its agent connects). */
export const pendingJobIds = (connection: CommonQueryMethods, machineId: string): Promise<readonly string[]> =>
  connection.anyFirst(sql.type(z.object({ id: z.string() }))`
    SELECT id FROM jobs
     WHERE machine_id = ${machineId} AND status IN ('QUEUED', 'DISPATCHED', 'RUNNING') AND expires_at > now()
     ORDER BY created_at, id`);

/** Expire, one job that has not ended (the graphile-worker task of jobs accepted before the sweep). */
export async function expireJob(connection: CommonQueryMethods, jobId: string, message: string): Promise<void> {
  await connection.query(sql.unsafe`
    UPDATE jobs SET status = 'EXPIRED', finished_at = now(), error = ${sql.jsonb({ code: 'EXPIRED', message })}
     WHERE id = ${jobId} AND status IN ('QUEUED', 'DISPATCHED', 'RUNNING')`);
}

/**
 * Moves the server's jobs of `types` still QUEUED for machine `from` to machine `to` and announces each there (a
 * transfer's switch: they were never delivered to the old machine). Answers the ids moved.
 */
export async function moveQueuedJobs(
  connection: CommonQueryMethods,
  input: { serverId: string; from: string; to: string; types: readonly string[] },
): Promise<readonly string[]> {
  const moved = await connection.anyFirst(sql.type(z.object({ id: z.string() }))`
    UPDATE jobs SET machine_id = ${input.to}
     WHERE server_id = ${input.serverId} AND machine_id = ${input.from} AND status = 'QUEUED'
       AND type = ANY(${sql.array([...input.types], 'text')})
    RETURNING id`);
  for (const id of moved) await announceJob(connection, input.to, id);
  return moved;
}
