/**
 * The install line's single-use registration codes (docs/agent.md#installing-it) against a real service and gateway:
 * a code yields a working agent token once; a second use, a replaced code and an expired one are refused with a message
 * saying what to do; of concurrent exchanges exactly one wins, of concurrent requests for a line exactly one code stays
 * live; a new line for an existing machine makes a new token that replaces the old one when it first connects;
 * expired codes lose their sealed token and old rows go; codes are stored hashed and audited; the exchange is limited per address.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json, startTestApp, type TestApp } from '../support/app.ts';
import { addMember, createCluster, signUp, type TestUser } from '../support/identity.ts';
import { socketIoAgent, startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { assertBurst, spendBurst, DOCUMENTED_BUDGETS } from '../support/burst.ts';

let app: GatewayApp;
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, authTimeoutMs: 2_000 });
});
test.after.always(async () => {
  await app?.close();
});

const CODE = /'(gsm_install_[0-9A-Za-z]{43})'/;
const codeOf = (install: { command: string }) => CODE.exec(install.command)![1]!;
const exchange = (code: unknown, target: Pick<TestApp, 'request'> = app) => target.request('/agent/register', json({ code }));

async function register(owner?: TestUser) {
  const user = owner ?? (await signUp(app));
  const clusterId = await createCluster(app, user);
  const registered = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: user.auth })));
  return { user, clusterId, machineId: registered.id as string, registered };
}

/** Whether the gateway accepts `token` for `machineId` (the agent is disconnected again either way). */
async function authenticates(token: string, machineId: string): Promise<boolean> {
  const agent = await socketIoAgent(app);
  agent.send('auth', { token, machineId, version: '0.1.0' });
  const answer = await Promise.race([agent.next('authenticated').then(() => true), agent.next('error').then(() => false)]);
  agent.close();
  return answer;
}

const auditActions = async (machineId: string) =>
  (await app.pool.any(
    sql.unsafe`SELECT action, actor_kind AS "actorKind" FROM audit_log WHERE target_id = ${machineId} AND action LIKE 'machine.install_code%' ORDER BY id`,
  )) as { action: string; actorKind: string }[];

test("registration's line carries a one-hour code, not the token; the code yields that token once", async (t) => {
  const { machineId, registered } = await register();
  const { command, expiresAt } = registered.install as { command: string; expiresAt: string };
  t.false(command.includes(registered.agentToken), 'the long-lived token is not in the line');
  const minutes = (Date.parse(expiresAt) - Date.now()) / 60_000;
  t.true(minutes > 55 && minutes <= 60, `expires in ${minutes} min`);
  const code = codeOf(registered.install);

  const stored = await app.pool.one(
    sql.unsafe`SELECT encode(code_hash, 'hex') AS hash, encode(sealed_token, 'escape') AS sealed FROM agent_install_codes WHERE machine_id = ${machineId}`,
  );
  t.is(String((stored as { hash: string }).hash).length, 64, 'only the SHA-256 of the code is kept');
  t.false(String((stored as { sealed: string }).sealed).includes(registered.agentToken), 'the token is kept sealed');

  const first = await exchange(code);
  t.is(first.status, 200);
  const answer = await body(first);
  t.deepEqual(answer, { machineId, agentToken: registered.agentToken, connect: registered.connect });
  t.true(await authenticates(answer.agentToken, machineId));

  const again = await exchange(code);
  t.is(again.status, 410);
  const refused = await body(again);
  t.like(refused, { statusCode: 410, error: 'Gone' });
  t.regex(refused.message, /already used .*new install line/);
  t.is(
    await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM agent_install_codes WHERE sealed_token IS NOT NULL AND machine_id = ${machineId}`),
    0,
    'nothing left to unseal once used',
  );
  t.deepEqual(await auditActions(machineId), [
    { action: 'machine.install_code_create', actorKind: 'USER' },
    { action: 'machine.install_code_use', actorKind: 'ANONYMOUS' },
  ]);
});

test('of concurrent exchanges of one code exactly one gets the token', async (t) => {
  const { registered } = await register();
  const code = codeOf(registered.install);
  const answers = await Promise.all(Array.from({ length: 8 }, () => exchange(code)));
  t.deepEqual(answers.map((answer) => answer.status).sort(), [200, 410, 410, 410, 410, 410, 410, 410]);
});

test('an expired code, an unknown code and a malformed one are refused clearly and change nothing', async (t) => {
  const { machineId, registered } = await register();
  const code = codeOf(registered.install);
  await app.pool.query(sql.unsafe`UPDATE agent_install_codes SET expires_at = now() - interval '1 second' WHERE machine_id = ${machineId}`);
  const expired = await exchange(code);
  t.is(expired.status, 410);
  t.regex((await body(expired)).message, /expired at .*one hour.*new install line/);

  const unknown = await exchange(`gsm_install_${'A'.repeat(43)}`);
  t.is(unknown.status, 404);
  t.regex((await body(unknown)).message, /unknown/);
  for (const bad of [registered.agentToken, 'nope', 42, null]) {
    const answer = await exchange(bad);
    t.is(answer.status, 400, String(bad));
    t.like(await body(answer), { statusCode: 400, error: 'Bad Request', details: [{ field: 'code' }] });
  }
  t.is(await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM agent_install_codes WHERE used_at IS NOT NULL AND machine_id = ${machineId}`), 0);
  t.true(await authenticates(registered.agentToken, machineId), 'the token still works');
});

