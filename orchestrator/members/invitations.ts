/**
 * Invitations as a cluster's managers see them: listed, created (limited per inviter and per day) and revoked. How an
 * invitee meets one (the link, the e-mail, joining) is api/identity/invitations.ts.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { AppError, conflict, forbidden, notFound } from '../../schema/errors.ts';
import { invitation, type invitationListQuery } from '../../schema/identity.ts';
import type { Origin } from '../../schema/origin.ts';
import { canManageRole, ROLES, type Role } from '../../schema/roles.ts';
import { fetchPage, orderBy } from '../../sql/listing.ts';
import { recordAudit } from '../audit.ts';

/** How long an invitation can be accepted. */
export const INVITATION_DAYS = 7;
/** Invitations one user may create in 24 hours (429 past it). */
export const INVITATIONS_PER_DAY = 100;

/** An invitation's status as it is now: a PENDING one whose time ran out reads EXPIRED. */
export const INVITATION_STATUS_SQL = sql.fragment`(CASE WHEN i.status = 'PENDING' AND i.expires_at <= now() THEN 'EXPIRED' ELSE i.status END)`;

const INVITATION_COLUMNS = sql.fragment`
  i.id, i.cluster_id AS "clusterId", i.email, i.role,
  CASE WHEN i.status = 'PENDING' AND i.expires_at <= now() THEN 'EXPIRED' ELSE i.status END AS status,
  i.expires_at AS "expiresAt", i.invited_by AS "invitedBy", i.created_at AS "createdAt"`;
const INVITATION_SORT = { createdAt: sql.fragment`i.created_at`, email: sql.fragment`lower(i.email)` };

type Invitation = z.output<typeof invitation>;

/** One page of a cluster's invitations (without their secrets). */
export function invitationPage(connection: CommonQueryMethods, clusterId: string, query: z.output<typeof invitationListQuery>) {
  const where = sql.fragment`i.cluster_id = ${clusterId} ${query.status ? sql.fragment`AND ${INVITATION_STATUS_SQL} = ${query.status}` : sql.fragment``}`;
  return fetchPage(connection, {
    schema: invitation,
    columns: INVITATION_COLUMNS,
    from: sql.fragment`invitations i WHERE ${where}`,
    order: orderBy(query.sort, INVITATION_SORT, sql.fragment`i.id`),
    page: query,
  });
}

/**
 * Creates an invitation whose secret hashes to `tokenHash`, on `tx` (the request's transaction). Answers it with the
 * cluster's name, the inviter's display name as stored now (not a cached principal's) and how many invitations went to its address in the last day (this one included), which decides
 * whether it is e-mailed.
 */
export async function createInvitation(
  tx: CommonQueryMethods,
  origin: Origin,
  request: { clusterId: string; email: string; role: Role; inviterId: string; tokenHash: Buffer },
): Promise<{ created: Invitation; clusterName: string; inviterName: string; mailsToAddress: number }> {
  const { clusterId, email, role, inviterId } = request;
  const sentByInviter = await tx.oneFirst(sql.type(z.object({ count: z.number() }))`
    SELECT count(*)::int AS count FROM invitations WHERE invited_by = ${inviterId} AND created_at > now() - interval '1 day'`);
  if (sentByInviter >= INVITATIONS_PER_DAY)
    throw new AppError(429, `You created ${INVITATIONS_PER_DAY} invitations in the last 24 hours, the most a user may; try again later`);
  const alreadyMember = await tx.exists(sql.unsafe`
    SELECT 1 FROM cluster_members m JOIN users u ON u.id = m.user_id WHERE m.cluster_id = ${clusterId} AND lower(u.email) = ${email}`);
  if (alreadyMember) throw conflict('This person is already a member of the cluster');
  // An invitation to this address that ran out is closed, so it does not block a new one.
  await tx.query(sql.unsafe`
    UPDATE invitations SET status = 'EXPIRED', updated_at = now()
     WHERE cluster_id = ${clusterId} AND lower(email) = ${email} AND status = 'PENDING' AND expires_at <= now()`);
  const invitationId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
    INSERT INTO invitations (cluster_id, email, role, token_hash, expires_at, invited_by)
    VALUES (${clusterId}, ${email}, ${role}, ${sql.binary(request.tokenHash)},
            now() + make_interval(days => ${INVITATION_DAYS}), ${inviterId})
    RETURNING id`);
  // Invitations to this address in the last day, from anyone (this one included): past the limit no more
  // e-mail goes to it (the link in the answer still works), so revoking and re-inviting cannot flood an inbox.
  const mailsToAddress = await tx.oneFirst(sql.type(z.object({ count: z.number() }))`
    SELECT count(*)::int AS count FROM invitations WHERE lower(email) = ${email} AND created_at > now() - interval '1 day'`);
  await recordAudit(tx, origin, { clusterId, action: 'invitation.create', target: { type: 'invitation', id: invitationId } });
  const names = await tx.one(sql.type(z.object({ clusterName: z.string(), inviterName: z.string() }))`
    SELECT c.name AS "clusterName", u.display_name AS "inviterName" FROM clusters c, users u WHERE c.id = ${clusterId} AND u.id = ${inviterId}`);
  const created = await tx.one(sql.type(invitation)`SELECT ${INVITATION_COLUMNS} FROM invitations i WHERE i.id = ${invitationId}`);
  return { created, ...names, mailsToAddress };
}

/** Revokes a pending invitation, as a member of role `actor` may (403 otherwise; 409 when no longer pending). */
export async function revokeInvitation(
  tx: CommonQueryMethods,
  origin: Origin,
  revocation: { clusterId: string; invitationId: string; actor: Role },
): Promise<void> {
  const { clusterId, invitationId, actor } = revocation;
  const row = await tx.maybeOne(sql.type(z.object({ role: z.enum(ROLES), status: z.string() }))`
    SELECT role, ${INVITATION_STATUS_SQL} AS status FROM invitations i WHERE i.id = ${invitationId} AND i.cluster_id = ${clusterId} FOR UPDATE`);
  if (!row) throw notFound('Invitation not found');
  if (!canManageRole(actor, row.role)) throw forbidden(`As ${actor} you cannot revoke an invitation for a ${row.role}`);
  if (row.status !== 'PENDING') throw conflict(`The invitation is ${row.status.toLowerCase()}, not pending`);
  await tx.query(sql.unsafe`UPDATE invitations SET status = 'REVOKED', updated_at = now() WHERE id = ${invitationId}`);
  await recordAudit(tx, origin, { clusterId, action: 'invitation.revoke', target: { type: 'invitation', id: invitationId } });
}
