/**
 * Sends webhook deliveries (docs/webhooks.md). Every orchestrator process runs one. Deliveries are rows made in the
 * same transaction as their event (sql/migrations/000020_webhooks.sql); a deliverer claims due ones with a lease
 * (LEASE_MS, longer than a send may take), sends them, and records the outcome. A process killed mid-send leaves its
 * claims to expire and another process (or itself, restarted) sends them again with the same delivery id: delivery is
 * at least once, and a delivery recorded as delivered is never sent again unless someone asks (retry).
 *
 * Fairness: at most PER_WEBHOOK sends of one webhook at a time and CONCURRENCY in all per process; a webhook whose
 * last attempt failed gets one slot, failing ones together at most half; claims go round the webhooks, least recently
 * served first. So slow or dead receivers hold a bounded share of the slots and never stand in front of the others.
 * A webhook that answers quickly also holds up to PER_WEBHOOK deliveries claimed ahead, so its next send starts as a
 * slot frees, without waiting for a claim; a send's slot is free once the receiver answered, and outcomes are written
 * in batches meanwhile. A failed attempt is tried again after RETRY_DELAYS_MS (10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h), then the
 * delivery is FAILED; WEBHOOK_DISABLE_AFTER failed deliveries in a row (no success between) disable the webhook and
 * record a `webhook.disabled` event. A webhook with more than WEBHOOK_MAX_PENDING deliveries pending has its oldest
 * dropped (FAILED, with the reason) and a `webhook.dropped` event says how many.
 */
import { sql } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import type { Logger } from '../../schema/logger.ts';
import { listen } from '../../sql/listen.ts';
import { cursorOf, type ClusterEvent } from '../../schema/events.ts';
import { storableText } from '../../schema/storable.ts';
import { discordMessage } from './discord.ts';
import { send, SEND_TIMEOUT_MS, type Attempt } from './send.ts';
import { repeatEvery } from '../periodicWork.ts';
import { hostResolver, type DnsSettings } from './addresses.ts';

export const RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000, 12 * 3_600_000];
export const WEBHOOK_DISABLE_AFTER = 50;
/** Pending deliveries one webhook may have (WEBHOOK_MAX_PENDING); past it the oldest are dropped. */
export const WEBHOOK_MAX_PENDING = 10_000;
/** How often the pending count is checked (the cap may be passed by what arrives in between). */
const PENDING_CHECK_MS = 5_000;
const CONCURRENCY = 64;
const PER_WEBHOOK = 16;
const LEASE_MS = SEND_TIMEOUT_MS + 5_000;
const FALLBACK_MS = 1_000;
const COALESCE_MS = 3;
/**
 * How long outcomes gather before they are written together. The send's slot is already free (the next send does not
 * wait for this); only the lease is held a little longer.
 */
const BATCH_MS = 10;
/** How long a delivery claimed ahead may wait for its webhook's slot (its lease is LEASE_MS): after it, it is given back. */
const QUEUE_MAX_MS = 1_000;
/** Only a webhook whose last answer came within this has deliveries claimed ahead (they then wait far less than QUEUE_MAX_MS). */
const QUICK_ANSWER_MS = 250;

export type DelivererOptions = {
  pool: DatabasePool;
  databaseUrl: string;
  logger: Logger;
  allowPrivate: boolean;
  userAgent: string;
  /** Tests shorten these. */
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  concurrency?: number;
  perWebhook?: number;
  /** Pending deliveries one webhook may have before its oldest are dropped (WEBHOOK_MAX_PENDING). */
  maxPending?: number;
  /** Name servers and time-out of the lookups (WEBHOOK_DNS_SERVERS, WEBHOOK_DNS_TIMEOUT_MS). */
  dns?: DnsSettings;
  pendingCheckMs?: number;
  /** How long outcomes gather before they are written together (tests widen it so a batch is certain). */
  batchMs?: number;
};

export type Deliverer = {
  stop: () => Promise<void>;
  /** Sends what is due now (tests). */ kick: () => void;
  /** Attempts made by this process by outcome: delivered, retrying (failed, tried again later), failed (for good). */
  outcomes: () => Record<'delivered' | 'retrying' | 'failed', number>;
};

