/**
 * The one place where cluster access is decided (docs/api.md and docs/access.md): the cluster must exist (404), the caller must
 * be a member (403), an API token must have the cluster in its scope (403), and the caller's role must carry the
 * route's permission (403). Existence is revealed only to members.
 */
import { sql } from 'slonik';
import { z } from 'zod';
import type { DatabasePool } from '../../sql/pool.ts';
import { forbidden, notFound } from '../../schema/errors.ts';
import type { Membership, Principal } from './principal.ts';
import { can, ROLES, type Permission, type Role } from '../../schema/roles.ts';

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
  const membership =
    prefetched?.clusterId === clusterId && prefetched.serverId === null && prefetched.playerId === null
      ? prefetched
      : await readMembership(pool, principal, clusterId);
  if (!membership.exists) throw notFound('Cluster not found');
  return check(principal, clusterId, membership.role, permission);
}

/** A server or a player, whose cluster a route acts in. */
export type ClusterResource = { kind: 'server' | 'player'; id: string };

const RESOURCES = {
  server: { table: 'servers', missing: 'Server not found' },
  player: { table: 'players', missing: 'Player not found' },
} as const;

/**
 * The same for a resource inside a cluster: the server or player must exist (404 "Server not found" / "Player not
 * found"), then as above. `prefetched` is the membership of the resource's cluster read with the caller's token.
 */
export async function authorizeResource(
  pool: DatabasePool,
  principal: Principal,
  resource: ClusterResource,
  permission: Permission,
  prefetched: Membership | null = null,
): Promise<ClusterAccess> {
  const prefetchedId = resource.kind === 'server' ? prefetched?.serverId : prefetched?.playerId;
  const membership = prefetched && prefetchedId === resource.id ? prefetched : await readResourceMembership(pool, principal, resource);
  if (!membership.exists || !membership.clusterId) throw notFound(RESOURCES[resource.kind].missing);
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
  return { clusterId, serverId: null, playerId: null, exists: row !== null, role: row?.role ?? null };
}

const resourceMembershipRow = z.object({ clusterId: z.string(), role: z.enum(ROLES).nullable() });

async function readResourceMembership(pool: DatabasePool, principal: Principal, resource: ClusterResource): Promise<Membership> {
  const row = await pool.maybeOne(sql.type(resourceMembershipRow)`
    SELECT r.cluster_id AS "clusterId", m.role FROM ${sql.identifier([RESOURCES[resource.kind].table])} r
      LEFT JOIN cluster_members m ON m.cluster_id = r.cluster_id AND m.user_id = ${principal.user.id}
     WHERE r.id = ${resource.id}`);
  return {
    clusterId: row?.clusterId ?? null,
    serverId: resource.kind === 'server' ? resource.id : null,
    playerId: resource.kind === 'player' ? resource.id : null,
    exists: row !== null,
    role: row?.role ?? null,
  };
}
