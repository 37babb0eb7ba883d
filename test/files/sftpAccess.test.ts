/**
 * Who may sign in to a server's files over SFTP, with the real agent and a real SSH client (the ssh2 package's):
 * the agent's host key is made 0600 and its fingerprint is on the machine's record (and is what the client is shown);
 * `<handle>.<server short id>` with a key on the account of an OWNER or ADMIN signs in; a key not on the account, a
 * MODERATOR, a stranger, a server of another machine, a wrong password or a bad name are refused; an open session ends
 * within seconds when the member is removed, the role lowered or the key deleted; refused attempts are throttled per
 * user name (then even the right key is refused for a while); a template's `files.deny` is refused over SFTP, and a
 * change of the deny list reaches open sessions.
 */
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { sql } from 'slonik';
import { z } from 'zod';
import { body, json } from '../support/app.ts';
import { addMember, signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createWorld, type World } from '../support/world.ts';
import { createFakeServer, registerMachine, type AgentProcess } from '../support/agentProcess.ts';
import { buildAgentPackage } from '../../api/agentPackage.ts';
import { until } from '../support/wait.ts';
import { sshFingerprint } from '../../schema/sshKeys.ts';
import { sshCiphers } from '../../agent/sftp/sftpServer.ts';

const { Client, utils } = ssh2;

let app: GatewayApp;
let owner: TestUser;
let world: World;
let dir: string;
let sftpPort: number;
let hostKeyFingerprint: string;
const agents: AgentProcess[] = [];

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gsm-sftp-'));
  app = await startGatewayApp({ heartbeatSeconds: 1, authTimeoutMs: 2_000 });
  owner = await signUp(app);
  world = await createWorld(app, owner, { agents });
  await until(async () => (await machine()).sftp !== null, 'the agent reports its SFTP service');
  ({ port: sftpPort, hostKeyFingerprint } = (await machine()).sftp);
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
  await rm(dir, { recursive: true, force: true });
});

const machine = async () => body(await app.request(`/api/v1/machines/${world.machineId}`, { headers: owner.auth }));

let made = 0;
/** A key pair made by ssh-keygen: the private key and the public line. */
async function keygen(type = 'ed25519'): Promise<{ privateKey: Buffer; line: string }> {
  const file = join(dir, `key${++made}`);
  execFileSync('ssh-keygen', ['-q', '-t', type, '-N', '', '-C', `k${made}`, '-f', file]);
  return { privateKey: await readFile(file), line: (await readFile(`${file}.pub`, 'utf8')).trim() };
}

async function addKey(user: TestUser, line: string): Promise<string> {
  const response = await app.request('/api/v1/account/ssh-keys', json({ name: `key ${made}`, publicKey: line }, { headers: user.auth }));
  if (response.status !== 201) throw new Error(await response.text());
  return (await body(response)).id;
}

const handleOf = async (user: TestUser) => (await body(await app.request('/api/v1/account', { headers: user.auth }))).handle as string;
const shortId = (serverId: string) => serverId.replaceAll('-', '').slice(-8);

type Connected = { client: InstanceType<typeof Client>; closed: Promise<void>; hostKey: string };

/** Signs in; rejects with the client's error when refused. */
function connect(username: string, privateKey: Buffer | undefined, extra: Record<string, unknown> = {}): Promise<Connected> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    let hostKey = '';
    const closed = new Promise<void>((done) => client.on('close', () => done()));
    client.on('ready', () => resolve({ client, closed, hostKey }));
    client.on('error', reject);
    client.connect({
      host: '127.0.0.1',
      port: sftpPort,
      username,
      ...(privateKey ? { privateKey } : {}),
      readyTimeout: 20_000,
      hostVerifier: (key: Buffer) => {
        hostKey = sshFingerprint(key);
        return true;
      },
      ...extra,
    });
  });
}

const readdir = (client: InstanceType<typeof Client>, path = '/') =>
  new Promise<string[]>((resolve, reject) =>
    client.sftp((error, sftp) => {
      if (error) return reject(error);
      sftp.readdir(path, (listError, list) => (listError ? reject(listError) : resolve(list.map((entry) => entry.filename))));
    }),
  );

/** A member of the world's cluster with `role` and a key on their account. */
async function member(role: 'OWNER' | 'ADMIN' | 'MODERATOR' | 'VIEWER') {
  const user = await signUp(app);
  await addMember(app, world.clusterId, user, role);
  const key = await keygen();
  const keyId = await addKey(user, key.line);
  return { user, key, keyId, username: `${await handleOf(user)}.${shortId(world.serverId)}` };
}

