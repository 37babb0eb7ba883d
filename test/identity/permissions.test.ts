/**
 * Every cluster endpoint × every role × a non-member × an API token outside its scope (docs/access.md), from one
 * table. Each case runs against a fresh cluster, so destructive cases cannot affect others.
 */
import test from 'ava';
import { sql } from 'slonik';
import { z } from 'zod';
import { randomUUID } from 'node:crypto';
import { generateSecret, hashSecret } from '../../schema/secretTokens.ts';
import { createUser } from '../../api/identity/users.ts';
import type { Role } from '../../schema/roles.ts';
import { body, json, useTestApp, type TestApp } from '../support/app.ts';
import { createApiToken, createCluster, signUp, type TestUser } from '../support/identity.ts';

let users: Record<Role | 'NON_MEMBER', TestUser>;
let outOfScopeToken: { Authorization: string };

const app = useTestApp(test, {
  setup: async (started) => {
    users = {
      OWNER: await signUp(started, 'owner'),
      ADMIN: await signUp(started, 'admin'),
      MODERATOR: await signUp(started, 'moderator'),
      VIEWER: await signUp(started, 'viewer'),
      NON_MEMBER: await signUp(started, 'stranger'),
    };
    // The OWNER's own token, scoped to another cluster: the OWNER role does not reach past a token's scope.
    const elsewhere = await createCluster(started, users.OWNER, 'elsewhere');
    outOfScopeToken = (await createApiToken(started, users.OWNER, [elsewhere])).auth;
  },
});

type Caller = Role | 'NON_MEMBER' | 'OUT_OF_SCOPE_TOKEN';
const CALLERS: Caller[] = ['OWNER', 'ADMIN', 'MODERATOR', 'VIEWER', 'NON_MEMBER', 'OUT_OF_SCOPE_TOKEN'];

type Fixture = {
  clusterId: string;
  targetModerator: string;
  targetViewer: string;
  invitationId: string;
  machineId: string;
  serverId: string;
  playerId: string;
  banId: string;
  taskId: string;
};

type Case = {
  name: string;
  request: (fixture: Fixture) => [string, RequestInit?];
  /** Expected status per caller; callers not listed expect 403. */
  expect: Partial<Record<Caller, number>>;
};

const NEW_SERVER = { name: 'new', gameType: 'RUST', gamePort: 40000, queryPort: 40001, rconPort: 40002 };
const ALL_MEMBERS = (status: number) => ({ OWNER: status, ADMIN: status, MODERATOR: status, VIEWER: status });
const MANAGERS = (status: number) => ({ OWNER: status, ADMIN: status });
const MODERATORS = (status: number) => ({ OWNER: status, ADMIN: status, MODERATOR: status });

