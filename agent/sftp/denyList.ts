/**
 * The deny list a server's files are served with (docs/agent.md#server-files): its template's `files.deny`, as the
 * service sends it with the server's configuration (`fileDenyList`), for the files API's helpers and SFTP's alike.
 * Absent (a server without a template, or an older service): nothing denied beyond what the server's account may not
 * touch.
 */
import type { ServerConfig } from '../../schema/agentEvents.ts';

export function denyListOf(config: ServerConfig): string[] {
  const list: unknown = config.fileDenyList;
  return Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === 'string') : [];
}
