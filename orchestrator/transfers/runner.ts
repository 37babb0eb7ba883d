/**
 * The transfer runner (docs/transfers.md): every orchestrator process looks each second for transfers that nobody
 * runs and whose two agents are both connected to it (or, with Redis forwarding requests across processes, whose
 * target's agent is), takes a lease on each and runs it phase by phase. Every phase
 * is idempotent and its outcome is on the transfer's row before the next begins, so a process killed anywhere (or an
 * agent gone) leaves a transfer that the next process to hold its lease resumes where it was: a copy from the last
 * chunk the target acknowledged.
 *
 * CHECK_SPACE → STOP → PACK → COPY → SWITCH → START → CLEAN_UP → DONE. Before the switch a failure or a cancel is a
 * ROLL_BACK: the target's copy and ports go, the server gets back its desired status on the source. After it the
 * server is on the target whatever happens next.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../schema/logger.ts';
import type { DatabasePool } from '../../sql/pool.ts';
import { repeatEvery } from '../periodicWork.ts';
import { agentChannelOf, forwardsAcross, transferChannelOf } from '../files/agentChannels.ts';
import { completedBackups, deleteBackupsLeftBehind } from '../backups/store.ts';
import { SYSTEM_ORIGIN } from '../../schema/origin.ts';
import { moderationFollowsTransfer } from '../players/bans.ts';
import { finishTransferJob, recordTransferProgress } from '../jobs/transferJobs.ts';
import { serverState, setDesiredStatus, switchServerMachine } from '../servers/machineMove.ts';
import { lockMachinePorts } from '../servers/ports.ts';
import { AgentAway, AgentRefused, askerFor, copyItem, WRITES_IN_FLIGHT, type Ask } from './copy.ts';
import {
  BEFORE_SWITCH,
  claimableTransfers,
  getTransfer,
  LeaseLost,
  releaseLease,
  reservedOn,
  spaceNeeded,
  takeLease,
  updateTransfer,
  type Transfer,
  type TransferItem,
  type TransferPhase,
} from './store.ts';

/** How long a lease lasts without renewal: a process killed hands its transfers over after this. */
export const LEASE_MS = 10_000;
const RENEW_MS = 3_000;
/** How often progress is written while copying. */
const PROGRESS_EVERY_MS = 1_000;
/** How long the game has to stop (the agent's own stop escalates to SIGKILL well before), and to start on the target. */
const STOP_TIMEOUT_MS = 5 * 60_000;
const START_TIMEOUT_MS = 5 * 60_000;
/**
 * How long the clean up waits for a source agent that is not connected (one reconnecting after a dropped connection
 * is back within its first back-offs) before the job ends without it, leaving its copies there.
 */
const SOURCE_GRACE_MS = 30_000;
/** How long a process leaves alone a transfer it paused because an agent could not be reached. */
const PAUSED_MS = 5_000;
/** An item whose whole SHA-256 did not match is copied again from zero this many times before the transfer fails. */
const WHOLE_RETRIES = 2;
const NEEDS_BOTH_AGENTS: ReadonlySet<string> = new Set(['CHECK_SPACE', 'PACK', 'COPY']);
/** Stopped, with nothing changing its files (an install under way is not). */
const STOPPED = new Set(['OFFLINE', 'CRASHED', 'INSTALL_FAILED']);

class Failure extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}
class Cancelled extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function startTransferRunner(options: { pool: DatabasePool; logger: Logger; everyMs?: number }) {
  const { pool, logger } = options;
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const running = new Map<string, Promise<void>>();
  let stopping = false;

  const here = (machineId: string) => agentChannelOf(machineId, 'transfer') !== undefined;
  /**
   * Whether this process runs the phases that talk to both agents: it holds both, or (with Redis, which forwards
   * requests to the process holding an agent) the target's. The target's process asks the source for chunks (small
   * requests; each chunk comes back to it alone) and writes them over its own connection, in order; the source's process
   * and one holding neither leave it to that one.
   */
  const reachable = (source: string, target: string) => (here(source) && here(target)) || (forwardsAcross() && here(target));
  /** Transfers paused here because an agent could not be reached, and until when they are left alone (no churn). */
  const pausedUntil = new Map<string, number>();

