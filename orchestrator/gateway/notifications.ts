/**
 * Changes the gateway must act on, sent through Postgres NOTIFY inside the transaction that makes them, so every
 * orchestrator process hears of them exactly when they commit: a machine's servers changed (send `servers:sync`), or
 * its agent token was rotated or the machine removed (close its connection), a job is to be delivered or cancelled.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { agentUpgradeEvent, jobWireEvent } from '../../schema/agentEvents.ts';

export const AGENT_CHANNEL = 'gsm_agent';

export const agentNotification = z.object({
  type: z.enum(['servers_changed', 'token_rotated', 'machine_removed', 'job_dispatch', 'job_cancel', 'session_replaced', 'sftp_recheck', 'agent_upgrade']),
  machineId: z.string(),
  /** With job_dispatch and job_cancel. */
  jobId: z.string().optional(),
  /**
   * With a job_dispatch sent as the job is accepted (jobs/delivery.ts, ANNOUNCE_NEW_JOB): the job message as the
   * agent is sent it, so the gateway need not read it back. Any type goes (the agent decides: schema/agentEvents.ts
   * `jobWireEvent`); content that is not a valid message counts as absent, so the gateway reads the job back, where
   * such a row ends UNDELIVERABLE (jobs/delivery.ts `jobForAgent`), rather than the announcement being dropped.
   */
  job: jobWireEvent.nullable().optional().catch(null),
  /** With session_replaced: the connection generation that is now current. */
  generation: z.number().optional(),
  /** With sftp_recheck (sql/functions/gsm_sftp_access_changed.sql): whose SFTP sessions to check again. */
  userId: z.string().optional(),
  /** With agent_upgrade (machines/upgradeRoll.ts): the command for the agent. */
  upgrade: agentUpgradeEvent.optional(),
});
export type AgentNotification = z.infer<typeof agentNotification>;

export async function notifyAgent(connection: CommonQueryMethods, notification: AgentNotification): Promise<void> {
  await connection.query(sql.unsafe`SELECT pg_notify(${AGENT_CHANNEL}, ${JSON.stringify(notification)})`);
}
