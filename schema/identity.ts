/**
 * Schemas of identity and access: users, sessions, API tokens, clusters, members, invitations and audit entries
 * (docs/api.md and docs/access.md). Request bodies are strict: an unknown field is a 400.
 */
import { z } from 'zod';
import { ROLES } from './roles.ts';
import { enumFilter, id, name, paginationQuery, sortQuery, timestamp } from './http.ts';
import { denyListProblem } from './filePaths.ts';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

export const TIERS = ['FREE', 'PRO', 'ENTERPRISE'] as const;
export type Tier = (typeof TIERS)[number];

const email = z
  .email({ message: 'expected an e-mail address' })
  .max(254)
  .transform((value) => value.toLowerCase());
/**
 * A lone surrogate (JSON allows `"\ud800"`) becomes U+FFFD when the password is encoded to be hashed, so many
 * different passwords would hash alike: such text is refused.
 */
const wellFormed = (value: string) => value.isWellFormed();
const WELL_FORMED = 'must be well-formed text (no lone surrogate characters)';
const password = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`)
  .refine(wellFormed, WELL_FORMED);
export const role = z.enum(ROLES, { message: `expected one of ${ROLES.join(', ')}` });

// ---- users and sessions

export const user = z
  .object({
    id: z.string(),
    email: z.string(),
    displayName: z.string(),
    handle: z.string().meta({
      description: "Your SFTP name: sign in to a server's files as `<handle>.<server short id>` (docs/sftp.md). Chosen from your e-mail address.",
      example: 'alex',
    }),
    steamId: z.string().nullable(),
    discordId: z.string().nullable(),
    hasPassword: z.boolean().meta({ description: 'Whether the account has a password (one made with Steam or Discord has none until it sets one).' }),
    tier: z.enum(TIERS),
    createdAt: timestamp,
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof user>;

export const tokenPair = z
  .object({
    accessToken: z.string(),
    refreshToken: z.string(),
    tokenType: z.literal('Bearer'),
    expiresIn: z.int().meta({ description: 'Seconds the access token is valid (86400).' }),
  })
  .meta({ id: 'TokenPair' });
export type TokenPair = z.infer<typeof tokenPair>;

export const registerBody = z
  .object({
    email,
    password,
    displayName: name,
    invitationToken: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "A pending invitation's token for this e-mail: the account is created whatever ALLOW_REGISTRATION says, and joins the cluster." }),
  })
  .strict();
export const passwordResetBody = z.object({ email }).strict();
export const passwordResetConfirmBody = z.object({ token: z.string().min(1, 'is required').max(200), password }).strict();
export const loginBody = z.object({ email, password: z.string().min(1, 'is required').max(MAX_PASSWORD_LENGTH).refine(wellFormed, WELL_FORMED) }).strict();
export const refreshBody = z.object({ refreshToken: z.string().min(1, 'is required').max(200) }).strict();
export const registerAnswer = tokenPair.extend({ user });
export const changePasswordBody = z
  .object({
    currentPassword: z
      .string()
      .max(MAX_PASSWORD_LENGTH)
      .refine(wellFormed, WELL_FORMED)
      .optional()
      .meta({ description: 'Required when the account has a password (one that signs in with Steam or Discord only may set its first without it).' }),
    newPassword: password,
  })
  .strict();

// ---- API tokens

export const apiTokenListItem = z
  .object({
    id: z.string(),
    name: z.string(),
    clusterIds: z.array(z.string()),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable(),
    expiresAt: timestamp.nullable(),
  })
  .meta({ id: 'TokenListItem' });
export const apiTokenCreated = apiTokenListItem
  .extend({ token: z.string().meta({ description: 'The secret, shown only in this answer.' }), userId: z.string() })
  .meta({ id: 'TokenCreated' });
export const createTokenBody = z
  .object({
    name,
    clusterIds: z.array(id).min(1, 'name at least one cluster').max(100),
    expiresAt: z.iso.datetime({ offset: true, message: 'expected an ISO 8601 timestamp' }).nullable().optional(),
  })
  .strict();

// ---- clusters

export const cluster = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    role: role.meta({ description: "The caller's role in this cluster." }),
    counts: z.object({ machines: z.int(), servers: z.int(), members: z.int() }),
    fileDenyList: z.array(z.string()).meta({
      description: "The default file deny list (gitignore-style patterns) of the cluster's servers whose template has none (docs/files.md#the-deny-list).",
    }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Cluster' });
export type Cluster = z.infer<typeof cluster>;

const description = z.string().trim().max(500, 'must be at most 500 characters').nullable();
export const createClusterBody = z.object({ name, description: description.optional() }).strict();
/** A cluster's default file deny list: at most 256 gitignore-style patterns (OWNER and ADMIN change it). */
const fileDenyList = z
  .array(z.string().max(512, 'each pattern must be at most 512 characters'))
  .max(256, 'a deny list holds at most 256 patterns')
  .superRefine((patterns, ctx) => {
    const problem = denyListProblem(patterns);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ description: "Default file deny list for the cluster's servers whose template has none; [] for none." });
export const updateClusterBody = z
  .object({ name: name.optional(), description: description.optional(), fileDenyList: fileDenyList.optional() })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'give at least one field to change');
export const clusterListQuery = z.object({ ...paginationQuery, sort: sortQuery(['name', 'createdAt'], 'createdAt') }).strict();

// ---- members and invitations

export const member = z.object({ userId: z.string(), email: z.string(), displayName: z.string(), role, joinedAt: timestamp }).meta({ id: 'Member' });
export const memberListQuery = z
  .object({ ...paginationQuery, sort: sortQuery(['joinedAt', 'displayName', 'email', 'role'], 'joinedAt'), role: enumFilter(ROLES).optional() })
  .strict();
export const updateMemberBody = z.object({ role }).strict();

export const INVITATION_STATUSES = ['PENDING', 'ACCEPTED', 'REVOKED', 'EXPIRED'] as const;
export const invitation = z
  .object({
    id: z.string(),
    clusterId: z.string(),
    email: z.string(),
    role,
    status: z.enum(INVITATION_STATUSES),
    expiresAt: timestamp,
    invitedBy: z.string().nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'Invitation' });
export const invitationCreated = invitation
  .extend({
    token: z.string().meta({ description: 'The secret to accept it with, shown only in this answer.' }),
    link: z.string().meta({
      description: 'The page the invitee opens to create an account (or sign in) and join; it carries the token. Shown only in this answer.',
    }),
    emailed: z.boolean().meta({ description: 'Whether the link was e-mailed to the invitee (only with SMTP_URL set, and when the SMTP server accepted it).' }),
  })
  .meta({ id: 'InvitationCreated' });
/**
 * What the invitation page shows before the invitee signs up: the cluster and role, not the inviter's secrets, and not
 * whether the address has an account. (Registering with the token does tell, by a 409: the token is a credential for
 * the address, and the inviter holds it too.)
 */
export const invitationPreview = z
  .object({
    email: z.string(),
    role,
    clusterName: z.string(),
    clusterId: z.string().meta({ description: 'The cluster joined (the invitation page opens it in the dashboard once joined)' }),
    status: z.enum(INVITATION_STATUSES),
    expiresAt: timestamp,
  })
  .meta({ id: 'InvitationPreview' });
export const createInvitationBody = z.object({ email, role }).strict();
export const acceptInvitationBody = z.object({ token: z.string().min(1, 'is required').max(200) }).strict();
export const invitationListQuery = z
  .object({ ...paginationQuery, sort: sortQuery(['createdAt', 'email'], '-createdAt'), status: enumFilter(INVITATION_STATUSES).optional() })
  .strict();

// ---- audit log

export const ACTOR_KINDS = ['USER', 'TOKEN', 'TASK', 'SYSTEM', 'ANONYMOUS'] as const;
export const auditEntry = z
  .object({
    id: z.string(),
    clusterId: z.string().nullable(),
    actor: z.object({ kind: z.enum(ACTOR_KINDS), id: z.string().nullable(), name: z.string().nullable() }),
    action: z.string(),
    target: z.object({
      type: z.string(),
      id: z.string().nullable(),
      name: z
        .string()
        .nullable()
        .describe(
          "What the target is called today (a server's, machine's, task's or backup's name, a player's username, a banned player's username, a user's display name, an invitation's e-mail, a webhook's description); null when it has none or no longer exists",
        ),
    }),
    ip: z.string().nullable(),
    requestId: z.string().nullable(),
    at: timestamp,
    details: z.record(z.string(), z.unknown()).optional().describe('What a change touched beyond its target: a file change its `path`, `size`, `to` …'),
  })
  .meta({ id: 'AuditEntry' });
export const auditListQuery = z
  .object({
    ...paginationQuery,
    sort: sortQuery(['at'], '-at'),
    action: z.string().min(1).max(100).optional(),
    actorId: id.optional(),
    targetId: id.optional(),
  })
  .strict();

export const clusterParams = z.object({ id });
export const clusterIdParams = z.object({ clusterId: id });
