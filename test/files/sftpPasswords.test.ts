/**
 * SFTP sign-in with the account's password (docs/sftp.md#password-sign-in), with the real agent and a real SSH client
 * (the ssh2 package's): the password is checked by the service over the agent's connection; the right one signs in, a
 * wrong one, a MODERATOR's or an account without a password are refused; a changed password ends the open session
 * within seconds; wrong passwords are throttled per account (then even the right one is refused), parallel attempts
 * included, and never lock out the user name's keys; at most a few passwords are checked at once; with
 * SFTP_PASSWORD_SIGN_IN off (the default) the service refuses passwords and ends password sessions at their next check.
 */
import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import ssh2 from 'ssh2';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { addMember, PASSWORD, signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createWorld, type World } from '../support/world.ts';
import type { AgentProcess } from '../support/agentProcess.ts';
import { until } from '../support/wait.ts';
import { authenticateSftp, recheckSftpSessions } from '../../orchestrator/sftp/access.ts';
import { SFTP_PASSWORD_CHECKS, SftpThrottle } from '../../orchestrator/sftp/throttle.ts';
import { loadConfig } from '../../schema/config.ts';

const { Client } = ssh2;

let app: GatewayApp;
let owner: TestUser;
let world: World;
let sftpPort: number;
const agents: AgentProcess[] = [];

test.before(async () => {
  // Off by default (the password passes through the machine's agent): on for these tests.
  app = await startGatewayApp({ heartbeatSeconds: 1, authTimeoutMs: 2_000, env: { SFTP_PASSWORD_SIGN_IN: 'true' } });
  owner = await signUp(app);
  world = await createWorld(app, owner, { agents });
  await until(async () => (await machine()).sftp !== null, 'the agent reports its SFTP service');
  sftpPort = (await machine()).sftp.port;
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
});

const machine = async () => body(await app.request(`/api/v1/machines/${world.machineId}`, { headers: owner.auth }));
const handleOf = async (user: TestUser) => (await body(await app.request('/api/v1/account', { headers: user.auth }))).handle as string;
const shortId = (serverId: string) => serverId.replaceAll('-', '').slice(-8);

type Connected = { client: InstanceType<typeof Client>; closed: Promise<void> };

/** Signs in with a password only; rejects with the client's error when refused. */
function connect(username: string, password: string): Promise<Connected> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    const closed = new Promise<void>((done) => client.on('close', () => done()));
    client.on('ready', () => resolve({ client, closed }));
    client.on('error', reject);
    client.connect({ host: '127.0.0.1', port: sftpPort, username, password, readyTimeout: 20_000, hostVerifier: () => true });
  });
}

async function end(session: Connected): Promise<void> {
  session.client.end();
  await session.closed;
}

const sftpOf = (client: InstanceType<typeof Client>) =>
  new Promise<ssh2.SFTPWrapper>((resolve, reject) => client.sftp((error, stream) => (error ? reject(error) : resolve(stream))));

async function member(role: 'ADMIN' | 'MODERATOR') {
  const user = await signUp(app);
  await addMember(app, world.clusterId, user, role);
  return { user, username: `${await handleOf(user)}.${shortId(world.serverId)}` };
}

const REFUSED = { message: /authentication methods failed/ };

test.serial('the account’s password signs in; a wrong one, a MODERATOR’s and an account without a password are refused', async (t) => {
  const { username } = await member('ADMIN');
  const session = await connect(username, PASSWORD);
  const sftp = await sftpOf(session.client);
  await new Promise<void>((resolve, reject) => sftp.writeFile('/by-password.txt', 'hello\n', (error) => (error ? reject(error) : resolve())));
  const read = await new Promise<string>((resolve, reject) =>
    sftp.readFile('/by-password.txt', (error, data) => (error ? reject(error) : resolve(String(data)))),
  );
  t.is(read, 'hello\n');
  await end(session);

  await t.throwsAsync(connect(username, 'not the password'), REFUSED);
  const moderator = await member('MODERATOR');
  await t.throwsAsync(connect(moderator.username, PASSWORD), REFUSED, 'a MODERATOR has no files.sftp');
  // An account made with Steam or Discord has no password: nothing signs it in so.
  const oauthOnly = await member('ADMIN');
  await app.pool.query(sql.unsafe`UPDATE users SET password_hash = NULL WHERE id = ${oauthOnly.user.id}`);
  await t.throwsAsync(connect(oauthOnly.username, PASSWORD), REFUSED);
});

test.serial('a changed password ends the open password session within seconds; the new one signs in', async (t) => {
  const { user, username } = await member('ADMIN');
  const session = await connect(username, PASSWORD);
  const started = Date.now();
  const newPassword = 'another long passphrase 42';
  const changed = await app.request('/api/v1/account/password', json({ currentPassword: PASSWORD, newPassword }, { headers: user.auth }));
  t.is(changed.status, 200, await changed.clone().text());
  await session.closed;
  t.true(Date.now() - started < 5_000, `closed after ${Date.now() - started} ms`);
  await t.throwsAsync(connect(username, PASSWORD), REFUSED);
  await end(await connect(username, newPassword));
});

