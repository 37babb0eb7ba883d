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
 * A failed attempt is tried again after RETRY_DELAYS_MS (10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h), then the
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
   * Due deliveries for the free slots: a few candidates of each webhook with due work (its own index), then in JS
   * one webhook after the other, least recently served first, each up to its free slots. A dead receiver's backlog
   * therefore never stands in front of another webhook's delivery, and failing receivers never take more than half.
   */
  async function claim(limit: number): Promise<Claimed[]> {
    const failingInFlight = [...inFlight].filter(([id]) => failing.has(id)).reduce((sum, [, count]) => sum + count, 0);
    const failingRoom = Math.max(0, Math.floor(concurrency / 2) - failingInFlight);
    const full = [...inFlight].filter(([id, count]) => count >= limitOf(id) || (failing.has(id) && failingRoom === 0)).map(([id]) => id);
    const candidates = await pool.any(sql.type(z.object({ id: z.string(), webhookId: z.string() }))`
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
      let free = limitOf(webhookId) - (inFlight.get(webhookId) ?? 0);
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
   * Successes are recorded together, a few milliseconds at a time, in one statement (a busy webhook would otherwise
   * cost a round trip per delivery); each waits for its batch to be written.
   */
  let successes: { row: Claimed; attempt: Attempt; done: () => void; failed: (error: unknown) => void }[] = [];
  let successTimer: NodeJS.Timeout | undefined;
  const succeeded = (row: Claimed, attempt: Attempt) =>
    new Promise<void>((done, failed) => {
      successes.push({ row, attempt, done, failed });
      successTimer ??= setTimeout(() => void flushSuccesses(), COALESCE_MS);
    });
  async function flushSuccesses(): Promise<void> {
    successTimer = undefined;
    const batch = successes;
    successes = [];
    try {
      await pool.query(sql.unsafe`
        WITH v AS (
          SELECT * FROM unnest(${sql.array(
            batch.map(({ row }) => row.id),
            'uuid',
          )}::uuid[], ${sql.array(
            batch.map(({ row }) => row.leaseToken),
            'uuid',
          )}::uuid[], ${sql.array(
            batch.map(({ attempt }) => attempt.statusCode ?? 0),
            'int4',
          )}::int[], ${sql.array(
            batch.map(({ attempt }) => attempt.durationMs),
            'int4',
          )}::int[]) AS v(id, token, code, duration)),
        delivered AS (
          UPDATE webhook_deliveries d SET status = 'SUCCEEDED', last_status_code = v.code, last_error = NULL, duration_ms = v.duration,
                 delivered_at = now(), lease_until = NULL, lease_token = NULL
            FROM v WHERE d.id = v.id AND d.lease_token = v.token
          RETURNING d.webhook_id)
        -- the webhooks' runs of failures (if any) end
        UPDATE webhooks SET consecutive_failures = 0 WHERE id IN (SELECT webhook_id FROM delivered) AND consecutive_failures <> 0`);
      for (const entry of batch) entry.done();
    } catch (error) {
      for (const entry of batch) entry.failed(error);
    }
  }

  /** Records the outcome, if this claim still holds the delivery (its lease token unchanged). */
  async function record(row: Claimed, attempt: Attempt, options: { gone?: boolean } = {}): Promise<void> {
    const outcome = attempt.ok ? 'delivered' : !options.gone && delays[row.attempts - row.attemptsBeforeRetry - 1] !== undefined ? 'retrying' : 'failed';
    outcomes[outcome] += 1;
    const error = attempt.error === null ? null : storableText(attempt.error).slice(0, 1000);
    const held = sql.fragment`id = ${row.id} AND lease_token = ${row.leaseToken}`;
    if (attempt.ok) failing.delete(row.webhookId);
    else failing.add(row.webhookId);
    if (attempt.ok) return succeeded(row, attempt);
    const step = row.attempts - row.attemptsBeforeRetry; // 1 for the first attempt (since creation or the last retry)
    const scheduled = options.gone ? undefined : delays[step - 1];
    if (scheduled !== undefined) {
      // A receiver that says when to come back (429, 503 with Retry-After, as Discord does) is not tried sooner.
      const delay = Math.max(scheduled, Math.min(attempt.retryAfterMs ?? 0, 12 * 3_600_000));
      await pool.query(sql.unsafe`
        UPDATE webhook_deliveries SET last_status_code = ${attempt.statusCode}, last_error = ${error}, duration_ms = ${attempt.durationMs},
               next_attempt_at = now() + make_interval(secs => ${delay / 1000}), lease_until = NULL, lease_token = NULL
         WHERE ${held}`);
      return;
    }
    await pool.transaction(async (tx) => {
      const ended = await tx.query(sql.unsafe`
        UPDATE webhook_deliveries SET status = 'FAILED', last_status_code = ${attempt.statusCode}, last_error = ${error},
               duration_ms = ${attempt.durationMs}, lease_until = NULL, lease_token = NULL
         WHERE ${held}`);
      // An event that expired before it could be sent says nothing about the receiver: it does not count.
      if (ended.rowCount === 0 || options.gone) return;
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

  async function deliver(row: Claimed, body: { json: string; type: string } | null): Promise<void> {
    try {
      const attempt: Attempt = body
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
      // An event that is gone will not come back: no retries for it, and it is not the receiver's failure.
      await record(row, attempt, { gone: !body });
    } catch (error) {
      // The outcome could not be written (database away): the lease runs out and the delivery is sent again.
      logger.warn({ err: error, deliveryId: row.id }, 'could not record a webhook delivery; it will be sent again');
    }
  }

  async function round(): Promise<void> {
    while (!stopped && total < concurrency) {
      const rows = await claim(concurrency - total);
      if (rows.length === 0) return;
      for (const row of rows) {
        total += 1;
        inFlight.set(row.webhookId, (inFlight.get(row.webhookId) ?? 0) + 1);
        const sending: Promise<void> = deliver(row, bodyOf(row)).finally(() => {
          total -= 1;
          const left = (inFlight.get(row.webhookId) ?? 1) - 1;
          if (left > 0) inFlight.set(row.webhookId, left);
          else inFlight.delete(row.webhookId);
          sends.delete(sending);
          soon();
        });
        sends.add(sending);
      }
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
      // Sends under way finish (each within its time-out) and record their outcome.
      await Promise.allSettled([...sends]);
    },
  };
}
