/**
 * A password change racing a reset confirm, another change or a sign-in (docs/access.md): never a 500 or a deadlock,
 * never a session opened with a password that was already replaced, and a refused change changes nothing. The races
 * are made deterministic by holding a row lock in a transaction of the test's own and waiting until the request is
 * blocked on it (seen in pg_stat_activity).
 */
import test from 'ava';
import { sql } from 'slonik';
import { z } from 'zod';
import { body, json, useTestApp, type TestApp } from '../support/app.ts';
import { PASSWORD, signUp, type TestUser } from '../support/identity.ts';
import { startSession } from '../../api/identity/sessions.ts';
import { hashPassword } from '../../schema/passwords.ts';
import { generateSecret, hashSecret } from '../../schema/secretTokens.ts';
import { fromDatabaseError } from '../../api/middleware/databaseErrors.ts';

const getApp = useTestApp(test);
const NEW_PASSWORD = 'a brand new passphrase';

const change = (app: TestApp, user: TestUser, currentPassword = PASSWORD) =>
  app.request('/api/v1/account/password', json({ currentPassword, newPassword: NEW_PASSWORD }, { headers: user.auth }));

async function openReset(app: TestApp, userId: string): Promise<string> {
  const token = generateSecret('reset');
  await app.pool.query(sql.unsafe`
    INSERT INTO password_resets (user_id, token_hash, expires_at) VALUES (${userId}, ${sql.binary(hashSecret(token))}, now() + interval '1 hour')`);
  return token;
}

/**
 * Resolves once `count` queries of the database wait for a lock (the tests of this file run one at a time), or
 * `settled` says the requests ended without waiting.
 */
