/** Queries a game server with one of the protocols of schema/gamePorts.ts (docs/agent.md#query). */
import type { QueryProtocol } from '../../schema/gamePorts.ts';
import { queryA2s } from './a2s.ts';
import { queryMinecraft } from './minecraft.ts';
import { queryTcp } from './tcp.ts';
import type { QueryAnswer } from './types.ts';

export { QueryError, type QueryAnswer } from './types.ts';

export function queryServer(protocol: QueryProtocol, host: string, port: number, timeoutMs: number): Promise<QueryAnswer> {
  if (protocol === 'A2S') return queryA2s(host, port, timeoutMs);
  if (protocol === 'MINECRAFT') return queryMinecraft(host, port, timeoutMs);
  return queryTcp(host, port, timeoutMs);
}