  const repeating = repeatEvery({
    everyMs: options.everyMs ?? 1_000,
    logger,
    what: 'transfers',
    round: async () => {
      for (const [jobId, until] of pausedUntil) if (until <= Date.now()) pausedUntil.delete(jobId);
      for (const candidate of await claimableTransfers(pool)) {
        if (stopping || running.has(candidate.jobId) || pausedUntil.has(candidate.jobId)) continue;
        // The phases that talk to both agents run only where both can be reached (`reachable`); the others (stop,
        // switch, start, clean up, roll back, a cancel) run anywhere and do not wait for an agent that is away.
        const needsBoth = (NEEDS_BOTH_AGENTS.has(candidate.phase) && !candidate.cancelRequested) || candidate.phase === 'SWITCH';
        if (needsBoth && !reachable(candidate.sourceMachineId, candidate.targetMachineId)) continue;
        if (!(await takeLease(pool, candidate.jobId, owner, LEASE_MS))) continue;
        const run = drive(candidate.jobId)
          .catch((error: unknown) => logger.error({ err: error, jobId: candidate.jobId }, 'transfer run failed; it is resumed'))
          .finally(() => running.delete(candidate.jobId));
        running.set(candidate.jobId, run);
      }
      return false;
    },
  });

  async function drive(jobId: string): Promise<void> {
    let lost = false;
    const renew = setInterval(() => {
      void takeLease(pool, jobId, owner, LEASE_MS).then(
        (held) => (lost ||= !held),
        () => undefined,
      );
    }, RENEW_MS);
    try {
      await phases(jobId, () => lost || stopping);
    } catch (error) {
      if (error instanceof LeaseLost) {
        logger.info({ jobId }, 'transfer left to the process that holds its lease now');
        return;
      }
      if (!(error instanceof AgentAway)) throw error;
      logger.info({ jobId, reason: error.message }, 'transfer paused until both agents are reachable');
      // Tried again in a few seconds (another process may take it meanwhile), not at the next round.
      pausedUntil.set(jobId, Date.now() + PAUSED_MS);
    } finally {
      clearInterval(renew);
      await releaseLease(pool, jobId, owner).catch(() => undefined);
    }
  }