test.serial('wrong passwords are throttled per account: past the budget even the right one is refused', async (t) => {
  const { user, username } = await member('ADMIN');
  // The account's budget is 5 wrong passwords (one back every 3 minutes); each wrong password costs one.
  for (let attempt = 0; attempt < 6; attempt++) await t.throwsAsync(connect(username, `wrong ${attempt}`), REFUSED);
  await t.throwsAsync(connect(username, PASSWORD), REFUSED, 'the right password, past the budget');
  await until(async () => agents[0]!.lines.some((line) => line.includes('too many attempts')), 'the agent logs the throttle');
  // The same account through another of its servers: the account's budget is spent too.
  const other = await world.addServer({}, { start: false });
  await t.throwsAsync(connect(`${await handleOf(user)}.${shortId(other.id)}`, PASSWORD), REFUSED, 'another server of the same account');
  // Another user is not affected.
  const someone = await member('ADMIN');
  await end(await connect(someone.username, PASSWORD));
});

test.serial('with SFTP_PASSWORD_SIGN_IN off, the service refuses passwords and password sessions fail their next check', async (t) => {
  const { user, username } = await member('ADMIN');
  const attempt = { method: 'password' as const, username, address: '192.0.2.7', password: PASSWORD };
  const on = await authenticateSftp(app.pool, new SftpThrottle(), world.machineId, attempt, { passwords: true });
  t.true(on.allowed);
  const off = await authenticateSftp(app.pool, new SftpThrottle(), world.machineId, attempt, { passwords: false });
  t.false(off.allowed);
  t.regex(off.allowed ? '' : off.reason, /password sign-in is off/);
  const stamp = on.allowed ? on.passwordStamp! : '';
  t.truthy(stamp);
  const session = { sessionId: 's1', userId: user.id, serverId: world.serverId, passwordStamp: stamp };
  t.true((await recheckSftpSessions(app.pool, world.machineId, [session], { passwords: true })).sessions[0]!.allowed);
  t.false((await recheckSftpSessions(app.pool, world.machineId, [session], { passwords: false })).sessions[0]!.allowed);
  t.false((await recheckSftpSessions(app.pool, world.machineId, [{ ...session, passwordStamp: 'stale' }], { passwords: true })).sessions[0]!.allowed);
});

const wrongPassword = (username: string, attempt: number) => ({ method: 'password', username, address: '192.0.2.9', password: `wrong ${attempt}` }) as const;
const checked = (answer: { allowed: boolean; reason?: string }) => !answer.allowed && /permission denied/.test(answer.reason ?? '');

test.serial('parallel wrong passwords spend no more than the account’s budget, and at most a few are checked at once', async (t) => {
  const throttle = new SftpThrottle();
  const on = { passwords: true };
  const { username } = await member('ADMIN');
  const answers = await Promise.all(
    Array.from({ length: 12 }, (_, attempt) => authenticateSftp(app.pool, throttle, world.machineId, wrongPassword(username, attempt), on)),
  );
  t.true(answers.filter(checked).length <= 5, `${answers.filter(checked).length} of 12 parallel wrong passwords were checked`);

  // Wrong passwords for many accounts at once: at most SFTP_PASSWORD_CHECKS are checked, the others refused as busy.
  const names = await Promise.all(Array.from({ length: SFTP_PASSWORD_CHECKS * 2 }, async () => (await member('ADMIN')).username));
  const wide = await Promise.all(names.map((name, attempt) => authenticateSftp(app.pool, throttle, world.machineId, wrongPassword(name, attempt), on)));
  t.true(wide.filter(checked).length <= SFTP_PASSWORD_CHECKS, `${wide.filter(checked).length} checked at once`);
  t.true(wide.some((answer) => !answer.allowed && /too many password sign-ins at once/.test(answer.reason)));
  t.true(wide.every((answer) => !answer.allowed));
  // Afterwards the slots are free again: the right password signs in.
  t.true((await authenticateSftp(app.pool, throttle, world.machineId, { ...wrongPassword(names[0]!, 0), password: PASSWORD }, on)).allowed);
});

test.serial('a stranger’s wrong passwords do not spend the user name’s budget of the member’s keys', async (t) => {
  const throttle = new SftpThrottle();
  const { username } = await member('ADMIN');
  for (let attempt = 0; attempt < 6; attempt++)
    await authenticateSftp(app.pool, throttle, world.machineId, wrongPassword(username, attempt), { passwords: true });
  // Keys not on the account: each refused as such (its own budget is 10), none as "too many attempts".
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const part = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  const blob = Buffer.concat([part(Buffer.from('ssh-ed25519')), part(raw)]).toString('base64');
  for (let attempt = 0; attempt < 9; attempt++) {
    const answer = await authenticateSftp(app.pool, throttle, world.machineId, {
      method: 'publickey',
      username,
      address: '192.0.2.10',
      algorithm: 'ssh-ed25519',
      publicKey: blob,
      signed: false,
    });
    t.true(checked(answer), answer.allowed ? 'allowed' : answer.reason);
  }
});

test('password sign-in is off unless SFTP_PASSWORD_SIGN_IN turns it on', (t) => {
  t.false(loadConfig({}).SFTP_PASSWORD_SIGN_IN);
  t.true(loadConfig({ SFTP_PASSWORD_SIGN_IN: 'true' }).SFTP_PASSWORD_SIGN_IN);
});
