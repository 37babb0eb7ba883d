/**
 * Cluster memberships (docs/access.md). OWNER manages every role; ADMIN only MODERATOR and VIEWER. The last OWNER of a
 * cluster can be neither removed nor demoted (409). Membership changes of one cluster are serialised by a row lock on
 * the cluster, so two concurrent demotions cannot leave it without an owner.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { conflict, forbidden, notFound } from '../../schema/errors.ts';
import { member, type memberListQuery } from '../../schema/identity.ts';
import type { Origin } from '../../schema/origin.ts';
import { canManageRole, ROLES, type Role } from '../../schema/roles.ts';
import { fetchPage, orderBy } from '../../sql/listing.ts';
import { recordAudit } from '../audit.ts';

const MEMBER_COLUMNS = sql.fragment`
  m.user_id AS "userId", u.email, u.display_name AS "displayName", m.role, m.joined_at AS "joinedAt"`;
const MEMBER_SORT = {
  joinedAt: sql.fragment`m.joined_at`,
  displayName: sql.fragment`lower(u.display_name)`,
  email: sql.fragment`lower(u.email)`,
  role: sql.fragment`m.role`,
};

type Member = z.output<typeof member>;

const roleRow = z.object({ role: z.enum(ROLES) });

/** Locks the cluster's membership and answers the target member's role (404 if not a member). */
async function lockMember(tx: CommonQueryMethods, clusterId: string, userId: string): Promise<Role> {
  await tx.query(sql.unsafe`SELECT 1 FROM clusters WHERE id = ${clusterId} FOR UPDATE`);
  const row = await tx.maybeOne(sql.type(roleRow)`SELECT role FROM cluster_members WHERE cluster_id = ${clusterId} AND user_id = ${userId}`);
  if (!row) throw notFound('Member not found');
  return row.role;
}

async function assertNotLastOwner(tx: CommonQueryMethods, clusterId: string, currentRole: Role): Promise<void> {
  if (currentRole !== 'OWNER') return;
  const owners = await tx.oneFirst(sql.type(z.object({ count: z.number() }))`
    SELECT count(*)::int AS count FROM cluster_members WHERE cluster_id = ${clusterId} AND role = 'OWNER'`);
  if (owners <= 1) throw conflict('A cluster must keep at least one OWNER: promote another member first');
}

/** One page of a cluster's members. */
export function memberPage(connection: CommonQueryMethods, clusterId: string, query: z.output<typeof memberListQuery>) {
  const where = sql.fragment`m.cluster_id = ${clusterId} ${query.role ? sql.fragment`AND m.role = ${query.role}` : sql.fragment``}`;
  return fetchPage(connection, {
    schema: member,
    columns: MEMBER_COLUMNS,
    from: sql.fragment`cluster_members m JOIN users u ON u.id = m.user_id WHERE ${where}`,
    order: orderBy(query.sort, MEMBER_SORT, sql.fragment`m.user_id`),
    page: query,
  });
}

/** Gives member `userId` the role `role`, as a member of role `actor` may (403 otherwise). */
export async function changeMemberRole(
  tx: CommonQueryMethods,
  origin: Origin,
  change: { clusterId: string; userId: string; role: Role; actor: Role },
): Promise<Member> {
  const { clusterId, userId, role, actor } = change;
  const current = await lockMember(tx, clusterId, userId);
  if (!canManageRole(actor, current) || !canManageRole(actor, role)) {
    throw forbidden(`As ${actor} you cannot change a ${current} to ${role}`);
  }
  if (role !== 'OWNER') await assertNotLastOwner(tx, clusterId, current);
  await tx.query(sql.unsafe`UPDATE cluster_members SET role = ${role} WHERE cluster_id = ${clusterId} AND user_id = ${userId}`);
  await recordAudit(tx, origin, { clusterId, action: 'member.update', target: { type: 'user', id: userId } });
  return tx.one(sql.type(member)`
    SELECT ${MEMBER_COLUMNS} FROM cluster_members m JOIN users u ON u.id = m.user_id
     WHERE m.cluster_id = ${clusterId} AND m.user_id = ${userId}`);
}

/** `userId` leaves the cluster (409 for its last OWNER). */
export async function leaveCluster(tx: CommonQueryMethods, origin: Origin, clusterId: string, userId: string): Promise<void> {
  await assertNotLastOwner(tx, clusterId, await lockMember(tx, clusterId, userId));
  await tx.query(sql.unsafe`DELETE FROM cluster_members WHERE cluster_id = ${clusterId} AND user_id = ${userId}`);
  await recordAudit(tx, origin, { clusterId, action: 'member.leave', target: { type: 'user', id: userId } });
}

/** Removes member `userId`, as a member of role `actor` may (403 otherwise; 409 for the last OWNER). */
export async function removeMember(tx: CommonQueryMethods, origin: Origin, removal: { clusterId: string; userId: string; actor: Role }): Promise<void> {
  const { clusterId, userId, actor } = removal;
  const current = await lockMember(tx, clusterId, userId);
  if (!canManageRole(actor, current)) throw forbidden(`As ${actor} you cannot remove a ${current}`);
  await assertNotLastOwner(tx, clusterId, current);
  await tx.query(sql.unsafe`DELETE FROM cluster_members WHERE cluster_id = ${clusterId} AND user_id = ${userId}`);
  await recordAudit(tx, origin, { clusterId, action: 'member.remove', target: { type: 'user', id: userId } });
}