test.serial('the host key is ED25519, kept 0600, and its fingerprint is on the machine record and shown to the client', async (t) => {
  const agent = agents[0]!;
  const keyFile = join(agent.dataDir, 'sftp', 'host_ed25519_key');
  t.is((await stat(keyFile)).mode & 0o777, 0o600);
  t.is((await stat(join(agent.dataDir, 'sftp'))).mode & 0o777, 0o700);
  const parsed = utils.parseKey(await readFile(keyFile));
  t.false(parsed instanceof Error);
  t.is((parsed as { type: string }).type, 'ssh-ed25519');
  t.regex(hostKeyFingerprint, /^SHA256:[A-Za-z0-9+/]{43}$/);
  const { user, key, username } = await member('ADMIN');
  void user;
  const session = await connect(username, key.privateKey);
  t.is(session.hostKey, hostKeyFingerprint);
  session.client.end();
  await session.closed;
});

test.serial('an ADMIN with a key on the account signs in as <handle>.<short id> (and <handle>.<full id>); lastUsedAt is recorded', async (t) => {
  const { user, key, keyId, username } = await member('ADMIN');
  const session = await connect(username, key.privateKey);
  const sftp = await new Promise<unknown>((resolve, reject) => session.client.sftp((error, stream) => (error ? reject(error) : resolve(stream))));
  t.truthy(sftp);
  session.client.end();
  await session.closed;
  const full = await connect(`${await handleOf(user)}.${world.serverId}`, key.privateKey);
  full.client.end();
  await full.closed;
  const lastUsed = await app.pool.oneFirst(
    sql.type(z.object({ at: z.string().nullable() }))`SELECT last_used_at::text AS at FROM ssh_keys WHERE id = ${keyId}`,
  );
  t.truthy(lastUsed);
  // No shell, no command: only the sftp subsystem.
  const again = await connect(username, key.privateKey);
  const shell = await new Promise<Error | undefined>((resolve) => again.client.exec('id', (error) => resolve(error)));
  t.truthy(shell);
  again.client.end();
  await again.closed;
});

test.serial('refused: a key not on the account, a MODERATOR, a VIEWER, a stranger, another machine’s server, a bad name, a wrong password', async (t) => {
  const admin = await member('ADMIN');
  const other = await keygen();
  await t.throwsAsync(connect(admin.username, other.privateKey), { message: /authentication methods failed/ });
  for (const role of ['MODERATOR', 'VIEWER'] as const) {
    const { key, username } = await member(role);
    await t.throwsAsync(connect(username, key.privateKey), { message: /authentication methods failed/ }, role);
  }
  const stranger = await signUp(app);
  const strangerKey = await keygen();
  await addKey(stranger, strangerKey.line);
  await t.throwsAsync(connect(`${await handleOf(stranger)}.${shortId(world.serverId)}`, strangerKey.privateKey), { message: /authentication methods failed/ });
  // A server of the same cluster on another machine is not this agent's to serve.
  const elsewhere = await createWorld(app, owner, { agent: false });
  await addMember(app, elsewhere.clusterId, admin.user, 'ADMIN');
  await t.throwsAsync(connect(`${await handleOf(admin.user)}.${shortId(elsewhere.serverId)}`, admin.key.privateKey), {
    message: /authentication methods failed/,
  });
  for (const name of ['nobody', `${await handleOf(admin.user)}`, `${await handleOf(admin.user)}.zzzzzzzz`, `../${admin.username}`]) {
    await t.throwsAsync(connect(name, admin.key.privateKey), { message: /authentication methods failed/ }, name);
  }
  await t.throwsAsync(connect(admin.username, undefined, { password: 'not the account password' }), { message: /authentication methods failed/ });
});

test.serial('a removed member’s open session is closed within seconds', async (t) => {
  const { user, key, username } = await member('ADMIN');
  const session = await connect(username, key.privateKey);
  t.true((await readdir(session.client).catch(() => [])) !== undefined);
  const started = Date.now();
  const removed = await app.request(`/api/v1/clusters/${world.clusterId}/members/${user.id}`, { method: 'DELETE', headers: owner.auth });
  t.is(removed.status, 200);
  await session.closed;
  t.true(Date.now() - started < 5_000, `closed after ${Date.now() - started} ms`);
  await t.throwsAsync(connect(username, key.privateKey));
});