const claimed = z.object({
  id: z.string(),
  leaseToken: z.string(),
  webhookId: z.string(),
  eventId: z.string().nullable(),
  eventType: z.string(),
  body: z.unknown().nullable(),
  attempts: z.number(),
  attemptsBeforeRetry: z.number(),
  url: z.string(),
  secret: z.string(),
  format: z.enum(['JSON', 'DISCORD']),
  /** The event with the names its message shows (null for a test, or an event no longer kept). */
  event: z
    .object({
      position: z.string(),
      type: z.string(),
      clusterId: z.string(),
      at: z.string(),
      data: z.record(z.string(), z.unknown()),
      serverName: z.string().nullable(),
      machineName: z.string().nullable(),
      clusterName: z.string().nullable(),
      playerName: z.string().nullable(),
      playerSteamId: z.string().nullable(),
    })
    .nullable(),
});
type Claimed = z.infer<typeof claimed>;
/** Made once: zod compiles a schema the first time it parses with it, so one made per claim is compiled per claim. */
const candidate = z.object({ id: z.string(), webhookId: z.string() });

export async function startDeliverer(options: DelivererOptions): Promise<Deliverer> {
  const { pool } = options;
  const logger = options.logger.child({ component: 'webhooks' });
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  const concurrency = options.concurrency ?? CONCURRENCY;
  const perWebhook = options.perWebhook ?? PER_WEBHOOK;
  const leaseMs = Math.max(LEASE_MS, (options.timeoutMs ?? SEND_TIMEOUT_MS) + 5_000);
  const resolve = hostResolver(options.dns);
  const inFlight = new Map<string, number>();
  let total = 0;
  let stopped = false;
  let claiming: Promise<void> | undefined;
  let again = false;
  const sends = new Set<Promise<void>>();

  /** Webhooks whose last attempt here failed: they get one slot, and all of them together at most half the slots. */
  const failing = new Set<string>();
  const outcomes = { delivered: 0, retrying: 0, failed: 0 };
  /** When each webhook was last served here: claims go round the webhooks, least recently served first. */
  const served = new Map<string, number>();
  const limitOf = (webhookId: string) => (failing.has(webhookId) ? 1 : perWebhook);

  /**
   * Claimed ahead: each webhook that answers quickly (its last answer within QUICK_ANSWER_MS, no failure) may hold up to
   * its limit of claimed deliveries besides those being sent, so a freed slot starts the next send at once instead of
   * waiting for a claim's round trips. A queued delivery still has most of its lease when its send starts; one that
   * waited QUEUE_MAX_MS is given back (as is a webhook's queue when an attempt fails or stops), never sent late.
   */
  const queued = new Map<string, { row: Claimed; at: number }[]>();
  let queuedTotal = 0;
  /** Webhooks whose last answer here took longer than QUICK_ANSWER_MS: nothing is claimed ahead for them. */
  const slow = new Set<string>();
  const aheadOf = (webhookId: string) => (failing.has(webhookId) || slow.has(webhookId) ? 0 : perWebhook);
  const heldBy = (webhookId: string) => (inFlight.get(webhookId) ?? 0) + (queued.get(webhookId)?.length ?? 0);

  /**
   * Due deliveries for the free slots: a few candidates of each webhook with due work (its own index), then in JS
   * one webhook after the other, least recently served first, each up to its free slots (and what it may hold
   * ahead). A dead receiver's backlog therefore never stands in front of another webhook's delivery, and failing
   * receivers never take more than half.
   */
  async function claim(limit: number): Promise<Claimed[]> {
    // What failing webhooks hold, sending or claimed and waiting for a slot: together at most half.
    const failingHeld = [...new Set([...inFlight.keys(), ...queued.keys()])].filter((id) => failing.has(id)).reduce((sum, id) => sum + heldBy(id), 0);
    const failingRoom = Math.max(0, Math.floor(concurrency / 2) - failingHeld);
    const roomOf = (webhookId: string) => limitOf(webhookId) + aheadOf(webhookId) - heldBy(webhookId);
    const full = [...new Set([...inFlight.keys(), ...queued.keys()])].filter((id) => roomOf(id) <= 0 || (failing.has(id) && failingRoom === 0));
    const candidates = await pool.any(sql.prepared('gsm_webhook_candidates', candidate)`
      SELECT d.id, w.id AS "webhookId" FROM webhooks w
       CROSS JOIN LATERAL (
         SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
          WHERE d.webhook_id = w.id AND d.status = 'PENDING' AND d.next_attempt_at <= now()
            AND (d.lease_until IS NULL OR d.lease_until < now())
            -- a disabled webhook sends only its tests (how to check it works again)
            AND (w.enabled OR (d.event_id IS NULL AND d.event_type = 'webhook.test'))
            -- an event is sent once it has its cursor (numbered moments after its commit)
            AND (d.event_id IS NULL OR EXISTS (SELECT 1 FROM events e WHERE e.id = d.event_id AND e.position IS NOT NULL))
          ORDER BY d.next_attempt_at LIMIT ${perWebhook}) d
       WHERE w.id <> ALL(${sql.array(full, 'uuid')})
       LIMIT 5000`);
    const byWebhook = new Map<string, string[]>();
    for (const candidate of candidates) {
      const ids = byWebhook.get(candidate.webhookId);
      if (ids) ids.push(candidate.id);
      else byWebhook.set(candidate.webhookId, [candidate.id]);
    }
    const order = [...byWebhook.keys()].sort((a, b) => (served.get(a) ?? 0) - (served.get(b) ?? 0));
    const picked: string[] = [];
    let failingLeft = failingRoom;
    for (const webhookId of order) {
      if (picked.length >= limit) break;
      let free = roomOf(webhookId);
      if (failing.has(webhookId)) free = Math.min(free, failingLeft);
      const ids = byWebhook.get(webhookId)!.slice(0, Math.max(0, Math.min(free, limit - picked.length)));
      if (failing.has(webhookId)) failingLeft -= ids.length;
      picked.push(...ids);
    }
    if (picked.length === 0) return [];
    const rows = await pool.any(sql.type(claimed)`
      UPDATE webhook_deliveries d SET lease_until = now() + make_interval(secs => ${leaseMs / 1000}), lease_token = gen_random_uuid(), attempts = d.attempts + 1
        FROM webhooks w
       WHERE d.id = ANY(${sql.array(picked, 'uuid')}) AND w.id = d.webhook_id
         AND d.status = 'PENDING' AND (d.lease_until IS NULL OR d.lease_until < now())
      RETURNING d.id, d.lease_token AS "leaseToken", d.webhook_id AS "webhookId", d.event_id AS "eventId", d.event_type AS "eventType", d.body,
                d.attempts, d.attempts_before_retry AS "attemptsBeforeRetry", w.url, w.secret, w.format,
                (SELECT jsonb_build_object('position', e.position::text, 'type', e.type, 'clusterId', e.cluster_id, 'at', gsm_iso(e.at), 'data', e.data,
                                           'serverName', s.name, 'machineName', m.name, 'clusterName', c.name,
                                           'playerName', p.username, 'playerSteamId', p.steam_id)
                   FROM events e
                   LEFT JOIN servers s ON s.id = e.server_id
                   LEFT JOIN machines m ON e.type = 'machine.status' AND m.id::text = e.data->>'machineId'
                   LEFT JOIN clusters c ON c.id = e.cluster_id
                   LEFT JOIN players p ON e.type IN ('ban.created', 'ban.revoked') AND p.id::text = e.data->>'playerId'
                  WHERE e.id = d.event_id) AS event`);
    const now = Date.now();
    for (const row of rows) served.set(row.webhookId, now);
    if (served.size > 10_000) served.clear();
    return [...rows];
  }

  /** A claimed delivery's body: the event's envelope (JSON) or its Discord message; null when its event is gone. */
  function bodyOf(row: Claimed): { json: string; type: string } | null {
    let envelope: ClusterEvent | null = null;
    let names = {};
    if (row.event) {
      const { event } = row;
      envelope = { id: cursorOf(event.position), type: event.type, clusterId: event.clusterId, at: event.at, data: event.data };
      names = {
        server: event.serverName,
        machine: event.machineName,
        cluster: event.clusterName,
        player: event.playerName && { username: event.playerName, steamId: event.playerSteamId },
      };
    } else if (!row.eventId && row.body) envelope = row.body as ClusterEvent;
    return envelope && { json: JSON.stringify(row.format === 'DISCORD' ? discordMessage(envelope, names) : envelope), type: envelope.type };
  }

  /**
   * Outcomes are recorded together, a few milliseconds at a time, in one statement (a busy webhook would otherwise
   * cost a round trip per delivery): successes, retries scheduled, and deliveries whose event is gone. Each lands on
   * its own delivery only if this claim still holds it (its lease token unchanged). Should the statement fail, each
   * outcome of the batch is written again on its own, so one that cannot be written (its delivery's or its webhook's
   * trouble) takes no other webhook's outcomes with it. A delivery that ends FAILED and counts against its webhook
   * (which may disable it) is recorded on its own, in a transaction.
   */
  type Pending = { row: Claimed; attempt: Attempt; status: 'SUCCEEDED' | 'PENDING' | 'FAILED'; delayMs: number | null; error: string | null };
  let batch: { outcome: Pending; done: () => void; failed: (error: unknown) => void }[] = [];
  let batchTimer: NodeJS.Timeout | undefined;
  const batched = (outcome: Pending) =>
    new Promise<void>((done, failed) => {
      batch.push({ outcome, done, failed });
      batchTimer ??= setTimeout(() => void flushOutcomes(), options.batchMs ?? BATCH_MS);
    });
  const writeOutcomes = (outcomes: Pending[]) =>
    pool.query(sql.unsafe`
      WITH v AS (
        SELECT * FROM unnest(${sql.array(
          outcomes.map(({ row }) => row.id),
          'uuid',
        )}::uuid[], ${sql.array(
          outcomes.map(({ row }) => row.leaseToken),
          'uuid',
        )}::uuid[], ${sql.array(
          outcomes.map(({ status }) => status),
          'text',
        )}::text[], ${sql.array(
          outcomes.map(({ attempt }) => attempt.statusCode),
          'int4',
        )}::int[], ${sql.array(
          outcomes.map(({ error }) => error),
          'text',
        )}::text[], ${sql.array(
          outcomes.map(({ attempt }) => attempt.durationMs),
          'int4',
        )}::int[], ${sql.array(
          outcomes.map(({ delayMs }) => delayMs),
          'int4',
        )}::int[]) AS v(id, token, status, code, error, duration, delay)),
      recorded AS (
        UPDATE webhook_deliveries d SET status = v.status, last_status_code = v.code, last_error = v.error, duration_ms = v.duration,
               delivered_at = CASE WHEN v.status = 'SUCCEEDED' THEN now() ELSE d.delivered_at END,
               next_attempt_at = CASE WHEN v.delay IS NULL THEN d.next_attempt_at ELSE now() + make_interval(secs => v.delay / 1000.0) END,
               lease_until = NULL, lease_token = NULL
          FROM v WHERE d.id = v.id AND d.lease_token = v.token
        RETURNING d.webhook_id, v.status)
      -- the webhooks' runs of failures (if any) end
      UPDATE webhooks SET consecutive_failures = 0
       WHERE id IN (SELECT webhook_id FROM recorded WHERE status = 'SUCCEEDED') AND consecutive_failures <> 0`);
  async function flushOutcomes(): Promise<void> {
    clearTimeout(batchTimer);
    batchTimer = undefined;
    const entries = batch;
    batch = [];
    if (entries.length === 0) return;
    try {
      await writeOutcomes(entries.map(({ outcome }) => outcome));
      for (const entry of entries) entry.done();
    } catch (error) {
      if (entries.length === 1) return entries[0]!.failed(error);
      // Each on its own: the one that cannot be written fails alone (its lease runs out and it is sent again).
      await Promise.all(
        entries.map(async (entry) => {
          try {
            await writeOutcomes([entry.outcome]);
            entry.done();
          } catch (alone) {
            entry.failed(alone);
          }
        }),
      );
    }
  }

  /** Records the outcome, if this claim still holds the delivery (its lease token unchanged). */
  async function record(row: Claimed, attempt: Attempt, options: { gone?: boolean } = {}): Promise<void> {
    const outcome = attempt.ok ? 'delivered' : !options.gone && delays[row.attempts - row.attemptsBeforeRetry - 1] !== undefined ? 'retrying' : 'failed';
    outcomes[outcome] += 1;
    const error = attempt.error === null ? null : storableText(attempt.error).slice(0, 1000);
    if (attempt.ok) failing.delete(row.webhookId);
    else failing.add(row.webhookId);
    if (attempt.ok) return batched({ row, attempt, status: 'SUCCEEDED', delayMs: null, error: null });
    // An event that expired before it could be sent says nothing about the receiver: it does not count.
    if (options.gone) return batched({ row, attempt, status: 'FAILED', delayMs: null, error });
    const step = row.attempts - row.attemptsBeforeRetry; // 1 for the first attempt (since creation or the last retry)
    const scheduled = delays[step - 1];
    if (scheduled !== undefined) {
      // A receiver that says when to come back (429, 503 with Retry-After, as Discord does) is not tried sooner.
      const delayMs = Math.round(Math.max(scheduled, Math.min(attempt.retryAfterMs ?? 0, 12 * 3_600_000)));
      return batched({ row, attempt, status: 'PENDING', delayMs, error });
    }
    const held = sql.fragment`id = ${row.id} AND lease_token = ${row.leaseToken}`;
    await pool.transaction(async (tx) => {
      const ended = await tx.query(sql.unsafe`
        UPDATE webhook_deliveries SET status = 'FAILED', last_status_code = ${attempt.statusCode}, last_error = ${error},
               duration_ms = ${attempt.durationMs}, lease_until = NULL, lease_token = NULL
         WHERE ${held}`);
      if (ended.rowCount === 0) return;
      const webhook = await tx.one(sql.type(z.object({ failures: z.number(), enabled: z.boolean(), clusterId: z.string() }))`
        UPDATE webhooks SET consecutive_failures = consecutive_failures + 1 WHERE id = ${row.webhookId}
        RETURNING consecutive_failures AS failures, enabled, cluster_id AS "clusterId"`);
      if (webhook.failures < WEBHOOK_DISABLE_AFTER || !webhook.enabled) return;
      const reason = `${webhook.failures} deliveries in a row failed`;
      // The details (the receiver's answer) stay on the webhook, which only managers read; the event says why in general.
      await tx.query(sql.unsafe`
        UPDATE webhooks SET enabled = false, disabled_reason = ${`${reason}; the last: ${error ?? 'no answer'}`}, updated_at = now() WHERE id = ${row.webhookId}`);
      await tx.query(sql.unsafe`
        INSERT INTO events (cluster_id, type, data)
        VALUES (${webhook.clusterId}, 'webhook.disabled', ${sql.jsonb({ webhookId: row.webhookId, reason })})`);
      logger.warn({ webhookId: row.webhookId, failures: webhook.failures }, 'webhook disabled after failed deliveries');
    });
  }

  /** One attempt; its slot is free again once the receiver has answered (or not), while its outcome is written. */
  async function deliver(row: Claimed, body: { json: string; type: string } | null, release: () => void): Promise<void> {
    let attempt: Attempt;
    try {
      attempt = body
        ? await send({
            url: row.url,
            body: body.json,
            secret: row.secret,
            eventType: body.type,
            deliveryId: row.id,
            allowPrivate: options.allowPrivate,
            userAgent: options.userAgent,
            timeoutMs: options.timeoutMs,
            resolve,
          })
        : { ok: false, statusCode: null, error: 'the event is no longer kept (EVENT_RETENTION_DAYS)', durationMs: 0 };
    } catch (error) {
      attempt = { ok: false, statusCode: null, error: error instanceof Error ? error.message : String(error), durationMs: 0 };
    }
    if (attempt.durationMs <= QUICK_ANSWER_MS) slow.delete(row.webhookId);
    else if (slow.add(row.webhookId).size > 10_000) slow.clear();
    if (!attempt.ok) failing.add(row.webhookId);
    // A receiver that failed or slowed down keeps nothing claimed ahead: others may send it meanwhile.
    if (aheadOf(row.webhookId) === 0) void unqueue(row.webhookId);
    release();
    try {
      // An event that is gone will not come back: no retries for it, and it is not the receiver's failure.
      await record(row, attempt, { gone: !body });
    } catch (error) {
      // The outcome could not be written (database away): the lease runs out and the delivery is sent again.
      logger.warn({ err: error, deliveryId: row.id }, 'could not record a webhook delivery; it will be sent again');
    }
  }

  /** Starts queued deliveries while their webhooks have free slots, least recently served first. */
  function pump(): void {
    if (stopped || queuedTotal === 0 || total >= concurrency) return;
    const order = [...queued.keys()].sort((a, b) => (served.get(a) ?? 0) - (served.get(b) ?? 0));
    const stale: Claimed[] = [];
    // Failing webhooks send together in at most half the slots, also from what waits here.
    let failingSending = [...inFlight].filter(([id]) => failing.has(id)).reduce((sum, [, count]) => sum + count, 0);
    for (const webhookId of order) {
      const waiting = queued.get(webhookId)!;
      const isFailing = failing.has(webhookId);
      while (
        waiting.length > 0 &&
        total < concurrency &&
        (inFlight.get(webhookId) ?? 0) < limitOf(webhookId) &&
        (!isFailing || failingSending < Math.floor(concurrency / 2))
      ) {
        const next = waiting.shift()!;
        queuedTotal -= 1;
        if (Date.now() - next.at > QUEUE_MAX_MS) stale.push(next.row);
        else {
          start(next.row);
          if (isFailing) failingSending += 1;
        }
      }
      if (waiting.length === 0) queued.delete(webhookId);
    }
    if (stale.length > 0) void giveBack(stale);
  }

  /** Gives claimed deliveries back unsent (their lease and the attempt counted on claiming undone). */
  async function giveBack(rows: Claimed[]): Promise<void> {
    try {
      await pool.query(sql.unsafe`
        UPDATE webhook_deliveries d SET lease_until = NULL, lease_token = NULL, attempts = d.attempts - 1
          FROM unnest(${sql.array(
            rows.map((row) => row.id),
            'uuid',
          )}::uuid[], ${sql.array(
            rows.map((row) => row.leaseToken),
            'uuid',
          )}::uuid[]) AS v(id, token)
         WHERE d.id = v.id AND d.lease_token = v.token`);
    } catch (error) {
      // Their leases run out instead.
      logger.warn({ err: error }, 'could not give back claimed webhook deliveries; their leases will run out');
    }
  }

  /** A webhook's queue given back (its receiver failed or slowed down, or this process stops). */
  function unqueue(webhookId: string): Promise<void> {
    const waiting = queued.get(webhookId);
    if (!waiting) return Promise.resolve();
    queued.delete(webhookId);
    queuedTotal -= waiting.length;
    return giveBack(waiting.map(({ row }) => row));
  }

  function start(row: Claimed): void {
    // The body first: should making it throw, no slot is held for a send that never starts.
    let body: ReturnType<typeof bodyOf>;
    try {
      body = bodyOf(row);
    } catch (error) {
      logger.error({ err: error, deliveryId: row.id }, 'could not make a webhook body; the delivery is sent again after its lease');
      return;
    }
    total += 1;
    inFlight.set(row.webhookId, (inFlight.get(row.webhookId) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      total -= 1;
      const left = (inFlight.get(row.webhookId) ?? 1) - 1;
      if (left > 0) inFlight.set(row.webhookId, left);
      else inFlight.delete(row.webhookId);
      try {
        if (!stopped) pump();
      } catch (error) {
        logger.error({ err: error }, 'webhook deliverer could not start the next delivery');
      }
      soon();
    };
    const sending: Promise<void> = deliver(row, body, release)
      .catch((error: unknown) => logger.error({ err: error, deliveryId: row.id }, 'webhook delivery failed unexpectedly; it is sent again after its lease'))
      .finally(() => {
        release();
        sends.delete(sending);
      });
    sends.add(sending);
  }

  async function round(): Promise<void> {
    while (!stopped && total + queuedTotal < concurrency * 2) {
      const rows = await claim(concurrency * 2 - total - queuedTotal);
      if (rows.length === 0) return;
      const at = Date.now();
      for (const row of rows) {
        if (stopped) {
          void giveBack([row]);
          continue;
        }
        const waiting = queued.get(row.webhookId);
        if (waiting) waiting.push({ row, at });
        else queued.set(row.webhookId, [{ row, at }]);
        queuedTotal += 1;
      }
      pump();
    }
  }

  /**
   * After a send: claim a moment later, so that the slots freed meanwhile are claimed together (one claim for several
   * deliveries, not a claim per delivery).
   */
  let soonTimer: NodeJS.Timeout | undefined;
  function soon(): void {
    if (soonTimer || stopped) return;
    soonTimer = setTimeout(() => {
      soonTimer = undefined;
      kick();
    }, COALESCE_MS);
  }

  function kick(): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = (async () => {
      do {
        again = false;
        try {
          await round();
        } catch (error) {
          logger.warn({ err: error }, 'webhook deliveries could not be claimed; trying again');
          await new Promise((resolve) => setTimeout(resolve, FALLBACK_MS));
        }
      } while (again && !stopped);
      claiming = undefined;
    })();
  }

  const maxPending = options.maxPending ?? WEBHOOK_MAX_PENDING;
  /**
   * A receiver slower than its events: every webhook with more than `maxPending` pending deliveries has its oldest
   * ones (not being sent right now) ended FAILED with the reason, and one `webhook.dropped` event saying how many.
   * One process at a time (an advisory lock), so two orchestrators never drop twice for the same excess.
   */
  async function dropExcess(): Promise<void> {
    await pool.transaction(async (tx) => {
      if (!(await tx.oneFirst(sql.type(z.object({ locked: z.boolean() }))`SELECT pg_try_advisory_xact_lock(hashtext('gsm_webhooks_max_pending')) AS locked`)))
        return;
      const dropped = await tx.any(sql.type(z.object({ webhookId: z.string(), dropped: z.number() }))`
        WITH over AS (
          -- room is left for the webhook's own delivery of the notice, when it subscribes to it
          SELECT d.webhook_id, count(*) - ${maxPending} + CASE WHEN 'webhook.dropped' = ANY(w.events) OR '*' = ANY(w.events) THEN 1 ELSE 0 END AS excess
            FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
           WHERE d.status = 'PENDING' AND w.enabled
           GROUP BY d.webhook_id, w.events HAVING count(*) > ${maxPending}),
        dropped AS (
          UPDATE webhook_deliveries d SET status = 'FAILED', lease_until = NULL, lease_token = NULL,
                 last_error = ${`dropped: more than ${maxPending} deliveries were pending for this webhook (WEBHOOK_MAX_PENDING)`}
            FROM over o CROSS JOIN LATERAL (
              SELECT x.id FROM webhook_deliveries x
               WHERE x.webhook_id = o.webhook_id AND x.status = 'PENDING' AND (x.lease_until IS NULL OR x.lease_until < now())
               ORDER BY x.created_at, x.id LIMIT o.excess) oldest
           WHERE d.id = oldest.id
          RETURNING d.webhook_id),
        counted AS (SELECT webhook_id, count(*)::int AS dropped FROM dropped GROUP BY webhook_id),
        recorded AS (
          INSERT INTO events (cluster_id, type, data)
          SELECT w.cluster_id, 'webhook.dropped', jsonb_build_object('webhookId', w.id, 'dropped', c.dropped, 'maxPending', ${maxPending}::int)
            FROM counted c JOIN webhooks w ON w.id = c.webhook_id)
        SELECT webhook_id AS "webhookId", dropped FROM counted`);
      for (const row of dropped) logger.warn({ ...row, maxPending }, 'oldest pending webhook deliveries dropped (a receiver slower than its events)');
    });
  }
  const capping = repeatEvery({
    everyMs: options.pendingCheckMs ?? PENDING_CHECK_MS,
    logger,
    what: 'the webhook pending cap',
    round: async () => {
      await dropExcess();
      return false;
    },
  });

  const listener = await listen({ databaseUrl: options.databaseUrl, channel: 'gsm_webhooks', logger, onPayload: kick });
  const beat = setInterval(kick, FALLBACK_MS);
  kick();
  return {
    kick,
    outcomes: () => ({ ...outcomes }),
    async stop() {
      stopped = true;
      clearInterval(beat);
      await capping.stop();
      clearTimeout(soonTimer);
      await listener.close();
      await claiming;
      await Promise.all([...queued.keys()].map(unqueue));
      // Sends under way finish (each within its time-out) and record their outcome.
      await Promise.allSettled([...sends]);
    },
  };
}