test('a new install line for an existing machine: a new token that replaces the old one when the code is used', async (t) => {
  const { user, machineId, registered } = await register();
  const response = await app.request(`/api/v1/machines/${machineId}/install-code`, json({}, { headers: user.auth }));
  t.is(response.status, 201);
  const fresh = await body(response);
  t.deepEqual(Object.keys(fresh).sort(), ['connect', 'install']);
  t.false('agentToken' in fresh);

  // The registration's code is replaced by the newer one.
  const old = await exchange(codeOf(registered.install));
  t.is(old.status, 410);
  t.regex((await body(old)).message, /replaced by a newer one/);

  // Until the new code is used, the machine's token keeps working (an agent stays connected meanwhile).
  t.true(await authenticates(registered.agentToken, machineId));
  const connected = await socketIoAgent(app);
  connected.send('auth', { token: registered.agentToken, machineId, version: '0.1.0' });
  await connected.next('authenticated');

  const used = await body(await exchange(codeOf(fresh.install)));
  t.is(used.machineId, machineId);
  t.not(used.agentToken, registered.agentToken);
  // The answer may be lost or the install fail: until the new token is used, the old one still works and its agent
  // stays connected.
  t.false(connected.isClosed(), 'the running agent is not disconnected by the exchange');
  t.true(await authenticates(registered.agentToken, machineId), 'the old token works until the new one is used');
  t.true(await authenticates(used.agentToken, machineId), 'the new token works, and from now on is the only one');
  t.false(await authenticates(registered.agentToken, machineId), 'the old token stops working');
  t.true(await authenticates(used.agentToken, machineId));
  await connected.closed; // the old connection was replaced by the new one
  t.true(connected.isClosed());
  t.is(await app.pool.oneFirst(sql.unsafe`SELECT pending_token_hash IS NULL FROM machines WHERE id = ${machineId}`), true);
});

test('a new token never used stays pending: a rotation drops it, and it then does not authenticate', async (t) => {
  const { user, machineId } = await register();
  const fresh = await body(await app.request(`/api/v1/machines/${machineId}/install-code`, json({}, { headers: user.auth })));
  const pending = (await body(await exchange(codeOf(fresh.install)))).agentToken as string;
  const rotated = await body(await app.request(`/api/v1/machines/${machineId}/token`, json({}, { headers: user.auth })));
  t.false(await authenticates(pending, machineId), 'the pending token went with the rotation');
  t.true(await authenticates(rotated.agentToken, machineId));
});

test('concurrent requests for a new line leave exactly one live code, the last one made', async (t) => {
  const { user, machineId } = await register();
  const answers = await Promise.all(
    Array.from({ length: 6 }, () => app.request(`/api/v1/machines/${machineId}/install-code`, json({}, { headers: user.auth }))),
  );
  t.deepEqual(
    answers.map((answer) => answer.status),
    [201, 201, 201, 201, 201, 201],
  );
  const lines = await Promise.all(answers.map((answer) => body(answer)));
  const live = await app.pool.oneFirst(
    sql.unsafe`SELECT count(*)::int FROM agent_install_codes WHERE machine_id = ${machineId} AND used_at IS NULL AND replaced_at IS NULL`,
  );
  t.is(live, 1);
  const statuses = [];
  for (const line of lines) statuses.push((await exchange(codeOf(line.install))).status);
  t.deepEqual(
    statuses.filter((status) => status === 200),
    [200],
    'only one of the lines installs',
  );
});