test.serial('a lowered role (ADMIN → MODERATOR) and a deleted key close the open session within seconds', async (t) => {
  const admin = await member('ADMIN');
  const session = await connect(admin.username, admin.key.privateKey);
  let started = Date.now();
  const lowered = await app.request(
    `/api/v1/clusters/${world.clusterId}/members/${admin.user.id}`,
    json({ role: 'MODERATOR' }, { method: 'PATCH', headers: owner.auth }),
  );
  t.is(lowered.status, 200);
  await session.closed;
  t.true(Date.now() - started < 5_000, `closed after ${Date.now() - started} ms`);

  const other = await member('ADMIN');
  const second = await connect(other.username, other.key.privateKey);
  started = Date.now();
  t.is((await app.request(`/api/v1/account/ssh-keys/${other.keyId}`, { method: 'DELETE', headers: other.user.auth })).status, 200);
  await second.closed;
  t.true(Date.now() - started < 5_000, `closed after ${Date.now() - started} ms`);
  await t.throwsAsync(connect(other.username, other.key.privateKey));
});

test.serial('refused attempts are throttled per user name: past the budget even the right key is refused, and the service says so', async (t) => {
  const { key, username } = await member('ADMIN');
  const wrong = await keygen();
  let attempts = 0;
  // The budget is 10 refused attempts; one wrong key costs one each time.
  for (; attempts < 12; attempts++) await t.throwsAsync(connect(username, wrong.privateKey));
  await t.throwsAsync(connect(username, key.privateKey), { message: /authentication methods failed/ });
  const agent = agents[0]!;
  await until(async () => agent.lines.some((line) => line.includes('too many attempts')), 'the agent logs the throttle');
  // Another user name is not affected.
  const other = await member('ADMIN');
  const session = await connect(other.username, other.key.privateKey);
  session.client.end();
  await session.closed;
});

const put = (client: InstanceType<typeof Client>, path: string, data: string) =>
  new Promise<void>((resolve, reject) =>
    client.sftp((error, sftp) => (error ? reject(error) : sftp.writeFile(path, data, (writeError) => (writeError ? reject(writeError) : resolve())))),
  );
const get = (client: InstanceType<typeof Client>, path: string) =>
  new Promise<string>((resolve, reject) =>
    client.sftp((error, sftp) =>
      error ? reject(error) : sftp.readFile(path, (readError, data) => (readError ? reject(readError) : resolve(data.toString()))),
    ),
  );

test.serial('through the real agent: a file copied in and out; each change is in the cluster’s audit log as the user’s', async (t) => {
  const { user, key, username } = await member('ADMIN');
  const session = await connect(username, key.privateKey);
  await put(session.client, '/server.properties', 'motd=over sftp\n');
  t.is(await get(session.client, '/server.properties'), 'motd=over sftp\n');
  t.true((await readdir(session.client)).includes('server.properties'));
  t.is(await readFile(join(agents[0]!.dataDir, 'servers', world.serverId, 'server.properties'), 'utf8'), 'motd=over sftp\n');
  session.client.end();
  await session.closed;
  await until(
    async () =>
      (
        await app.pool.anyFirst(sql.type(z.object({ action: z.string() }))`
        SELECT action FROM audit_log WHERE cluster_id = ${world.clusterId} AND actor_id = ${user.id} AND target_id = ${world.serverId}`)
      ).includes('server.file_write'),
    'the write is audited',
  );
  const details = await app.pool.oneFirst(sql.type(z.object({ details: z.record(z.string(), z.unknown()) }))`
    SELECT details FROM audit_log WHERE actor_id = ${user.id} AND action = 'server.file_write' ORDER BY at DESC LIMIT 1`);
  t.deepEqual(details, { path: '/server.properties', size: 15, via: 'sftp' });
  // The text written is the newest version in the config history, as the user's, via SFTP.
  await until(
    async () => (await app.pool.exists(sql.unsafe`SELECT 1 FROM file_versions WHERE server_id = ${world.serverId} AND via = 'sftp'`)) === true,
    'the version is kept',
  );
  const version = await app.pool.one(sql.type(z.object({ path: z.string(), content: z.string(), actorId: z.string() }))`
    SELECT path, content, actor_id::text AS "actorId" FROM file_versions WHERE server_id = ${world.serverId} AND via = 'sftp' ORDER BY created_at DESC LIMIT 1`);
  t.deepEqual(version, { path: 'server.properties', content: 'motd=over sftp\n', actorId: user.id });
});

