/**
 * Team members and invitations. OWNER manages every role; ADMIN only MODERATOR and VIEWER (docs/access.md). The last
 * OWNER of a cluster can be neither removed nor demoted (409). Membership changes of one cluster are serialised by a
 * row lock on the cluster, so two concurrent demotions cannot leave it without an owner.
 * A membership that ends (leave, removal) takes that cluster out of the user's API tokens' scope, so inviting the user
 * again does not bring an old token back (a trigger: sql/migrations/000013_token_scope_follows_membership.sql).
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { AppError, conflict, forbidden, notFound } from '../../schema/errors.ts';
import type { Api } from '../http/route.ts';
import { id, listOf } from '../../schema/http.ts';
import {
  acceptInvitationBody,
  cluster,
  clusterIdParams,
  createInvitationBody,
  invitation,
  invitationCreated,
  invitationListQuery,
  invitationPreview,
  member,
  memberListQuery,
  updateMemberBody,
} from '../../schema/identity.ts';
import { principalOf } from '../identity/principal.ts';
import { recordAudit } from '../../orchestrator/audit.ts';
import { canManageRole, ROLES, type Role } from '../../schema/roles.ts';
import { generateSecret, hashSecret } from '../../schema/secretTokens.ts';
import { fetchPage, orderBy } from '../../sql/listing.ts';
import { getCluster } from './clusters.ts';
import { CONSTRAINT_MESSAGES } from '../middleware/databaseErrors.ts';
import { originOf } from '../identity/origin.ts';
import {
  emailInvitation,
  findInvitation,
  INVITATION_DAYS,
  INVITATION_MAILS_PER_ADDRESS_PER_DAY,
  INVITATIONS_PER_DAY,
  INVITATION_STATUS_SQL,
  invitationLink,
  joinByInvitation,
  pendingInvitation,
} from '../identity/invitations.ts';

CONSTRAINT_MESSAGES.invitations_pending_email_key = 'An invitation to this e-mail address is already pending';
CONSTRAINT_MESSAGES.cluster_members_pkey = 'Already a member of this cluster';

const MEMBER_COLUMNS = sql.fragment`
  m.user_id AS "userId", u.email, u.display_name AS "displayName", m.role, m.joined_at AS "joinedAt"`;
const MEMBER_SORT = {
  joinedAt: sql.fragment`m.joined_at`,
  displayName: sql.fragment`lower(u.display_name)`,
  email: sql.fragment`lower(u.email)`,
  role: sql.fragment`m.role`,
};

const INVITATION_COLUMNS = sql.fragment`
  i.id, i.cluster_id AS "clusterId", i.email, i.role,
  CASE WHEN i.status = 'PENDING' AND i.expires_at <= now() THEN 'EXPIRED' ELSE i.status END AS status,
  i.expires_at AS "expiresAt", i.invited_by AS "invitedBy", i.created_at AS "createdAt"`;
const INVITATION_SORT = { createdAt: sql.fragment`i.created_at`, email: sql.fragment`lower(i.email)` };

const memberParams = z.object({ clusterId: id, userId: id });
const invitationParams = z.object({ clusterId: id, invitationId: id });
const success = z.object({ success: z.literal(true), message: z.string() });
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

export function installMemberRoutes(api: Api, deps: AppDeps) {
  const { pool, config, mailer } = deps;
  const clusterOf = 'clusterId';

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/members',
    summary: 'List members',
    tags: ['Members'],
    auth: 'user',
    params: clusterIdParams,
    query: memberListQuery,
    permission: { action: 'cluster.read', cluster: clusterOf },
    responses: { 200: { description: 'Members', schema: listOf(member) } },
    handler: async (_ctx, { params, query }) => {
      const where = sql.fragment`m.cluster_id = ${params.clusterId} ${query.role ? sql.fragment`AND m.role = ${query.role}` : sql.fragment``}`;
      return fetchPage(pool, {
        schema: member,
        columns: MEMBER_COLUMNS,
        from: sql.fragment`cluster_members m JOIN users u ON u.id = m.user_id WHERE ${where}`,
        order: orderBy(query.sort, MEMBER_SORT, sql.fragment`m.user_id`),
        page: query,
      });
    },
  });

  api.route({
    method: 'patch',
    path: '/api/v1/clusters/:clusterId/members/:userId',
    summary: "Change a member's role",
    description: 'OWNER may set any role; ADMIN only between MODERATOR and VIEWER. The last OWNER cannot be demoted (409).',
    tags: ['Members'],
    auth: 'user',
    params: memberParams,
    body: updateMemberBody,
    permission: { action: 'members.manage', cluster: clusterOf },
    responses: { 200: { description: 'The member', schema: member } },
    handler: (ctx, { params, body }) =>
      pool.transaction(async (tx) => {
        const current = await lockMember(tx, params.clusterId, params.userId);
        const actor = ctx.state.role as Role;
        if (!canManageRole(actor, current) || !canManageRole(actor, body.role)) {
          throw forbidden(`As ${actor} you cannot change a ${current} to ${body.role}`);
        }
        if (body.role !== 'OWNER') await assertNotLastOwner(tx, params.clusterId, current);
        await tx.query(sql.unsafe`UPDATE cluster_members SET role = ${body.role} WHERE cluster_id = ${params.clusterId} AND user_id = ${params.userId}`);
        await recordAudit(tx, originOf(ctx), { clusterId: params.clusterId, action: 'member.update', target: { type: 'user', id: params.userId } });
        return tx.one(sql.type(member)`
          SELECT ${MEMBER_COLUMNS} FROM cluster_members m JOIN users u ON u.id = m.user_id
           WHERE m.cluster_id = ${params.clusterId} AND m.user_id = ${params.userId}`);
      }),
  });

  api.route({
    method: 'delete',
    path: '/api/v1/clusters/:clusterId/members/me',
    summary: 'Leave a cluster',
    description: 'Any member may leave, except the last OWNER (409).',
    tags: ['Members'],
    auth: 'user',
    params: clusterIdParams,
    permission: { action: 'cluster.read', cluster: clusterOf },
    responses: { 200: { description: 'Left', schema: success } },
    handler: async (ctx, { params }) => {
      const userId = principalOf(ctx).user.id;
      await pool.transaction(async (tx) => {
        await assertNotLastOwner(tx, params.clusterId, await lockMember(tx, params.clusterId, userId));
        await tx.query(sql.unsafe`DELETE FROM cluster_members WHERE cluster_id = ${params.clusterId} AND user_id = ${userId}`);
        await recordAudit(tx, originOf(ctx), { clusterId: params.clusterId, action: 'member.leave', target: { type: 'user', id: userId } });
      });
      return { success: true, message: 'You left the cluster' };
    },
  });

  api.route({
    method: 'delete',
    path: '/api/v1/clusters/:clusterId/members/:userId',
    summary: 'Remove a member',
    description: 'OWNER may remove anyone; ADMIN only MODERATOR and VIEWER. The last OWNER cannot be removed (409).',
    tags: ['Members'],
    auth: 'user',
    params: memberParams,
    permission: { action: 'members.manage', cluster: clusterOf },
    responses: { 200: { description: 'Removed', schema: success } },
    handler: async (ctx, { params }) => {
      await pool.transaction(async (tx) => {
        const current = await lockMember(tx, params.clusterId, params.userId);
        const actor = ctx.state.role as Role;
        if (!canManageRole(actor, current)) throw forbidden(`As ${actor} you cannot remove a ${current}`);
        await assertNotLastOwner(tx, params.clusterId, current);
        await tx.query(sql.unsafe`DELETE FROM cluster_members WHERE cluster_id = ${params.clusterId} AND user_id = ${params.userId}`);
        await recordAudit(tx, originOf(ctx), { clusterId: params.clusterId, action: 'member.remove', target: { type: 'user', id: params.userId } });
      });
      return { success: true, message: 'Member removed' };
    },
  });

  api.route({
    method: 'get',
    path: '/api/v1/clusters/:clusterId/invitations',
    summary: 'List invitations',
    tags: ['Members'],
    auth: 'user',
    params: clusterIdParams,
    query: invitationListQuery,
    permission: { action: 'members.manage', cluster: clusterOf },
    responses: { 200: { description: 'Invitations (without their secrets)', schema: listOf(invitation) } },
    handler: async (_ctx, { params, query }) => {
      const where = sql.fragment`i.cluster_id = ${params.clusterId} ${query.status ? sql.fragment`AND ${INVITATION_STATUS_SQL} = ${query.status}` : sql.fragment``}`;
      return fetchPage(pool, {
        schema: invitation,
        columns: INVITATION_COLUMNS,
        from: sql.fragment`invitations i WHERE ${where}`,
        order: orderBy(query.sort, INVITATION_SORT, sql.fragment`i.id`),
        page: query,
      });
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/clusters/:clusterId/invitations',
    summary: 'Invite someone by e-mail',
    description: `The answer carries the invitation's secret \`token\` and its \`link\` (shown once), valid ${INVITATION_DAYS} days. With SMTP_URL set the link is also e-mailed to the invitee (\`emailed\`). The link's page lets the invitee create an account with the invited e-mail (whatever ALLOW_REGISTRATION says), sign in, or use Steam or Discord, and join; a signed-in user with that e-mail can also accept with POST /api/v1/invitations/accept.`,
    tags: ['Members'],
    auth: 'user',
    params: clusterIdParams,
    body: createInvitationBody,
    permission: { action: 'members.manage', cluster: clusterOf },
    status: 201,
    responses: {
      201: { description: 'The invitation, with its secret', schema: invitationCreated },
      409: { description: 'Already a member, or an invitation is pending' },
    },
    handler: async (ctx, { params, body }) => {
      const actor = ctx.state.role as Role;
      if (!canManageRole(actor, body.role)) throw forbidden(`As ${actor} you cannot invite a ${body.role}`);
      const token = generateSecret('invite');
      const inviterId = principalOf(ctx).user.id;
      const { created, clusterName, mailsToAddress } = await pool.transaction(async (tx) => {
        const sentByInviter = await tx.oneFirst(sql.type(z.object({ count: z.number() }))`
          SELECT count(*)::int AS count FROM invitations WHERE invited_by = ${inviterId} AND created_at > now() - interval '1 day'`);
        if (sentByInviter >= INVITATIONS_PER_DAY)
          throw new AppError(429, `You created ${INVITATIONS_PER_DAY} invitations in the last 24 hours, the most a user may; try again later`);
        const alreadyMember = await tx.exists(sql.unsafe`
          SELECT 1 FROM cluster_members m JOIN users u ON u.id = m.user_id WHERE m.cluster_id = ${params.clusterId} AND lower(u.email) = ${body.email}`);
        if (alreadyMember) throw conflict('This person is already a member of the cluster');
        // An invitation to this address that ran out is closed, so it does not block a new one.
        await tx.query(sql.unsafe`
          UPDATE invitations SET status = 'EXPIRED', updated_at = now()
           WHERE cluster_id = ${params.clusterId} AND lower(email) = ${body.email} AND status = 'PENDING' AND expires_at <= now()`);
        const invitationId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
          INSERT INTO invitations (cluster_id, email, role, token_hash, expires_at, invited_by)
          VALUES (${params.clusterId}, ${body.email}, ${body.role}, ${sql.binary(hashSecret(token))},
                  now() + make_interval(days => ${INVITATION_DAYS}), ${inviterId})
          RETURNING id`);
        // Invitations to this address in the last day, from anyone (this one included): past the limit no more
        // e-mail goes to it (the link in this answer still works), so revoking and re-inviting cannot flood an inbox.
        const mailsToAddress = await tx.oneFirst(sql.type(z.object({ count: z.number() }))`
          SELECT count(*)::int AS count FROM invitations WHERE lower(email) = ${body.email} AND created_at > now() - interval '1 day'`);
        await recordAudit(tx, originOf(ctx), { clusterId: params.clusterId, action: 'invitation.create', target: { type: 'invitation', id: invitationId } });
        const clusterName = await tx.oneFirst(sql.type(z.object({ name: z.string() }))`SELECT name FROM clusters WHERE id = ${params.clusterId}`);
        const created = await tx.one(sql.type(invitation)`SELECT ${INVITATION_COLUMNS} FROM invitations i WHERE i.id = ${invitationId}`);
        return { created, clusterName, mailsToAddress };
      });
      // Sent once the invitation exists for good, in the background (a slow SMTP server does not hold the answer up):
      // `emailed` says it is on its way; a failed send is logged, and the link in this answer works either way.
      const link = invitationLink(config.publicUrl, token);
      const inviter = principalOf(ctx).user.displayName;
      const emailed =
        mailsToAddress <= INVITATION_MAILS_PER_ADDRESS_PER_DAY &&
        emailInvitation(mailer, { to: body.email, link, clusterName, role: body.role, inviter, expiresAt: created.expiresAt });
      return { ...created, token, link, emailed };
    },
  });

  api.route({
    method: 'delete',
    path: '/api/v1/clusters/:clusterId/invitations/:invitationId',
    summary: 'Revoke an invitation',
    tags: ['Members'],
    auth: 'user',
    params: invitationParams,
    permission: { action: 'members.manage', cluster: clusterOf },
    responses: { 200: { description: 'Revoked', schema: success }, 409: { description: 'No longer pending' } },
    handler: async (ctx, { params }) => {
      await pool.transaction(async (tx) => {
        const row = await tx.maybeOne(sql.type(z.object({ role: z.enum(ROLES), status: z.string() }))`
          SELECT role, ${INVITATION_STATUS_SQL} AS status FROM invitations i WHERE i.id = ${params.invitationId} AND i.cluster_id = ${params.clusterId} FOR UPDATE`);
        if (!row) throw notFound('Invitation not found');
        if (!canManageRole(ctx.state.role as Role, row.role)) throw forbidden(`As ${ctx.state.role} you cannot revoke an invitation for a ${row.role}`);
        if (row.status !== 'PENDING') throw conflict(`The invitation is ${row.status.toLowerCase()}, not pending`);
        await tx.query(sql.unsafe`UPDATE invitations SET status = 'REVOKED', updated_at = now() WHERE id = ${params.invitationId}`);
        await recordAudit(tx, originOf(ctx), {
          clusterId: params.clusterId,
          action: 'invitation.revoke',
          target: { type: 'invitation', id: params.invitationId },
        });
      });
      return { success: true, message: 'Invitation revoked' };
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/invitations/accept',
    summary: 'Accept an invitation',
    description: 'The signed-in user must have the e-mail address the invitation was sent to. Answers the cluster joined.',
    tags: ['Members'],
    auth: 'user',
    body: acceptInvitationBody,
    responses: { 200: { description: 'The cluster joined', schema: cluster }, 409: { description: 'Not pending, or already a member' } },
    handler: (ctx, { body }) => {
      const principal = principalOf(ctx);
      return pool.transaction(async (tx) => {
        const row = await pendingInvitation(tx, body.token);
        await joinByInvitation(tx, row, principal.user, { matchEmail: true });
        await recordAudit(tx, originOf(ctx), { clusterId: row.clusterId, action: 'invitation.accept', target: { type: 'invitation', id: row.id } });
        return getCluster(tx, row.clusterId, principal.user.id);
      });
    },
  });

  api.route({
    method: 'post',
    path: '/api/v1/invitations/preview',
    summary: 'Look at an invitation before joining',
    description:
      'For the invitation page: the invited e-mail, the cluster and role, whether the invitation is still pending. It does not say whether the address has an account (anyone may invite any address), so the page offers both registration and sign-in. Needs no sign-in: the secret token is the permission. The token travels in the body so it stays out of access logs.',
    tags: ['Members'],
    auth: 'signin',
    body: acceptInvitationBody,
    responses: { 200: { description: 'The invitation', schema: invitationPreview }, 404: { description: 'No invitation has this token' } },
    handler: async (_ctx, { body }) => {
      const row = await findInvitation(pool, body.token, false);
      if (!row) throw notFound('Invitation not found');
      return {
        email: row.email,
        role: row.role,
        clusterName: row.clusterName,
        clusterId: row.clusterId,
        status: row.status,
        expiresAt: row.expiresAt,
      };
    },
  });
}