const CASES: Case[] = [
  { name: 'GET cluster', request: (f) => [`/api/v1/clusters/${f.clusterId}`], expect: ALL_MEMBERS(200) },
  { name: 'PATCH cluster', request: (f) => [`/api/v1/clusters/${f.clusterId}`, json({ name: 'renamed' }, { method: 'PATCH' })], expect: MANAGERS(200) },
  { name: 'DELETE cluster', request: (f) => [`/api/v1/clusters/${f.clusterId}`, { method: 'DELETE' }], expect: { OWNER: 200 } },
  { name: 'GET members', request: (f) => [`/api/v1/clusters/${f.clusterId}/members`], expect: ALL_MEMBERS(200) },
  {
    name: 'PATCH member role',
    request: (f) => [`/api/v1/clusters/${f.clusterId}/members/${f.targetModerator}`, json({ role: 'VIEWER' }, { method: 'PATCH' })],
    expect: MANAGERS(200),
  },
  { name: 'DELETE member', request: (f) => [`/api/v1/clusters/${f.clusterId}/members/${f.targetViewer}`, { method: 'DELETE' }], expect: MANAGERS(200) },
  {
    name: 'leave cluster',
    request: (f) => [`/api/v1/clusters/${f.clusterId}/members/me`, { method: 'DELETE' }],
    expect: { OWNER: 409, ADMIN: 200, MODERATOR: 200, VIEWER: 200 },
  },
  { name: 'GET invitations', request: (f) => [`/api/v1/clusters/${f.clusterId}/invitations`], expect: MANAGERS(200) },
  {
    name: 'POST invitation',
    request: (f) => [`/api/v1/clusters/${f.clusterId}/invitations`, json({ email: 'new@example.test', role: 'VIEWER' })],
    expect: MANAGERS(201),
  },
  { name: 'DELETE invitation', request: (f) => [`/api/v1/clusters/${f.clusterId}/invitations/${f.invitationId}`, { method: 'DELETE' }], expect: MANAGERS(200) },
  { name: 'GET audit log', request: (f) => [`/api/v1/clusters/${f.clusterId}/audit-log`], expect: MANAGERS(200) },
  { name: 'GET machines', request: (f) => [`/api/v1/clusters/${f.clusterId}/machines`], expect: ALL_MEMBERS(200) },
  { name: 'POST machine', request: (f) => [`/api/v1/clusters/${f.clusterId}/machines`, json({ name: 'host' })], expect: MANAGERS(201) },
  { name: 'GET machine', request: (f) => [`/api/v1/machines/${f.machineId}`], expect: ALL_MEMBERS(200) },
  { name: 'DELETE machine (force)', request: (f) => [`/api/v1/machines/${f.machineId}?force=true`, { method: 'DELETE' }], expect: MANAGERS(200) },
  { name: 'rotate agent token', request: (f) => [`/api/v1/machines/${f.machineId}/token`, { method: 'POST' }], expect: MANAGERS(200) },
  { name: 'GET servers', request: (f) => [`/api/v1/clusters/${f.clusterId}/servers`], expect: ALL_MEMBERS(200) },
  { name: 'POST server', request: (f) => [`/api/v1/clusters/${f.clusterId}/servers`, json({ ...NEW_SERVER, machineId: f.machineId })], expect: MANAGERS(201) },
  {
    name: 'POST server (variant)',
    request: (f) => [`/api/v1/servers`, json({ ...NEW_SERVER, clusterId: f.clusterId, machineId: f.machineId })],
    expect: MANAGERS(201),
  },
  { name: 'GET server', request: (f) => [`/api/v1/servers/${f.serverId}`], expect: ALL_MEMBERS(200) },
  { name: 'PATCH server', request: (f) => [`/api/v1/servers/${f.serverId}`, json({ name: 'renamed' }, { method: 'PATCH' })], expect: MANAGERS(200) },
  { name: 'DELETE server', request: (f) => [`/api/v1/servers/${f.serverId}`, { method: 'DELETE' }], expect: MANAGERS(200) },
  ...(['start', 'stop', 'restart', 'kill'] as const).map((action): Case => ({
    name: `POST server ${action}`,
    request: (f) => [`/api/v1/servers/${f.serverId}/${action}`, { method: 'POST' }],
    expect: MANAGERS(202),
  })),
  // The fixture's server is not running: allowed callers get 409, the others 403 first.
  { name: 'POST server rcon', request: (f) => [`/api/v1/servers/${f.serverId}/rcon`, json({ command: 'status' })], expect: MANAGERS(409) },
  { name: 'POST rcon/execute', request: (f) => ['/api/v1/rcon/execute', json({ serverId: f.serverId, command: 'status' })], expect: MANAGERS(409) },
  { name: 'GET cluster jobs', request: (f) => [`/api/v1/clusters/${f.clusterId}/jobs`], expect: ALL_MEMBERS(200) },
  { name: 'GET tasks', request: (f) => [`/api/v1/clusters/${f.clusterId}/tasks`], expect: ALL_MEMBERS(200) },
  {
    name: 'POST task',
    request: (f) => [
      `/api/v1/clusters/${f.clusterId}/tasks`,
      json({ name: 'new', schedule: '0 4 * * *', serverIds: [f.serverId], steps: [{ type: 'RESTART' }] }),
    ],
    expect: MANAGERS(201),
  },
  { name: 'GET task', request: (f) => [`/api/v1/tasks/${f.taskId}`], expect: ALL_MEMBERS(200) },
  { name: 'PATCH task', request: (f) => [`/api/v1/tasks/${f.taskId}`, json({ enabled: false }, { method: 'PATCH' })], expect: MANAGERS(200) },
  { name: 'DELETE task', request: (f) => [`/api/v1/tasks/${f.taskId}`, { method: 'DELETE' }], expect: MANAGERS(200) },
  { name: 'POST task run', request: (f) => [`/api/v1/tasks/${f.taskId}/run`, { method: 'POST' }], expect: MANAGERS(202) },
  { name: 'GET players', request: (f) => [`/api/v1/clusters/${f.clusterId}/players`], expect: ALL_MEMBERS(200) },
  { name: 'GET player stats', request: (f) => [`/api/v1/clusters/${f.clusterId}/players/stats`], expect: ALL_MEMBERS(200) },
  { name: 'GET player', request: (f) => [`/api/v1/players/${f.playerId}`], expect: ALL_MEMBERS(200) },
  { name: 'GET player sessions', request: (f) => [`/api/v1/players/${f.playerId}/sessions`], expect: ALL_MEMBERS(200) },
  { name: 'GET server players', request: (f) => [`/api/v1/servers/${f.serverId}/players`], expect: ALL_MEMBERS(200) },
  {
    name: 'PATCH player',
    request: (f) => [`/api/v1/players/${f.playerId}`, json({ flags: ['vip'], notes: 'note' }, { method: 'PATCH' })],
    expect: MODERATORS(200),
  },
  { name: 'POST purchase', request: (f) => [`/api/v1/players/${f.playerId}/purchases`, json({ productName: 'VIP', amount: 5 })], expect: MODERATORS(201) },
  { name: 'POST kick', request: (f) => [`/api/v1/players/${f.playerId}/kick?wait=0`, json({ reason: 'afk' })], expect: MODERATORS(202) },
  { name: 'POST ban', request: (f) => [`/api/v1/players/${f.playerId}/ban`, json({ serverId: f.serverId, reason: 'x' })], expect: MODERATORS(201) },
  { name: 'GET bans', request: (f) => [`/api/v1/clusters/${f.clusterId}/bans`], expect: ALL_MEMBERS(200) },
  { name: 'GET ban', request: (f) => [`/api/v1/bans/${f.banId}`], expect: ALL_MEMBERS(200) },
  { name: 'DELETE ban', request: (f) => [`/api/v1/bans/${f.banId}`, { method: 'DELETE' }], expect: MODERATORS(200) },
  { name: 'POST unban', request: (f) => [`/api/v1/players/${f.playerId}/unban`, { method: 'POST' }], expect: MODERATORS(200) },
];

