/**
 * The one place where cluster access is decided (SPEC sections 2 and 6): the cluster must exist (404), the caller must
 * be a member (403), an API token must have the cluster in its scope (403), and the caller's role must carry the
 * route's permission (403). Existence is revealed only to members.
 */
import { sql } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../database/pool.ts';
import { forbidden, notFound } from '../api/errors.ts';
import type { Membership, Principal } from './principal.ts';
import { can, ROLES, type Permission, type Role } from './roles.ts';

const membershipRow = z.object({ role: z.enum(ROLES).nullable() });

export type ClusterAccess = { clusterId: string; role: Role };

/**
 * The caller's role in `clusterId` after checking it allows `permission`; throws 404 or 403 otherwise. `prefetched`
 * is the membership read with the caller's token (see principal.ts); without it, or for another cluster, it is read.
 */
export async function authorize(
  pool: DatabasePool,
  principal: Principal,
  clusterId: string,
  permission: Permission,
  prefetched: Membership | null = null,
): Promise<ClusterAccess> {
  const membership = prefetched?.clusterId === clusterId && prefetched.serverId === null ? prefetched : await readMembership(pool, principal, clusterId);
  if (!membership.exists) throw notFound('Cluster not found');
  return check(principal, clusterId, membership.role, permission);
}

/**
 * The same for a resource inside a server's cluster: the server must exist (404 "Server not found"), then as above.
 * `prefetched` is the membership of the server's cluster read with the caller's token.
 */
export async function authorizeServer(
  pool: DatabasePool,
  principal: Principal,
  serverId: string,
  permission: Permission,
  prefetched: Membership | null = null,
): Promise<ClusterAccess> {
  const membership = prefetched?.serverId === serverId ? prefetched : await readServerMembership(pool, principal, serverId);
  if (!membership.exists || !membership.clusterId) throw notFound('Server not found');
  return check(principal, membership.clusterId, membership.role, permission);
}

function check(principal: Principal, clusterId: string, role: Role | null, permission: Permission): ClusterAccess {
  if (!role) throw forbidden('You are not a member of this cluster');
  if (principal.kind === 'TOKEN' && !principal.clusterIds.has(clusterId)) {
    throw forbidden('This API token is not scoped to this cluster');
  }
  if (!can(role, permission)) throw forbidden(`Your role (${role}) does not allow this (${permission})`);
  return { clusterId, role };
}

async function readMembership(pool: DatabasePool, principal: Principal, clusterId: string): Promise<Membership> {
  const row = await pool.maybeOne(sql.type(membershipRow)`
    SELECT m.role FROM clusters c
      LEFT JOIN cluster_members m ON m.cluster_id = c.id AND m.user_id = ${principal.user.id}
     WHERE c.id = ${clusterId}`);
  return { clusterId, serverId: null, exists: row !== null, role: row?.role ?? null };
}

const serverMembershipRow = z.object({ clusterId: z.string(), role: z.enum(ROLES).nullable() });

async function readServerMembership(pool: DatabasePool, principal: Principal, serverId: string): Promise<Membership> {
  const row = await pool.maybeOne(sql.type(serverMembershipRow)`
    SELECT s.cluster_id AS "clusterId", m.role FROM servers s
      LEFT JOIN cluster_members m ON m.cluster_id = s.cluster_id AND m.user_id = ${principal.user.id}
     WHERE s.id = ${serverId}`);
  return { clusterId: row?.clusterId ?? null, serverId, exists: row !== null, role: row?.role ?? null };
}
