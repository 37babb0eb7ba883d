/**
 * Team members and invitations. OWNER manages every role; ADMIN only MODERATOR and VIEWER (docs/access.md). The last
 * OWNER of a cluster can be neither removed nor demoted (409). Membership changes of one cluster are serialised by a
 * row lock on the cluster, so two concurrent demotions cannot leave it without an owner.
 * A membership that ends (leave, removal) takes that cluster out of the user's API tokens' scope, so inviting the user
 * again does not bring an old token back (a trigger: sql/migrations/000013_token_scope_follows_membership.sql).
 */
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { forbidden, notFound } from '../../schema/errors.ts';
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
import { canManageRole, type Role } from '../../schema/roles.ts';
import { generateSecret, hashSecret } from '../../schema/secretTokens.ts';
import { getCluster } from '../../orchestrator/clusters/store.ts';
import { CONSTRAINT_MESSAGES } from '../middleware/databaseErrors.ts';
import { originOf } from '../identity/origin.ts';
import {
  emailInvitation,
  findInvitation,
  INVITATION_MAILS_PER_ADDRESS_PER_DAY,
  invitationLink,
  joinByInvitation,
  pendingInvitation,
} from '../identity/invitations.ts';
import { changeMemberRole, leaveCluster, memberPage, removeMember } from '../../orchestrator/members/store.ts';
import { createInvitation, INVITATION_DAYS, invitationPage, revokeInvitation } from '../../orchestrator/members/invitations.ts';

CONSTRAINT_MESSAGES.invitations_pending_email_key = 'An invitation to this e-mail address is already pending';
CONSTRAINT_MESSAGES.cluster_members_pkey = 'Already a member of this cluster';

const memberParams = z.object({ clusterId: id, userId: id });
const invitationParams = z.object({ clusterId: id, invitationId: id });
const success = z.object({ success: z.literal(true), message: z.string() });
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
    handler: (_ctx, { params, query }) => memberPage(pool, params.clusterId, query),
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
      pool.transaction((tx) =>
        changeMemberRole(tx, originOf(ctx), { clusterId: params.clusterId, userId: params.userId, role: body.role, actor: ctx.state.role as Role }),
      ),
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
      await pool.transaction((tx) => leaveCluster(tx, originOf(ctx), params.clusterId, userId));
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
      await pool.transaction((tx) => removeMember(tx, originOf(ctx), { clusterId: params.clusterId, userId: params.userId, actor: ctx.state.role as Role }));
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
    handler: (_ctx, { params, query }) => invitationPage(pool, params.clusterId, query),
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
      const {
        created,
        clusterName,
        inviterName: inviter,
        mailsToAddress,
      } = await pool.transaction((tx) =>
        createInvitation(tx, originOf(ctx), { clusterId: params.clusterId, email: body.email, role: body.role, inviterId, tokenHash: hashSecret(token) }),
      );
      // Sent once the invitation exists for good, in the background (a slow SMTP server does not hold the answer up):
      // `emailed` says it is on its way; a failed send is logged, and the link in this answer works either way.
      const link = invitationLink(config.publicUrl, token);
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
      await pool.transaction((tx) =>
        revokeInvitation(tx, originOf(ctx), { clusterId: params.clusterId, invitationId: params.invitationId, actor: ctx.state.role as Role }),
      );
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