async function fixture(target: TestApp): Promise<Fixture> {
  const { pool } = target;
  const clusterId = await pool.oneFirst(sql.type(z.object({ id: z.string() }))`INSERT INTO clusters (name) VALUES ('case') RETURNING id`);
  // Targets never sign in: made without a password, so no password hashing slows the table down.
  const extra = await Promise.all(
    ['target-mod', 'target-viewer'].map((name) => createUser(pool, { email: `${name}-${randomUUID()}@example.test`, displayName: name, tier: 'FREE' })),
  );
  const members: [string, Role][] = [
    [users.OWNER.id, 'OWNER'],
    [users.ADMIN.id, 'ADMIN'],
    [users.MODERATOR.id, 'MODERATOR'],
    [users.VIEWER.id, 'VIEWER'],
    [extra[0]!.id, 'MODERATOR'],
    [extra[1]!.id, 'VIEWER'],
  ];
  for (const [userId, role] of members) {
    await pool.query(sql.unsafe`INSERT INTO cluster_members (cluster_id, user_id, role) VALUES (${clusterId}, ${userId}, ${role})`);
  }
  const invitationId = await pool.oneFirst(sql.type(z.object({ id: z.string() }))`
    INSERT INTO invitations (cluster_id, email, role, token_hash, expires_at)
    VALUES (${clusterId}, 'pending@example.test', 'VIEWER', ${sql.binary(hashSecret(generateSecret('invite')))}, now() + interval '1 day')
    RETURNING id`);
  const machineId = await pool.oneFirst(sql.type(z.object({ id: z.string() }))`
    INSERT INTO machines (cluster_id, name, agent_token_hash) VALUES (${clusterId}, 'host', ${sql.binary(hashSecret(generateSecret('agent')))}) RETURNING id`);
  const serverId = await pool.oneFirst(sql.type(z.object({ id: z.string() }))`
    INSERT INTO servers (cluster_id, machine_id, name, game_type, game_port, query_port, rcon_port, max_players, rcon_password)
    VALUES (${clusterId}, ${machineId}, 'existing', 'RUST', 28015, 28016, 28017, 100, 'rcon-password') RETURNING id`);
  // A player on the server, with an active ban elsewhere in the cluster.
  const playerId = await pool.oneFirst(sql.type(z.object({ id: z.string() }))`
    SELECT gsm_player_event(${serverId}, 'join', '76561198000000000', 'someone', now() - interval '1 minute', 30) AS id`);
  const banId = await pool.oneFirst(sql.type(z.object({ id: z.string() }))`
    INSERT INTO bans (cluster_id, player_id, reason, cluster_wide, created_by) VALUES (${clusterId}, ${playerId}, 'old', true, ${users.OWNER.id}) RETURNING id`);
  const taskId = await pool.oneFirst(sql.type(z.object({ id: z.string() }))`
    INSERT INTO tasks (cluster_id, name, schedule, steps)
    VALUES (${clusterId}, 'existing', '0 4 * * *', ${sql.jsonb([{ type: 'RESTART', delaySeconds: 0, continueOnFailure: false }])}) RETURNING id`);
  await pool.query(sql.unsafe`INSERT INTO task_servers (task_id, server_id, position) VALUES (${taskId}, ${serverId}, 0)`);
  return { clusterId, targetModerator: extra[0]!.id, targetViewer: extra[1]!.id, invitationId, machineId, serverId, playerId, banId, taskId };
}

