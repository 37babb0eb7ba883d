/**
 * SSH keys on the account (`/api/v1/account/ssh-keys`): OpenSSH public keys made by `ssh-keygen` are accepted and
 * fingerprinted exactly as `ssh-keygen -l` prints them; small RSA keys, broken keys, PEM, certificates and junk are
 * 400 and store nothing; the same key twice is 409; keys are the account's own (another user's key is 404); an API
 * token may list them but not add or delete them; a password reset deletes them. Every user has a unique handle, the
 * first part of the SFTP name.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'slonik';
import { z } from 'zod';
import { useTestApp, body, json, type TestApp } from '../support/app.ts';
import { createApiToken, createCluster, signUp } from '../support/identity.ts';
import { createUser, setPassword } from '../../api/identity/users.ts';
import { parseSshPublicKey } from '../../schema/sshKeys.ts';

const app = useTestApp(test);
let dir: string;
test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gsm-keys-'));
});
test.after.always(async () => {
  await rm(dir, { recursive: true, force: true });
});

let made = 0;
/** A real key pair made by ssh-keygen: its public line and the fingerprint ssh-keygen prints. */
async function keygen(type: string, bits?: number): Promise<{ line: string; fingerprint: string }> {
  const file = join(dir, `key${++made}`);
  execFileSync('ssh-keygen', ['-q', '-t', type, ...(bits ? ['-b', String(bits)] : []), '-N', '', '-C', `test${made}@example`, '-f', file]);
  const line = (await readFile(`${file}.pub`, 'utf8')).trim();
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`], { encoding: 'utf8' }).split(' ')[1]!;
  return { line, fingerprint };
}

const add = (a: TestApp, auth: Record<string, string>, name: string, publicKey: string) =>
  a.request('/api/v1/account/ssh-keys', json({ name, publicKey }, { headers: auth }));

test('ed25519, ecdsa and rsa (2048+) keys are accepted and fingerprinted as ssh-keygen prints them; listed newest first; deleted', async (t) => {
  const user = await signUp(app());
  const keys = [
    { ...(await keygen('ed25519')), algorithm: 'ssh-ed25519', bits: 256 },
    { ...(await keygen('ecdsa', 256)), algorithm: 'ecdsa-sha2-nistp256', bits: 256 },
    { ...(await keygen('ecdsa', 384)), algorithm: 'ecdsa-sha2-nistp384', bits: 384 },
    { ...(await keygen('ecdsa', 521)), algorithm: 'ecdsa-sha2-nistp521', bits: 521 },
    { ...(await keygen('rsa', 2048)), algorithm: 'ssh-rsa', bits: 2048 },
  ];
  const ids: string[] = [];
  for (const [index, key] of keys.entries()) {
    const response = await add(app(), user.auth, `key ${index}`, key.line);
    t.is(response.status, 201, key.algorithm);
    const created = await body(response);
    t.like(created, { name: `key ${index}`, algorithm: key.algorithm, bits: key.bits, fingerprint: key.fingerprint, lastUsedAt: null });
    // The key as stored, without its comment.
    t.is(created.publicKey, key.line.split(' ').slice(0, 2).join(' '));
    ids.push(created.id);
  }
  const listed = await body(await app().request('/api/v1/account/ssh-keys', { headers: user.auth }));
  t.deepEqual(
    listed.keys.map((key: { id: string }) => key.id),
    [...ids].reverse(),
  );

  const deleted = await app().request(`/api/v1/account/ssh-keys/${ids[0]}`, { method: 'DELETE', headers: user.auth });
  t.is(deleted.status, 200);
  t.is((await app().request(`/api/v1/account/ssh-keys/${ids[0]}`, { method: 'DELETE', headers: user.auth })).status, 404);
  t.is((await body(await app().request('/api/v1/account/ssh-keys', { headers: user.auth }))).keys.length, keys.length - 1);
  const audit = await app().pool.anyFirst(
    sql.type(z.object({ action: z.string() }))`SELECT action FROM audit_log WHERE actor_id = ${user.id} AND action LIKE 'ssh_key.%' ORDER BY at, id`,
  );
  t.deepEqual(audit, [...keys.map(() => 'ssh_key.create'), 'ssh_key.delete']);
});

test('bad keys are 400 with the reason and store nothing: small RSA, broken point, truncated, PEM, certificate, junk, two lines', async (t) => {
  const user = await signUp(app());
  const small = await keygen('rsa', 1024);
  const good = (await keygen('ed25519')).line;
  const [type, base64] = good.split(' ') as [string, string];
  const blob = Buffer.from(base64, 'base64');
  // An Ed25519 key is 32 bytes; an ECDSA key must be a point on its curve.
  const ecdsa = (await keygen('ecdsa', 256)).line.split(' ')[1]!;
  const offCurve = Buffer.from(ecdsa, 'base64');
  offCurve[offCurve.length - 1] ^= 0x01;
  const cases: [string, RegExp][] = [
    [small.line, /at least 2048 bits/],
    [`${type} ${blob.subarray(0, blob.length - 3).toString('base64')}`, /truncated|not an Ed25519/],
    [`ecdsa-sha2-nistp256 ${offCurve.toString('base64')}`, /not a valid public key/],
    [`ssh-rsa ${base64}`, /says it is \\"ssh-ed25519\\"/],
    ['-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----', /PEM|one line/],
    [`ssh-ed25519-cert-v01@openssh.com ${base64}`, /certificates/],
    [`ssh-dss ${base64}`, /not accepted|says it is/],
    ['hello world', /OpenSSH public key|base64/],
    [`${good}\n${good}`, /one key on one line/],
    [`${type} ${base64}%%`, /OpenSSH public key|base64/],
  ];
  for (const [publicKey, message] of cases) {
    const response = await add(app(), user.auth, 'bad', publicKey);
    t.is(response.status, 400, publicKey.slice(0, 60));
    const answer = await body(response);
    t.regex(JSON.stringify(answer.details ?? answer.message), message, publicKey.slice(0, 60));
  }
  t.deepEqual((await body(await app().request('/api/v1/account/ssh-keys', { headers: user.auth }))).keys, []);
  // Names follow the usual rules; an unknown field is refused.
  t.is((await add(app(), user.auth, '', good)).status, 400);
  t.is((await app().request('/api/v1/account/ssh-keys', json({ name: 'x', publicKey: good, extra: 1 }, { headers: user.auth }))).status, 400);
  t.is((await app().request('/api/v1/account/ssh-keys', json({ name: 'x\u0000', publicKey: good }, { headers: user.auth }))).status, 400);
});

test('the same key twice is 409; another user may register it; keys are the account own (404 for another user)', async (t) => {
  const [alice, bob] = [await signUp(app()), await signUp(app())];
  const key = await keygen('ed25519');
  const first = await body(await add(app(), alice.auth, 'laptop', key.line));
  const again = await add(app(), alice.auth, 'again', key.line);
  t.is(again.status, 409);
  t.regex((await body(again)).message, /already on your account \(as "laptop"\)/);
  t.is((await add(app(), bob.auth, 'shared', key.line)).status, 201);
  t.is((await app().request(`/api/v1/account/ssh-keys/${first.id}`, { method: 'DELETE', headers: bob.auth })).status, 404);
  t.is((await app().request('/api/v1/account/ssh-keys/not-an-id', { method: 'DELETE', headers: bob.auth })).status, 404);
  t.is((await body(await app().request('/api/v1/account/ssh-keys', { headers: alice.auth }))).keys.length, 1);
});

test('an API token lists keys but may not add or delete them (403)', async (t) => {
  const user = await signUp(app());
  const clusterId = await createCluster(app(), user);
  const token = await createApiToken(app(), user, [clusterId]);
  const key = await keygen('ed25519');
  const refused = await add(app(), token.auth, 'from a token', key.line);
  t.is(refused.status, 403);
  const created = await body(await add(app(), user.auth, 'from a session', key.line));
  t.is((await body(await app().request('/api/v1/account/ssh-keys', { headers: token.auth }))).keys.length, 1);
  t.is((await app().request(`/api/v1/account/ssh-keys/${created.id}`, { method: 'DELETE', headers: token.auth })).status, 403);
  t.is((await app().request('/api/v1/account/ssh-keys')).status, 401);
});

test('every user has a unique handle from the e-mail address (the SFTP name), shown on the account', async (t) => {
  const a = await createUser(app().pool, { email: 'Ann.Lee+games@example.test', displayName: 'Ann', password: 'correct horse', tier: 'FREE' });
  const b = await createUser(app().pool, { email: 'annlee@other.test', displayName: 'Ann 2', password: 'correct horse', tier: 'FREE' });
  const c = await createUser(app().pool, { email: '___@example.test', displayName: 'No letters', password: 'correct horse', tier: 'FREE' });
  const handles = await app().pool.anyFirst(
    sql.type(z.object({ handle: z.string() }))`
      SELECT handle FROM users WHERE id = ANY(${sql.array([a.id, b.id, c.id], 'uuid')}) ORDER BY created_at`,
  );
  t.deepEqual(handles, ['annleegames', 'annlee', 'user']);
  const d = await createUser(app().pool, { email: 'annlee@third.test', displayName: 'Ann 3', password: 'correct horse', tier: 'FREE' });
  t.is(d.handle, 'annlee1');
  const user = await signUp(app());
  const account = await body(await app().request('/api/v1/account', { headers: user.auth }));
  t.regex(account.handle, /^user\d+[a-z0-9]*$/);
});

test('the parser matches ssh-keygen on every kind and keeps the comment', (t) => {
  const key = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl  me@laptop ';
  const parsed = parseSshPublicKey(key);
  t.is(parsed.algorithm, 'ssh-ed25519');
  t.is(parsed.comment, 'me@laptop');
  t.regex(parsed.fingerprint, /^SHA256:[A-Za-z0-9+/]{43}$/);
});

test('a password reset deletes the account’s SSH keys (whoever added one loses SFTP with it); other accounts keep theirs', async (t) => {
  const a = app();
  const user = await signUp(a);
  const other = await signUp(a);
  t.is((await add(a, user.auth, 'laptop', (await keygen('ed25519')).line)).status, 201);
  t.is((await add(a, other.auth, 'desk', (await keygen('ed25519')).line)).status, 201);
  const count = (userId: string) =>
    a.pool.oneFirst(sql.type(z.object({ count: z.number() }))`SELECT count(*)::int AS count FROM ssh_keys WHERE user_id = ${userId}`);
  t.is(await count(user.id), 1);
  t.is(await setPassword(a.pool, user.email, 'a new long passphrase 7'), user.id);
  t.is(await count(user.id), 0);
  t.is(await count(other.id), 1);
});
