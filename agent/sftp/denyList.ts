/**
 * The deny list a server's files are served with (docs/files.md): its template's (or the cluster's default), as the
 * service sends it with the server's configuration. Absent from an older service's configuration: nothing denied
 * beyond what the server's account may not touch.
 */
import type { ServerConfig } from '../../schema/agentEvents.ts';

export function denyListOf(config: ServerConfig): string[] {
  const list = (config as ServerConfig & { fileDenylist?: unknown }).fileDenylist;
  return Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === 'string') : [];
}