test.serial('every cipher offered carries files both ways, before and after a rekeying (the keys the agent prepares once per connection)', async (t) => {
  const { key, username } = await member('ADMIN');
  const text = randomBytes(96 * 1024).toString('base64');
  // chacha20-poly1305 only where the CPU has no AES instructions (agent/sftp/sftpServer.ts sshCiphers).
  const offered = sshCiphers() ?? ['chacha20-poly1305@openssh.com', 'aes128-gcm@openssh.com', 'aes256-gcm@openssh.com', 'aes128-ctr', 'aes256-ctr'];
  for (const cipher of offered) {
    const session = await connect(username, key.privateKey, { algorithms: { cipher: [cipher], hmac: ['hmac-sha2-256-etm@openssh.com'] } });
    await put(session.client, '/cipher.txt', text);
    t.is(await get(session.client, '/cipher.txt'), text, cipher);
    // The client asks for new keys (ssh2's Client has no rekey() of its own): what it sends meanwhile waits for the
    // new ciphers, on both sides.
    (session.client as unknown as { _protocol: { rekey: () => void } })._protocol.rekey();
    t.is(await get(session.client, '/cipher.txt'), text, `${cipher}, after a rekeying`);
    session.client.end();
    await session.closed;
  }
});

test.serial("a template's files.deny holds over SFTP: denied paths are refused (PERMISSION_DENIED) and left out of listings", async (t) => {
  const made = await app.request(
    `/api/v1/clusters/${world.clusterId}/templates`,
    json(
      {
        id: 'guarded-sftp',
        name: 'Guarded',
        tags: ['test'],
        start: { command: `${process.execPath} -e "setInterval(() => {}, 1000)"` },
        ready: { mode: 'IMMEDIATE' },
        stop: { mode: 'SIGNAL', signal: 'SIGTERM' },
        console: { mode: 'NONE' },
        ports: [{ name: 'game', protocol: 'udp' }],
        files: { deny: ['secrets/', '*.key'] },
      },
      { headers: owner.auth },
    ),
  );
  t.is(made.status, 201);
  const guardedId = (await createFakeServer(app, owner, world.clusterId, world.machineId, { templateId: (await body(made)).id })).id;
  const { user, key } = await member('ADMIN');
  const username = `${await handleOf(user)}.${shortId(guardedId)}`;
  const guardedDir = join(agents[0]!.dataDir, 'servers', guardedId);
  // The agent knows the server once its sync arrived: then a session opens.
  let session: Connected | undefined;
  await until(async () => {
    session = await connect(username, key.privateKey).catch(() => undefined);
    if (!session) return false;
    const ok = await put(session.client, '/notes.txt', 'fine\n').then(
      () => true,
      () => false,
    );
    if (!ok) session.client.end();
    return ok;
  }, 'an SFTP session on the templated server');
  const client = session!.client;
  // A file the game made: SFTP may not read it.
  await writeFile(join(guardedDir, 'server.key'), 'private\n');
  const dirOwner = await stat(guardedDir);
  await chown(join(guardedDir, 'server.key'), dirOwner.uid, dirOwner.gid);

  await t.throwsAsync(get(client, '/server.key'), { code: 3 }, 'read a *.key');
  await t.throwsAsync(put(client, '/server.key', 'overwritten\n'), { code: 3 }, 'write a *.key');
  await t.throwsAsync(put(client, '/config.key', 'new\n'), { code: 3 }, 'create a *.key');
  await t.throwsAsync(put(client, '/secrets/token.txt', 'x\n'), { code: 3 }, 'write below secrets/');
  t.is(await readFile(join(guardedDir, 'server.key'), 'utf8'), 'private\n');
  t.false(existsSync(join(guardedDir, 'config.key')));
  t.is(await get(client, '/notes.txt'), 'fine\n');
  t.deepEqual((await readdir(client)).sort(), ['notes.txt']);
  client.end();
  await session!.closed;
});

