import test from 'ava';
import { spawnSync } from 'node:child_process';
import { sql } from 'slonik';
import { createDatabasePool } from '../../sql/pool.ts';
import { verifyPassword } from '../../schema/passwords.ts';
import { createTestDatabase } from '../support/database.ts';

const run = (databaseUrl: string, ...args: string[]) =>
  spawnSync(process.execPath, ['api/admin.ts', ...args], { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8', timeout: 60_000 });

test('the admin command creates users, resets passwords and sets tiers', async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const pool = await createDatabasePool(database.url, { maxPoolSize: 1 });
  t.teardown(() => pool.end());

  const created = run(database.url, 'create-user', 'Ops@Example.test', 'first password', 'Ops', 'Team');
  t.is(created.status, 0, created.stderr);
  t.regex(created.stdout, /created user .* <ops@example\.test> \(FREE\)/);
  t.is(await pool.oneFirst(sql.unsafe`SELECT display_name FROM users WHERE email = 'ops@example.test'`), 'Ops Team');

  t.is(run(database.url, 'set-tier', 'ops@example.test', 'PRO').status, 0);
  t.is(await pool.oneFirst(sql.unsafe`SELECT tier FROM users WHERE email = 'ops@example.test'`), 'PRO');

  const sessionId = await pool.oneFirst(sql.unsafe`
    INSERT INTO sessions (user_id, expires_at) SELECT id, now() + interval '1 day' FROM users WHERE email = 'ops@example.test' RETURNING id`);
  const reset = run(database.url, 'reset-password', 'ops@example.test', 'second password');
  t.is(reset.status, 0, reset.stderr);
  t.regex(reset.stdout, /every session of the user has ended, its API tokens and SSH keys are deleted and Steam\/Discord unlinked/);
  t.is(
    await pool.oneFirst(
      sql.unsafe`SELECT count(*)::int FROM audit_log WHERE action = 'user.password_reset' AND actor_kind = 'SYSTEM' AND actor_name = 'npm run admin'`,
    ),
    1,
    'the reset is audited',
  );
  t.not(
    await pool.oneFirst(sql.unsafe`SELECT revoked_at FROM sessions WHERE id = ${String(sessionId)}`),
    null,
    'a reset ends the sessions of the old password',
  );
  const hash = String(await pool.oneFirst(sql.unsafe`SELECT password_hash FROM users WHERE email = 'ops@example.test'`));
  t.true(await verifyPassword('second password', hash));

  t.is(run(database.url, 'set-tier', 'ops@example.test', 'GOLD').status, 2);
  t.is(run(database.url, 'set-tier', 'nobody@example.test', 'PRO').status, 1);
  const duplicate = run(database.url, 'create-user', 'OPS@example.test', 'another password');
  t.is(duplicate.status, 1, 'duplicate e-mail');
  t.is(duplicate.stderr.trim(), 'admin: a user with this e-mail already exists');
  t.is(run(database.url).status, 2);
});

test('admin failures are one line, never a stack trace; a password may come on standard input', async (t) => {
  const unreachable = run('postgres://postgres@127.0.0.1:1/nothing', 'create-user', 'ops@example.test', 'long enough password');
  t.is(unreachable.status, 1);
  t.is(unreachable.stderr.trim().split('\n').length, 1, unreachable.stderr);
  t.regex(unreachable.stderr, /^admin: /);
  t.notRegex(unreachable.stderr, /\n\s+at /);

  const badConfig = spawnSync(process.execPath, ['api/admin.ts', 'create-user', 'ops@example.test', 'long enough password'], {
    env: { ...process.env, DATABASE_URL: 'mysql://nope', PORT: 'abc' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.is(badConfig.status, 1);
  t.is(badConfig.stderr.trim().split('\n').length, 1, badConfig.stderr);
  t.regex(badConfig.stderr, /DATABASE_URL/);
  t.regex(badConfig.stderr, /PORT/);

  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const fromStdin = spawnSync(process.execPath, ['api/admin.ts', 'create-user', 'stdin@example.test', '-'], {
    env: { ...process.env, DATABASE_URL: database.url },
    input: 'typed, not in ps\n',
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.is(fromStdin.status, 0, fromStdin.stderr);
  const pool = await createDatabasePool(database.url, { maxPoolSize: 1 });
  t.teardown(() => pool.end());
  t.true(await verifyPassword('typed, not in ps', String(await pool.oneFirst(sql.unsafe`SELECT password_hash FROM users WHERE email = 'stdin@example.test'`))));
  const short = spawnSync(process.execPath, ['api/admin.ts', 'reset-password', 'stdin@example.test'], {
    env: { ...process.env, DATABASE_URL: database.url },
    input: 'short\n',
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.is(short.status, 2);
  t.regex(short.stderr, /at least/);
});

test('create-user refuses a display name the API would refuse, with one clear line and nothing created', async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const pool = await createDatabasePool(database.url, { maxPoolSize: 1 });
  t.teardown(() => pool.end());

  const cases: [string[], RegExp][] = [
    [['Ops\nYour account was suspended'], /^the display name must be one line without control characters/],
    [['Ops\u202Etxt.exe'], /^the display name must be one line without control characters/],
    [['\u00ad'], /^the display name must contain a visible character$/],
    [['x'.repeat(65)], /^the display name must be at most 64 characters$/],
  ];
  for (const [words, message] of cases) {
    const refused = run(database.url, 'create-user', 'ops@example.test', 'long enough password', ...words);
    t.is(refused.status, 2, `${JSON.stringify(words)}: ${refused.stderr}`);
    t.is(refused.stderr.trim().split('\n').length, 1, refused.stderr);
    t.regex(refused.stderr.trim(), message);
  }
  t.is(await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM users`), 0);

  // Trimmed like any name.
  const created = run(database.url, 'create-user', 'ops@example.test', 'long enough password', ' Ops ', ' Team ');
  t.is(created.status, 0, created.stderr);
  t.is(await pool.oneFirst(sql.unsafe`SELECT display_name FROM users WHERE email = 'ops@example.test'`), 'Ops   Team');
});

test('ADMIN_EMAIL and ADMIN_PASSWORD create the first user at start-up, once', async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const { bootstrapAdmin } = await import('../../api/identity/users.ts');
  const { createLogger } = await import('../../schema/logger.ts');
  const pool = await createDatabasePool(database.url, { maxPoolSize: 4 });
  t.teardown(() => pool.end());
  const options = { email: 'root@example.test', password: 'bootstrap password', tier: 'FREE' as const, logger: createLogger('silent') };
  await Promise.all([bootstrapAdmin(pool, options), bootstrapAdmin(pool, options), bootstrapAdmin(pool, options)]);
  t.is(await pool.oneFirst(sql.unsafe`SELECT count(*) FROM users`), 1);
  await bootstrapAdmin(pool, { ...options, email: 'other@example.test' });
  t.is(await pool.oneFirst(sql.unsafe`SELECT count(*) FROM users`), 1, 'not when a user exists');
});