  async function phases(jobId: string, interrupted: () => boolean): Promise<void> {
    let transfer = await getTransfer(pool, jobId);
    if (!transfer) return;
    const t0 = transfer;
    const ask = askerFor({ source: () => transferChannelOf(t0.sourceMachineId), target: () => transferChannelOf(t0.targetMachineId) });
    const base = { jobId, serverId: transfer.serverId };
    const move = async (phase: TransferPhase, change: Parameters<typeof updateTransfer>[3] = {}) => {
      await updateTransfer(pool, jobId, owner, { ...change, phase });
      transfer = (await getTransfer(pool, jobId))!;
      await progress(transfer, phase === 'COPY' ? 'copying' : phase.toLowerCase().replace('_', ' '));
    };
    const progress = (current: Transfer, message: string) =>
      recordTransferProgress(pool, jobId, { phase: current.phase, message, bytesDone: current.bytesDone, bytesTotal: current.bytesTotal });
    const cancelRequested = async () => (await getTransfer(pool, jobId))?.cancelRequested === true;

    while (!interrupted()) {
      const current: Transfer | null = await getTransfer(pool, jobId);
      if (!current) return; // the server was deleted: its transfer went with it
      transfer = current;
      const phase = current.phase;
      if (phase === 'DONE' || phase === 'FAILED' || phase === 'CANCELLED') return;
      try {
        if (BEFORE_SWITCH.has(phase) && current.cancelRequested) throw new Cancelled();
        switch (phase) {
          case 'CHECK_SPACE': {
            await progress(current, 'checking the space on the target');
            const [source, target] = [await ask('source', { ...base, op: 'space' }), await ask('target', { ...base, op: 'space' })];
            const backups = current.includeBackups ? await completedBackups(pool, current.serverId) : [];
            const backupBytes = backups.reduce((sum, backup) => sum + (backup.location === 'S3' ? 0 : (backup.sizeBytes ?? 0)), 0);
            const [used, free] = [Number(source.usedBytes), Number(target.freeBytes)];
            // An agent's figures are checked: a missing or broken one is no room to count on.
            if (!Number.isSafeInteger(used) || used < 0 || !Number.isSafeInteger(free) || free < 0)
              throw new Failure(
                'NO_SPACE',
                `the agents did not answer usable figures (server size ${String(source.usedBytes)}, free ${String(target.freeBytes)})`,
              );
            // What the other transfers to that machine not yet switched reserved is not this one's to use (under the
            // lock the acceptance takes, so both see the same).
            const reserved = await pool.transaction(async (tx) => {
              await lockMachinePorts(tx, current.targetMachineId);
              return reservedOn(tx, current.targetMachineId, jobId);
            });
            const needed = spaceNeeded(used, backupBytes) + reserved;
            if (!(free >= needed))
              throw new Failure(
                'NO_SPACE',
                `the target machine has ${free} bytes free; the server needs about ${needed} (its files twice, for the copy and its extraction${backupBytes ? `, its local backups' ${backupBytes} bytes` : ''}${reserved ? `, and ${reserved} reserved by other transfers to that machine` : ''})`,
              );
            await move('STOP');
            break;
          }
          case 'STOP': {
            await setDesiredStatusOf(current.serverId, 'STOPPED');
            await progress(current, 'stopping the server');
            const began = Date.now();
            for (;;) {
              const state = await serverState(pool, current.serverId);
              if (!state) return;
              if (STOPPED.has(state.status)) break;
              if (current.cancelRequested || (await cancelRequested())) throw new Cancelled();
              if (Date.now() - began > STOP_TIMEOUT_MS) throw new Failure('STOP_FAILED', `the server did not stop (it is ${state.status})`);
              if (interrupted()) return;
              await sleep(500);
            }
            await move('PACK');
            break;
          }
          case 'PACK': {
            await progress(current, 'archiving the server on the source');
            // Those on S3 are only re-pointed (a small note; the object stays where it is), whether or not local ones follow.
            const completed = await completedBackups(pool, current.serverId);
            const backups = current.includeBackups ? completed : completed.filter((backup) => backup.location === 'S3');
            let items: TransferItem[] | undefined;
            while (!items) {
              const answer = await ask('source', { ...base, op: 'pack', backups: backups.map((backup) => ({ id: backup.id, location: backup.location })) });
              if (answer.state === 'ready') items = answer.items as TransferItem[];
              else if (answer.state === 'failed') {
                const error = answer.error as { code: string; message: string };
                throw new Failure(error.code, `the source could not archive the server: ${error.message}`);
              } else {
                if (interrupted()) return;
                if (await cancelRequested()) throw new Cancelled();
                await sleep(500);
              }
            }
            const total = items.reduce((sum, item) => sum + item.sizeBytes, 0);
            await move('COPY', { items, bytesTotal: total, bytesDone: 0 });
            break;
          }
          case 'COPY':
            await copyAll(current, ask, base, interrupted);
            if (interrupted()) return;
            // A cancel that came while the last item was put in place: the switch has not happened, so it still wins.
            if (await cancelRequested()) throw new Cancelled();
            await move('SWITCH');
            break;
          case 'SWITCH':
            await pool.transaction(async (tx) => {
              // A cancel that arrived while the last item was finished still wins: the switch has not happened. The row
              // is locked so a cancel racing this waits for it (and then finds the transfer past its switch).
              const locked = await getTransfer(tx, jobId, { forUpdate: true });
              if (locked?.cancelRequested) throw new Cancelled();
              await switchServerMachine(tx, {
                serverId: current.serverId,
                clusterId: current.clusterId,
                jobId,
                sourceMachineId: current.sourceMachineId,
                targetMachineId: current.targetMachineId,
                allocations: current.allocations,
                desired: current.desiredBefore,
              });
              // Bans the source took but did not apply to the game, and moderation not yet delivered to it, go to the target.
              await moderationFollowsTransfer(tx, {
                serverId: current.serverId,
                sourceMachineId: current.sourceMachineId,
                targetMachineId: current.targetMachineId,
              });
              await deleteBackupsLeftBehind(tx, SYSTEM_ORIGIN, {
                clusterId: current.clusterId,
                serverId: current.serverId,
                transferJobId: jobId,
                backupIds: current.backupsToDelete,
              });
              await updateTransfer(tx, jobId, owner, { phase: 'START' });
            });
            break;
          case 'START': {
            if (current.desiredBefore === 'RUNNING') {
              await progress(current, 'starting the server on the target');
              const began = Date.now();
              for (;;) {
                const state = await serverState(pool, current.serverId);
                if (!state || state.status === 'ONLINE' || state.status === 'UNRESPONSIVE') break;
                if (state.status === 'CRASHED' || Date.now() - began > START_TIMEOUT_MS) {
                  // On the target to stay: the source keeps its copy for whoever looks into it, but not the copies of
                  // the backups, whose records now point at the target or were deleted at the switch.
                  const left = await cleanSource(current, ask, base, false);
                  // The target keeps the server (extracted), not the transfer's own files there (the archive as received).
                  await ask('target', { ...base, op: 'discard' }).catch(() => undefined);
                  await finish(
                    current,
                    'FAILED',
                    {
                      code: 'START_FAILED',
                      message: `the server moved to the target machine but did not start there (${state.status}${state.statusReason ? `: ${state.statusReason}` : ''}); the source machine keeps its files`,
                    },
                    left,
                  );
                  return;
                }
                if (interrupted()) return;
                await sleep(500);
              }
            }
            await move('CLEAN_UP');
            break;
          }
          case 'CLEAN_UP': {
            const left = await cleanSource(current, ask, base, !current.keepSource);
            await ask('target', { ...base, op: 'discard' }).catch(() => undefined);
            await finish(current, 'DONE', undefined, left);
            return;
          }
          case 'ROLL_BACK':
            await rollBack(current, ask, base);
            return;
        }
      } catch (error) {
        // An agent away pauses the transfer: it resumes when both are back here. Meanwhile the server waits on its
        // source, stopped; a cancel starts it there again.
        if (error instanceof AgentAway || error instanceof LeaseLost) throw error;
        // The switch's transaction found a cancel and changed nothing: the server is still on its source.
        if (!BEFORE_SWITCH.has(phase) && !(phase === 'SWITCH' && error instanceof Cancelled)) throw error;
        const reason =
          error instanceof Cancelled
            ? { code: 'CANCELLED', message: 'cancelled before the switch: the server stays on its source machine' }
            : error instanceof Failure || error instanceof AgentRefused
              ? { code: error.code, message: error.message }
              : { code: 'TRANSFER_FAILED', message: (error as Error).message };
        logger.warn({ jobId, phase, reason }, 'transfer rolls back');
        await updateTransfer(pool, jobId, owner, { phase: 'ROLL_BACK', error: reason });
      }
    }
  }