test.serial("a change of the cluster's default deny list reaches an open SFTP session's next requests; a file it holds open is read to its end", async (t) => {
  const { key, username } = await member('ADMIN');
  const session = await connect(username, key.privateKey);
  // One subsystem for the whole test: a new one would start a helper with the new list anyway.
  const sftp = await new Promise<ssh2.SFTPWrapper>((resolve, reject) => session.client.sftp((error, stream) => (error ? reject(error) : resolve(stream))));
  const read = (path: string) =>
    new Promise<string>((resolve, reject) => sftp.readFile(path, (error, data) => (error ? reject(error) : resolve(data.toString()))));
  const write = (path: string, data: string) =>
    new Promise<void>((resolve, reject) => sftp.writeFile(path, data, (error) => (error ? reject(error) : resolve())));
  await write('/motd.secret', 'hidden soon\n');
  await write('/plain.txt', 'plain\n');
  const handle = await new Promise<Buffer>((resolve, reject) => sftp.open('/motd.secret', 'r', (error, opened) => (error ? reject(error) : resolve(opened))));
  const patch = (fileDenyList: string[]) =>
    app.request(`/api/v1/clusters/${world.clusterId}`, json({ fileDenyList }, { method: 'PATCH', headers: owner.auth }));
  t.is((await patch(['*.secret'])).status, 200);
  try {
    await until(
      () =>
        read('/motd.secret').then(
          () => false,
          (error: { code?: number }) => error.code === 3,
        ),
      'the open session refuses the newly denied file',
    );
    await t.throwsAsync(write('/other.secret', 'x'), { code: 3 });
    t.is(await read('/plain.txt'), 'plain\n', 'the session goes on');
    const chunk = Buffer.alloc(64);
    const got = await new Promise<number>((resolve, reject) => sftp.read(handle, chunk, 0, 64, 0, (error, bytes) => (error ? reject(error) : resolve(bytes))));
    t.is(chunk.subarray(0, got).toString(), 'hidden soon\n', 'the file opened before the change is read to its end');
  } finally {
    t.is((await patch([])).status, 200);
  }
  await until(
    () =>
      read('/motd.secret').then(
        () => true,
        () => false,
      ),
    'cleared: the file is readable again',
  );
  session.client.end();
  await session.closed;
});

test.serial('the packed agent under Node.js 20 serves SFTP (ssh2 bundled as pure JavaScript)', async (t) => {
  const NODE20 = process.env.GSM_TEST_NODE20 ?? '/usr/bin/node';
  if (!(await stat(NODE20).catch(() => undefined))) return t.fail(`${NODE20} is missing`);
  const pkg = await buildAgentPackage();
  const unpacked = await mkdtemp(join(tmpdir(), 'gsm-sftp-pkg-'));
  execFileSync('tar', ['-xzf', '-', '-C', unpacked], { input: pkg.tgz });
  const registered = await registerMachine(app, owner);
  const fake = await createFakeServer(app, owner, registered.clusterId, registered.machineId);
  const packed = { ...registered, serverId: fake.id };
  const child = spawn(
    NODE20,
    [
      join(unpacked, 'package', 'gsm-agent.mjs'),
      'run',
      '--url',
      app.url,
      '--machine-id',
      packed.machineId,
      '--data-dir',
      join(unpacked, 'data'),
      '--allow-root',
      '--stop-servers-on-exit',
      '--sftp-port',
      '0',
      '--sftp-address',
      '127.0.0.1',
    ],
    { env: { PATH: process.env.PATH, GSM_AGENT_TOKEN: registered.token }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  createInterface({ input: child.stderr }).on('line', (line) => lines.push(line));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  t.teardown(async () => {
    child.kill('SIGTERM');
    await exited;
    await rm(unpacked, { recursive: true, force: true });
  });
  let sftp: { port: number; hostKeyFingerprint: string } | null = null;
  // As long as the other tests that start an agent allow (a loaded CI machine starts Node.js slowly); a time-out shows
  // what the agent printed.
  await until(
    async () => {
      sftp = (await body(await app.request(`/api/v1/machines/${packed.machineId}`, { headers: owner.auth }))).sftp;
      return sftp !== null;
    },
    'the packed agent reports SFTP',
    60_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; the agent printed:\n${lines.join('\n')}`);
  });
  const key = await keygen();
  await addKey(owner, key.line);
  const previous = sftpPort;
  sftpPort = sftp!.port;
  try {
    const session = await connect(`${await handleOf(owner)}.${shortId(packed.serverId)}`, key.privateKey);
    t.is(session.hostKey, sftp!.hostKeyFingerprint);
    await put(session.client, '/from-node20.txt', 'hello');
    t.is(await get(session.client, '/from-node20.txt'), 'hello');
    session.client.end();
    await session.closed;
  } finally {
    sftpPort = previous;
  }
  t.true(lines.some((line) => line.includes('SFTP listening')));
});
