/**
 * Invitations as the invitee meets them: the link (carrying the secret in its fragment, so it never reaches a server's
 * access log), the e-mail, and joining — by accepting while signed in, by registering with the invitation, or by
 * signing in with Steam or Discord from the invitation page. Registration by invitation works whatever
 * ALLOW_REGISTRATION says: the invitation is the permission.
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { conflict, forbidden, notFound } from '../../schema/errors.ts';
import { ROLES, type Role } from '../../schema/roles.ts';
import { hashSecret, looksLikeSecret } from '../../schema/secretTokens.ts';
import type { Mailer } from '../mail/mailer.ts';
import { quoteName } from '../mail/quoteName.ts';
import { INVITATION_STATUS_SQL } from '../../orchestrator/members/invitations.ts';

/** Invitation e-mails one address receives in 24 hours, whoever invites; later invitations are made but not e-mailed. */
export const INVITATION_MAILS_PER_ADDRESS_PER_DAY = 3;

export const invitationLink = (publicUrl: string, token: string) => `${publicUrl}/invite#token=${token}`;

const invitationRow = z.object({
  id: z.string(),
  clusterId: z.string(),
  clusterName: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  status: z.string(),
  expiresAt: z.string(),
});
export type InvitationRow = z.infer<typeof invitationRow>;

const selectInvitation = (tx: CommonQueryMethods, where: ReturnType<typeof sql.fragment>, lock: boolean) =>
  tx.maybeOne(sql.type(invitationRow)`
    SELECT i.id, i.cluster_id AS "clusterId", c.name AS "clusterName", i.email, i.role, ${INVITATION_STATUS_SQL} AS status,
           i.expires_at AS "expiresAt"
      FROM invitations i JOIN clusters c ON c.id = i.cluster_id
     WHERE ${where}
     ${lock ? sql.fragment`FOR UPDATE OF i` : sql.fragment``}`);

/** The invitation of a token (locked for the rest of the transaction when `lock`), or null for an unknown token. */
export async function findInvitation(tx: CommonQueryMethods, token: string, lock: boolean): Promise<InvitationRow | null> {
  if (!looksLikeSecret(token, 'invite')) return null;
  return selectInvitation(tx, sql.fragment`i.token_hash = ${sql.binary(hashSecret(token))}`, lock);
}

const mustBePending = (row: InvitationRow | null): InvitationRow => {
  if (!row) throw notFound('Invitation not found');
  if (row.status !== 'PENDING') throw conflict(`The invitation is ${row.status.toLowerCase()}`);
  return row;
};

/** The pending invitation of a token, locked; 404 for an unknown token, 409 for one no longer pending. */
export const pendingInvitation = async (tx: CommonQueryMethods, token: string): Promise<InvitationRow> => mustBePending(await findInvitation(tx, token, true));

/** The same by id (a Steam or Discord sign-in started from the invitation page carries the id in its signed state). */
export const pendingInvitationById = async (tx: CommonQueryMethods, id: string): Promise<InvitationRow> =>
  mustBePending(await selectInvitation(tx, sql.fragment`i.id = ${id}`, true));

/**
 * Makes `user` a member with the invitation's role and closes the invitation. With `matchEmail` the user's e-mail must
 * be the invited one (signing up or accepting with a password); a Steam or Discord sign-in from the invitation page
 * has no such e-mail, and the secret link is the proof.
 */
export async function joinByInvitation(
  tx: CommonQueryMethods,
  invitation: InvitationRow,
  user: { id: string; email: string },
  options: { matchEmail: boolean; memberMaySignIn?: boolean },
): Promise<void> {
  if (options.matchEmail && invitation.email.toLowerCase() !== user.email.toLowerCase()) throw forbidden('This invitation was sent to another e-mail address');
  const member = await tx.exists(sql.unsafe`SELECT 1 FROM cluster_members WHERE cluster_id = ${invitation.clusterId} AND user_id = ${user.id}`);
  if (member && !options.memberMaySignIn) throw conflict('Already a member of this cluster');
  // A member already keeps the role they have; the invitation is closed all the same.
  if (!member)
    await tx.query(sql.unsafe`INSERT INTO cluster_members (cluster_id, user_id, role) VALUES (${invitation.clusterId}, ${user.id}, ${invitation.role})`);
  await tx.query(sql.unsafe`UPDATE invitations SET status = 'ACCEPTED', accepted_by = ${user.id}, updated_at = now() WHERE id = ${invitation.id}`);
}

/**
 * Starts e-mailing the invitation's link, in the background; answers whether it is on its way (false without a
 * mailer, or for an address that cannot receive mail).
 */
export function emailInvitation(
  mailer: Mailer | null,
  input: { to: string; link: string; clusterName: string; role: Role; inviter: string; expiresAt: string },
): boolean {
  if (!mailer || /\.invalid$/i.test(input.to)) return false;
  const expires = new Date(input.expiresAt).toUTCString();
  const inviter = quoteName(input.inviter);
  const cluster = quoteName(input.clusterName);
  void mailer.send({
    to: input.to,
    subject: `${inviter} invited you to ${cluster}`,
    text: [
      `${inviter} invited you to join the cluster ${cluster} as ${input.role}.`,
      '',
      'Open this link to create your account (or sign in) and join:',
      input.link,
      '',
      `The invitation expires ${expires}. If you did not expect it, ignore this e-mail.`,
    ].join('\n'),
  });
  return true;
}
