/**
 * The agent's SFTP service as agent/run.ts starts it (docs/sftp.md): the host key, the server, and the questions
 * it asks the service over the agent's connection (`sftp:auth`, `sftp:check`) and what it tells it (`sftp:listening`,
 * `sftp:changed`). A port already taken is logged and SFTP stays off: the agent still runs its servers.
 */
import { sftpAuthAnswer, sftpCheckAnswer, type SftpAuthAnswer, type SftpChangedEvent } from '../../schema/agentEvents.ts';
import type { Logger } from '../../schema/logger.ts';
import { loadOrCreateHostKey } from './hostKey.ts';
import { SftpServer, type SftpServerOptions } from './sftpServer.ts';

export type SftpService = {
  /** Tells the service the port and host key (after every authentication). */
  announce: () => void;
  /** The service said a user's access changed: their sessions are checked now. */
  recheck: (userId: string) => void;
  closeServer: (serverId: string, why?: string) => void;
  close: () => Promise<void>;
  readonly server: SftpServer;
};

export async function startSftpService(options: {
  dataDir: string;
  port: number;
  address: string;
  logger: Logger;
  /** Sends an event to the service and waits for its answer; rejects when not connected or no answer in time. */
  request: (event: string, data: object) => Promise<unknown>;
  /** Sends an event without waiting (dropped while not connected). */
  emit: (event: string, data: object) => void;
  files: SftpServerOptions['files'];
  recheckMs?: number;
}): Promise<SftpService | undefined> {
  const logger = options.logger.child({ component: 'sftp' });
  let hostKey: Awaited<ReturnType<typeof loadOrCreateHostKey>>;
  let server: SftpServer;
  try {
    hostKey = await loadOrCreateHostKey(options.dataDir);
    server = await SftpServer.start({
      port: options.port,
      host: options.address,
      hostKey: hostKey.privateKey,
      logger,
      ...(options.recheckMs ? { recheckMs: options.recheckMs } : {}),
      authenticate: async (attempt): Promise<SftpAuthAnswer> => {
        const answer = sftpAuthAnswer.safeParse(await options.request('sftp:auth', attempt));
        return answer.success ? answer.data : { allowed: false, reason: 'the service gave no usable answer' };
      },
      recheck: async (sessions) => sftpCheckAnswer.parse(await options.request('sftp:check', { sessions })),
      files: options.files,
      changed: (change: SftpChangedEvent) => options.emit('sftp:changed', change),
    });
  } catch (error) {
    logger.error({ err: error, port: options.port }, 'SFTP could not start; the agent runs without it');
    return undefined;
  }
  logger.info({ port: server.port, address: options.address, hostKey: hostKey.fingerprint }, 'SFTP listening');
  return {
    server,
    announce: () => options.emit('sftp:listening', { port: server.port, hostKeyFingerprint: hostKey.fingerprint }),
    recheck: (userId) => void server.recheck(userId),
    closeServer: (serverId, why) => server.closeServer(serverId, why),
    close: () => server.close(),
  };
}
