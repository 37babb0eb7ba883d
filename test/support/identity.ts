/**
 * Identity helpers for tests: users made directly in the database (registration closes after the first user), signed
 * in through the real login endpoint; clusters, members and API tokens made through the real API.
 */
import { sql } from 'slonik';
import { createUser } from '../../api/identity/users.ts';
import type { Role } from '../../schema/roles.ts';
import { body, json, type TestApp } from './app.ts';

export const PASSWORD = 'correct horse battery staple';

export type TestUser = { id: string; email: string; accessToken: string; refreshToken: string; auth: { Authorization: string } };

let counter = 0;

export async function signUp(app: TestApp, name = `user${++counter}`): Promise<TestUser> {
  const email = `${name}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const created = await createUser(app.pool, { email, password: PASSWORD, displayName: name, tier: 'FREE' });
  const response = await app.request('/auth/login', json({ email, password: PASSWORD }));
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  const pair = await body(response);
  return { id: created.id, email, accessToken: pair.accessToken, refreshToken: pair.refreshToken, auth: { Authorization: `Bearer ${pair.accessToken}` } };
}

export async function createCluster(app: TestApp, owner: TestUser, name = 'Cluster'): Promise<string> {
  const response = await app.request('/api/v1/clusters', json({ name }, { headers: owner.auth }));
  if (response.status !== 201) throw new Error(`cluster create failed: ${response.status} ${await response.text()}`);
  return (await body(response)).id;
}

/** Makes `user` a member of `clusterId` with `role` (directly: invitations have their own tests). */
export async function addMember(app: TestApp, clusterId: string, user: TestUser, role: Role): Promise<void> {
  await app.pool.query(sql.unsafe`INSERT INTO cluster_members (cluster_id, user_id, role) VALUES (${clusterId}, ${user.id}, ${role})`);
}

export async function createApiToken(
  app: TestApp,
  user: TestUser,
  clusterIds: string[],
  extra: Record<string, unknown> = {},
): Promise<{ id: string; token: string; auth: { Authorization: string } }> {
  const response = await app.request('/api/v1/account/tokens', json({ name: 'automation', clusterIds, ...extra }, { headers: user.auth }));
  if (response.status !== 201) throw new Error(`token create failed: ${response.status} ${await response.text()}`);
  const created = await body(response);
  return { id: created.id, token: created.token, auth: { Authorization: `Bearer ${created.token}` } };
}