  /**
   * After the switch: the source's copies of the backups (those that moved, and those left behind, deleted at the
   * switch) go, and with `removeServer` its copy of the server. A source that is reconnecting is waited for a little
   * (SOURCE_GRACE_MS); one that is gone (the machine died) must not keep the transfer open: answers for the job's result
   * whether it was cleaned, and the backups whose files may be left there.
   */
  async function cleanSource(transfer: Transfer, ask: Ask, base: Record<string, unknown>, removeServer: boolean): Promise<Record<string, unknown>> {
    const backups = [...(transfer.items ?? []).flatMap((item) => (item.backupId ? [item.backupId] : [])), ...transfer.backupsToDelete];
    // Asked again while the source is away (here, or on another process) until the grace is over: discarding is
    // idempotent.
    for (const waitUntil = Date.now() + SOURCE_GRACE_MS; ;) {
      try {
        await ask('source', { ...base, op: 'discard', removeServer, removeBackups: backups }, 5 * 60_000);
        return { sourceCleanedUp: true };
      } catch (error) {
        if (!(error instanceof AgentAway)) throw error;
        if (Date.now() < waitUntil) {
          await sleep(500);
          continue;
        }
        logger.warn({ jobId: transfer.jobId, backups }, 'the source is away: its copies of the backups may be left there');
        return { sourceCleanedUp: false, ...(backups.length ? { sourceBackupsLeft: backups } : {}) };
      }
    }
  }

  async function setDesiredStatusOf(serverId: string, desired: 'RUNNING' | 'STOPPED') {
    const state = await serverState(pool, serverId);
    if (state && state.desiredStatus !== desired) await pool.transaction((tx) => setDesiredStatus(tx, serverId, desired));
  }