for (const testCase of CASES) {
  test(`${testCase.name}: status for each role, a non-member and an out-of-scope token`, async (t) => {
    const seen: Record<string, number> = {};
    const wanted: Record<string, number> = {};
    for (const caller of CALLERS) {
      const [path, init = {}] = testCase.request(await fixture(app()));
      const auth = caller === 'OUT_OF_SCOPE_TOKEN' ? outOfScopeToken : users[caller].auth;
      const response = await app().request(path, { ...init, headers: { ...(init.headers as Record<string, string>), ...auth } });
      seen[caller] = response.status;
      wanted[caller] = testCase.expect[caller] ?? 403;
      if (response.status >= 400) t.is((await body(response)).statusCode, response.status);
    }
    t.deepEqual(seen, wanted);
    // Without any token: 401.
    const [path, init = {}] = testCase.request(await fixture(app()));
    t.is((await app().request(path, init)).status, 401);
  });
}

test("the seed's example: ADMIN in A and VIEWER in B creates in A (201), not in B (403), reads B (200)", async (t) => {
  const owner = await signUp(app());
  const user = await signUp(app());
  const a = await createCluster(app(), owner, 'A');
  const b = await createCluster(app(), owner, 'B');
  await app().pool.query(sql.unsafe`INSERT INTO cluster_members (cluster_id, user_id, role) VALUES (${a}, ${user.id}, 'ADMIN'), (${b}, ${user.id}, 'VIEWER')`);
  const token = await createApiToken(app(), user, [a, b]);
  // Servers arrive with the machines issue; inviting a member is the ADMIN-only creation that exists today.
  const create = (clusterId: string, email: string) =>
    app().request(`/api/v1/clusters/${clusterId}/invitations`, json({ email, role: 'VIEWER' }, { headers: token.auth }));
  t.is((await create(a, 'one@example.test')).status, 201);
  t.is((await create(b, 'two@example.test')).status, 403);
  t.is((await app().request(`/api/v1/clusters/${b}`, { headers: token.auth })).status, 200);
  t.is((await app().request(`/api/v1/clusters/${b}/members`, { headers: token.auth })).status, 200);
  const stranger = await signUp(app());
  t.is((await app().request(`/api/v1/clusters/${b}`, { headers: stranger.auth })).status, 403);
});

test('a role change takes effect on the very next request', async (t) => {
  const owner = await signUp(app());
  const member = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  await app().pool.query(sql.unsafe`INSERT INTO cluster_members (cluster_id, user_id, role) VALUES (${clusterId}, ${member.id}, 'ADMIN')`);
  t.is((await app().request(`/api/v1/clusters/${clusterId}/audit-log`, { headers: member.auth })).status, 200);
  await app().request(`/api/v1/clusters/${clusterId}/members/${member.id}`, json({ role: 'VIEWER' }, { method: 'PATCH', headers: owner.auth }));
  t.is((await app().request(`/api/v1/clusters/${clusterId}/audit-log`, { headers: member.auth })).status, 403);
  await app().request(`/api/v1/clusters/${clusterId}/members/${member.id}`, { method: 'DELETE', headers: owner.auth });
  t.is((await app().request(`/api/v1/clusters/${clusterId}`, { headers: member.auth })).status, 403);
});
