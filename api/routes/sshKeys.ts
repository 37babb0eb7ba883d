/**
 * SSH public keys on the signed-in user's account, for SFTP (docs/sftp.md). Added and deleted only from a
 * session (as API tokens): a stolen API token must not add a way in that outlives it.
 */
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Api } from '../http/route.ts';
import { forbidden } from '../../schema/errors.ts';
import { id } from '../../schema/http.ts';
import { createSshKeyBody, MAX_SSH_KEYS, sshKey } from '../../schema/sshKeys.ts';
import { principalOf } from '../identity/principal.ts';
import { originOf } from '../identity/origin.ts';
import { addSshKey, deleteSshKey, listSshKeys } from '../../orchestrator/sftp/keys.ts';
import type { Context } from 'koa';

const FROM_SESSION = 'SSH keys are added and deleted while signed in with a session, not with an API token';

function sessionUser(ctx: Context): string {
  const principal = principalOf(ctx);
  if (principal.kind !== 'USER') throw forbidden(FROM_SESSION);
  return principal.user.id;
}

export function installSshKeyRoutes(api: Api, deps: AppDeps) {
  const { pool } = deps;

  api.route({
    method: 'get',
    path: '/api/v1/account/ssh-keys',
    summary: 'List your SSH keys',
    description: "The public keys you sign in to servers' files with over SFTP, newest first. Answers `{ keys }`, like the token list.",
    tags: ['Account'],
    auth: 'user',
    responses: { 200: { description: 'Your SSH keys', schema: z.object({ keys: z.array(sshKey) }) } },
    handler: async (ctx) => ({ keys: await listSshKeys(pool, principalOf(ctx).user.id) }),
  });

  api.route({
    method: 'post',
    path: '/api/v1/account/ssh-keys',
    summary: 'Add an SSH key',
    description: `One OpenSSH public key line (the contents of \`~/.ssh/id_ed25519.pub\`): ssh-ed25519, ecdsa-sha2-nistp256/384/521, or ssh-rsa of 2048 bits or more; certificates and security keys (sk-) are refused. Checked down to the key itself and fingerprinted (SHA256, as \`ssh-keygen -l\` prints it). At most ${MAX_SSH_KEYS} keys per account; the same key once (409). From a session only.`,
    tags: ['Account'],
    auth: 'user',
    body: createSshKeyBody,
    status: 201,
    responses: {
      201: { description: 'The key', schema: sshKey },
      409: { description: `The key is already on your account, or you hold ${MAX_SSH_KEYS} keys` },
    },
    handler: (ctx, { body }) => addSshKey(pool, originOf(ctx), sessionUser(ctx), body),
  });

  api.route({
    method: 'delete',
    path: '/api/v1/account/ssh-keys/:keyId',
    summary: 'Delete an SSH key',
    description: 'Effective at once for new SFTP sign-ins; SFTP sessions opened with the key are closed within seconds.',
    tags: ['Account'],
    auth: 'user',
    params: z.object({ keyId: id }),
    responses: { 200: { description: 'Deleted', schema: z.object({ success: z.literal(true), message: z.string() }) } },
    handler: async (ctx, { params }) => {
      await deleteSshKey(pool, originOf(ctx), sessionUser(ctx), params.keyId);
      return { success: true as const, message: 'SSH key deleted' };
    },
  });
}