  async function copyAll(transfer: Transfer, ask: Ask, base: Record<string, unknown>, interrupted: () => boolean): Promise<void> {
    const items = transfer.items ?? [];
    let before = 0;
    let lastWrite = 0;
    let cancelled = false;
    let bytesDone = transfer.bytesDone;
    for (const item of items) {
      const finished = await ask('target', { ...base, op: 'finish', key: item.key, sha256: item.sha256, probe: true }).catch(() => undefined);
      if (finished?.state === 'ready') {
        before += item.sizeBytes;
        continue;
      }
      for (let attempt = 0; ; attempt++) {
        const received = await ask('target', { ...base, op: 'received', key: item.key });
        const held = Number(received.size);
        const start = Math.min(held, item.sizeBytes);
        // A resume: where the target's count puts it against what was recorded before.
        if (start > 0 || transfer.bytesDone > 0)
          await updateTransfer(pool, transfer.jobId, owner, {
            resume: { phase: 'COPY', fromBytes: before + start, acknowledgedBefore: transfer.bytesDone },
          });
        transfer = { ...transfer, bytesDone: 0 };
        await copyItem({
          ask,
          base,
          key: item.key,
          size: item.sizeBytes,
          start,
          bytesPerSecond: transfer.bandwidthLimit,
          // An older target applies writes as they come, not in order: one at a time to it.
          writesInFlight: received.inOrder === true ? WRITES_IN_FLIGHT : 1,
          stop: () => interrupted() || cancelled,
          progress: async (offset) => {
            bytesDone = before + offset;
            if (Date.now() - lastWrite < PROGRESS_EVERY_MS && offset < item.sizeBytes) return;
            lastWrite = Date.now();
            await updateTransfer(pool, transfer.jobId, owner, { bytesDone });
            await recordTransferProgress(pool, transfer.jobId, { phase: 'COPY', message: `copying ${item.key}`, bytesDone, bytesTotal: transfer.bytesTotal });
            cancelled = (await getTransfer(pool, transfer.jobId))?.cancelRequested === true;
          },
        });
        if (cancelled) throw new Cancelled();
        if (interrupted()) return;
        // The whole item's SHA-256, then the item put in place (the archive extracted as the server's account).
        let answer: Record<string, unknown>;
        for (;;) {
          answer = await ask('target', { ...base, op: 'finish', key: item.key, sha256: item.sha256 });
          if (answer.state !== 'working') break;
          if (interrupted()) return;
          await sleep(300);
        }
        if (answer.state === 'ready') break;
        const error = answer.error as { code: string; message: string };
        if (error.code !== 'CHECKSUM_MISMATCH' || attempt >= WHOLE_RETRIES)
          throw new Failure(error.code, `the target could not take ${item.key}: ${error.message}`);
        logger.warn({ jobId: transfer.jobId, key: item.key }, 'the copy did not match its SHA-256: copied again');
      }
      before += item.sizeBytes;
      await updateTransfer(pool, transfer.jobId, owner, { bytesDone: before });
    }
    await recordTransferProgress(pool, transfer.jobId, { phase: 'COPY', message: 'copied', bytesDone: before, bytesTotal: transfer.bytesTotal });
  }

  async function rollBack(transfer: Transfer, ask: Ask, base: Record<string, unknown>): Promise<void> {
    await recordTransferProgress(pool, transfer.jobId, {
      phase: 'ROLL_BACK',
      message: 'rolling back',
      bytesDone: transfer.bytesDone,
      bytesTotal: transfer.bytesTotal,
    });
    // What the target received (and extracted) goes; its account too. A target that is away keeps it until the next try.
    // A roll back never waits for an agent that is away: the server goes back to its source whatever the target does.
    const targetCleaned = await ask('target', { ...base, op: 'discard', removeServer: true }).then(
      () => true,
      (error: unknown) => {
        if (error instanceof AgentAway) return false;
        throw error;
      },
    );
    await ask('source', { ...base, op: 'discard' }).catch(() => undefined);
    await setDesiredStatusOf(transfer.serverId, transfer.desiredBefore);
    const reason = transfer.error ?? { code: 'TRANSFER_FAILED', message: 'the transfer failed' };
    await finish(transfer, reason.code === 'CANCELLED' ? 'CANCELLED' : 'FAILED', reason, { targetCleanedUp: targetCleaned });
  }

  async function finish(
    transfer: Transfer,
    phase: 'DONE' | 'FAILED' | 'CANCELLED',
    error?: { code: string; message: string },
    extra: Record<string, unknown> = {},
  ) {
    const latest = (await getTransfer(pool, transfer.jobId)) ?? transfer;
    const result = {
      sourceMachineId: latest.sourceMachineId,
      targetMachineId: latest.targetMachineId,
      machineId: phase === 'DONE' || latest.phase === 'START' ? latest.targetMachineId : latest.sourceMachineId,
      allocations: latest.allocations,
      bytesTotal: latest.bytesTotal,
      archiveSha256: latest.items?.find((item) => item.key === 'server')?.sha256 ?? null,
      backups: (latest.items ?? []).flatMap((item) => (item.backupId ? [item.backupId] : [])),
      // Deleted at the switch (none before it: a roll back keeps them on the source, where they are).
      backupsDeleted: phase === 'DONE' || latest.phase === 'START' ? latest.backupsToDelete : [],
      resumes: latest.resumes,
      ...extra,
    };
    await pool.transaction(async (tx) => {
      await updateTransfer(tx, transfer.jobId, owner, { phase, finished: true, ...(error ? { error } : {}) });
      if (phase === 'DONE') await finishTransferJob(tx, transfer.jobId, { status: 'SUCCEEDED', result });
      else await finishTransferJob(tx, transfer.jobId, { status: phase, error: error!, result });
    });
  }

  return {
    async stop() {
      stopping = true;
      await repeating.stop();
      await Promise.all(running.values());
    },
  };
}