test('an expired code keeps no sealed token once another line is made; rows older than 30 days are deleted', async (t) => {
  const { user, machineId, registered } = await register();
  const other = await register(user);
  await app.pool.query(sql.unsafe`UPDATE agent_install_codes SET expires_at = now() - interval '1 second' WHERE machine_id = ${machineId}`);
  await app.pool.query(
    sql.unsafe`UPDATE agent_install_codes SET created_at = now() - interval '31 days', expires_at = now() - interval '31 days' WHERE machine_id = ${other.machineId}`,
  );
  // Any new line sweeps (here one for a third machine).
  await register(user);
  t.is(
    await app.pool.oneFirst(
      sql.unsafe`SELECT sealed_token IS NULL FROM agent_install_codes WHERE code_hash = sha256(convert_to(${codeOf(registered.install)}, 'UTF8'))`,
    ),
    true,
    'nothing left to unseal in an expired code',
  );
  t.is(
    await app.pool.oneFirst(
      sql.unsafe`SELECT count(*)::int FROM agent_install_codes WHERE code_hash = sha256(convert_to(${codeOf(other.registered.install)}, 'UTF8'))`,
    ),
    0,
    'a 31-day-old row is gone',
  );
});

test("a registration's code is used up when an agent first connects with the token it yields", async (t) => {
  const { machineId, registered } = await register();
  t.true(await authenticates(registered.agentToken, machineId));
  const row = await app.pool.one(
    sql.unsafe`SELECT used_at IS NOT NULL AS used, sealed_token IS NULL AS emptied FROM agent_install_codes WHERE machine_id = ${machineId}`,
  );
  t.deepEqual(row, { used: true, emptied: true });
  const late = await exchange(codeOf(registered.install));
  t.is(late.status, 410);
  t.regex((await body(late)).message, /already used/);
});

test('rotating the token answers a line for the new token; the earlier line stops working', async (t) => {
  const { user, machineId, registered } = await register();
  const rotated = await body(await app.request(`/api/v1/machines/${machineId}/token`, json({}, { headers: user.auth })));
  t.false(rotated.install.command.includes(rotated.agentToken));
  t.is((await exchange(codeOf(registered.install))).status, 410);
  const used = await body(await exchange(codeOf(rotated.install)));
  t.is(used.agentToken, rotated.agentToken);
});

test('only an OWNER or ADMIN may make an install line; others are refused and no code is made', async (t) => {
  const { user, clusterId, machineId } = await register();
  const moderator = await signUp(app);
  await addMember(app, clusterId, moderator, 'MODERATOR');
  const stranger = await signUp(app);
  const before = await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM agent_install_codes WHERE machine_id = ${machineId}`);
  t.is((await app.request(`/api/v1/machines/${machineId}/install-code`, json({}, { headers: moderator.auth }))).status, 403);
  t.is((await app.request(`/api/v1/machines/${machineId}/install-code`, json({}, { headers: stranger.auth }))).status, 403);
  t.is((await app.request(`/api/v1/machines/${machineId}/install-code`, json({}))).status, 401);
  t.is((await app.request(`/api/v1/machines/0192f0c4-1a2b-7c3d-8e4f-0123456789ab/install-code`, json({}, { headers: user.auth }))).status, 404);
  t.is(await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM agent_install_codes WHERE machine_id = ${machineId}`), before);
});

test('the exchange is limited per address like sign-in: 10, then 429', async (t) => {
  const limited = await startTestApp({ RATE_LIMIT: 'on' });
  t.teardown(() => limited.close());
  const spent = await spendBurst(() => exchange(`gsm_install_${'B'.repeat(43)}`, limited), DOCUMENTED_BUDGETS.SIGN_IN);
  assertBurst(t, spent, DOCUMENTED_BUDGETS.SIGN_IN);
  t.true(spent.answers.slice(0, -1).every((answer) => answer.status === 404));
});
