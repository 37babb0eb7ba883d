/**
 * A transfer's cancel (docs/transfers.md#cancel), as orchestrator/jobs/cancel.ts asks for it: remembered on the row;
 * the runner then rolls the transfer back and ends its job CANCELLED.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { conflict } from '../../schema/errors.ts';
import { BEFORE_SWITCH, TRANSFER_PHASES } from '../../schema/transfers.ts';

/** Remembers a cancel (the runner rolls back); past the switch it is a 409: the server is on its new machine already. */
export async function requestTransferCancel(tx: CommonQueryMethods, jobId: string): Promise<void> {
  const phase = await tx.maybeOneFirst(sql.type(z.object({ phase: z.enum(TRANSFER_PHASES) }))`
    SELECT phase FROM transfers WHERE job_id = ${jobId} AND finished_at IS NULL FOR UPDATE`);
  if (!phase) throw conflict('The transfer has ended; there is nothing to cancel');
  if (!BEFORE_SWITCH.has(phase) && phase !== 'ROLL_BACK')
    throw conflict(`The transfer is past its switch (${phase}): the server is on its new machine; transfer it back instead`);
  await tx.query(sql.unsafe`UPDATE transfers SET cancel_requested_at = coalesce(cancel_requested_at, now()), updated_at = now() WHERE job_id = ${jobId}`);
}