async function blockedOn(app: TestApp, count: number, settled: () => boolean = () => false): Promise<void> {
  for (;;) {
    const waiting = await app.pool.oneFirst(sql.type(z.object({ n: z.number() }))`
      SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock'`);
    if (waiting >= count || settled()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs `hold` in a transaction kept open until the returned `release` is called. */
async function holding(app: TestApp, hold: (tx: Parameters<Parameters<TestApp['pool']['transaction']>[0]>[0]) => Promise<void>) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let ready!: () => void;
  const held = new Promise<void>((resolve) => (ready = resolve));
  const done = app.pool.transaction(async (tx) => {
    await hold(tx);
    ready();
    await released;
  });
  await held;
  return async () => {
    release();
    await done;
  };
}

test.serial('a change and a reset confirm racing: no deadlock, no 500; the reset link the change spent is refused', async (t) => {
  const app = getApp();
  const user = await signUp(app, 'racer');
  const other = await startSession(app.pool, app.deps.accessTokens, user.id, { ip: null, userAgent: null });
  const token = await openReset(app, user.id);
  // The change stops at ending the other session, after it has locked what it takes before: the reset then runs
  // into those locks. Taken in opposite orders, the two would deadlock here.
  const release = await holding(app, async (tx) => {
    await tx.query(sql.unsafe`SELECT 1 FROM sessions WHERE id = ${other.sessionId} FOR UPDATE`);
  });
  let settled = false;
  const changed = change(app, user).finally(() => (settled = true));
  await blockedOn(app, 1, () => settled);
  const reset = app.request('/auth/password-reset/confirm', json({ token, password: 'a password from the link' })).finally(() => (settled = true));
  await blockedOn(app, 2, () => settled);
  // The reset waits for the links the change holds, before taking anything the change will need: no cycle.
  const waiting = await app.pool.anyFirst(sql.type(z.object({ query: z.string() }))`
    SELECT query FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' ORDER BY query_start`);
  t.regex(waiting[1] ?? '', /FROM password_resets/);
  await release();
  const [changeAnswer, resetAnswer] = await Promise.all([changed, reset]);
  t.is(changeAnswer.status, 200);
  t.is(resetAnswer.status, 400);
  t.is((await body(resetAnswer)).details[0].field, 'token');
  t.is((await app.request('/auth/login', json({ email: user.email, password: NEW_PASSWORD }))).status, 200);
});

test.serial('open reset links stop working after a change', async (t) => {
  const app = getApp();
  const user = await signUp(app, 'links');
  const token = await openReset(app, user.id);
  t.is((await change(app, user)).status, 200);
  const reset = await app.request('/auth/password-reset/confirm', json({ token, password: 'a password from the link' }));
  t.is(reset.status, 400);
  t.is((await app.request('/auth/login', json({ email: user.email, password: NEW_PASSWORD }))).status, 200);
});

test.serial('a password changed meanwhile: the change is 409 and has no side effects', async (t) => {
  const app = getApp();
  const user = await signUp(app, 'meanwhile');
  const other = await startSession(app.pool, app.deps.accessTokens, user.id, { ip: null, userAgent: null });
  await openReset(app, user.id);
  // The change has checked the current password and waits for the reset links; meanwhile the password changes.
  const release = await holding(app, async (tx) => {
    await tx.query(sql.unsafe`SELECT 1 FROM password_resets WHERE user_id = ${user.id} FOR UPDATE`);
    await tx.query(sql.unsafe`UPDATE users SET password_hash = ${await hashPassword('changed elsewhere')} WHERE id = ${user.id}`);
  });
  let settled = false;
  const changed = change(app, user).finally(() => (settled = true));
  await blockedOn(app, 1, () => settled);
  await release();
  const answer = await changed;
  t.is(answer.status, 409);
  t.is((await body(answer)).statusCode, 409);
  t.is((await app.request('/api/v1/account', { headers: { Authorization: `Bearer ${other.accessToken}` } })).status, 200, 'no session ended');
  t.is(
    await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM password_resets WHERE user_id = ${user.id} AND used_at IS NULL`),
    1,
    'the link is still open',
  );
  t.is(await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM audit_log WHERE action = 'user.password_change' AND target_id = ${user.id}`), 0);
  t.is((await app.request('/auth/login', json({ email: user.email, password: 'changed elsewhere' }))).status, 200);
});

test.serial('a sign-in with a password replaced while it was being checked opens no session', async (t) => {
  const app = getApp();
  const user = await signUp(app, 'late');
  const before = await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM sessions WHERE user_id = ${user.id}`);
  // A change holds the user's row with the new password, not yet committed: the sign-in checks the old one.
  const release = await holding(app, async (tx) => {
    await tx.query(sql.unsafe`UPDATE users SET password_hash = ${await hashPassword(NEW_PASSWORD)} WHERE id = ${user.id}`);
  });
  let settled = false;
  const login = app.request('/auth/login', json({ email: user.email, password: PASSWORD })).finally(() => (settled = true));
  await blockedOn(app, 1, () => settled);
  await release();
  t.is((await login).status, 401);
  t.is(await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM sessions WHERE user_id = ${user.id}`), before, 'no session opened');
});

test.serial('a deadlock (past the retries of a transaction) is a 503 with Retry-After, not a 500', async (t) => {
  const app = getApp();
  await app.pool.query(sql.unsafe`CREATE TABLE deadlock_rows (id int PRIMARY KEY)`);
  await app.pool.query(sql.unsafe`INSERT INTO deadlock_rows VALUES (1), (2)`);
  const lockBoth = (first: number, second: number, firstLocked: () => void, otherLocked: Promise<void>) =>
    app.pool.transaction(async (tx) => {
      await tx.query(sql.unsafe`SELECT 1 FROM deadlock_rows WHERE id = ${first} FOR UPDATE`);
      firstLocked();
      await otherLocked;
      await tx.query(sql.unsafe`SELECT 1 FROM deadlock_rows WHERE id = ${second} FOR UPDATE`);
      // No retry: slonik retries a transaction that failed this way, and the test needs the failure itself.
    }, 0);
  let aLocked!: () => void;
  let bLocked!: () => void;
  const a = new Promise<void>((resolve) => (aLocked = resolve));
  const b = new Promise<void>((resolve) => (bLocked = resolve));
  const outcomes = await Promise.allSettled([lockBoth(1, 2, aLocked, b), lockBoth(2, 1, bLocked, a)]);
  const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
  t.is(failed.length, 1, 'Postgres broke the deadlock by undoing one');
  const mapped = fromDatabaseError((failed[0] as PromiseRejectedResult).reason);
  t.is(mapped?.status, 503);
  t.is(mapped?.headers['Retry-After'], '1');
});
