/**
 * How the file routes and transfers (docs/files.md, docs/transfers.md) reach a server's agent: over the agent's own
 * connection (agents dial out), as `files` or `transfer` requests answered in the acknowledgement. The gateway of this
 * process registers a lookup of its connected agents here; the routes and the transfer runner ask it. With Redis, file
 * and transfer requests for an agent connected to another process are forwarded to it (agentRequestsAcross.ts), so a
 * transfer runs on a process holding either of its two agents.
 */
export type FileChannel = (payload: Record<string, unknown>, timeoutMs: number) => Promise<Record<string, unknown>>;
/** The requests an agent answers over its connection. */
export type ChannelEvent = 'files' | 'transfer';
type Resolver = (machineId: string, event: ChannelEvent) => FileChannel | undefined;

const resolvers = new Set<Resolver>();

/** Registers a gateway's lookup; answers the function that removes it again (the gateway closing). */
export function addFileChannelResolver(resolver: Resolver): () => void {
  resolvers.add(resolver);
  return () => void resolvers.delete(resolver);
}

/** Whether this process holds agent connections at all (an orchestrator role): a web-only process has none. */
export const holdsAgentConnections = (): boolean => resolvers.size > 0;

/** The channel of `event` requests to machine `machineId`'s agent when it is connected to this process. */
export function agentChannelOf(machineId: string, event: ChannelEvent): FileChannel | undefined {
  for (const resolver of resolvers) {
    const channel = resolver(machineId, event);
    if (channel) return channel;
  }
  return undefined;
}

/** An agent that no process of the installation holds (the forwarding found none). */
export class AgentUnreachableError extends Error {}

/** Requests to agents connected to other processes (set with Redis); rejects with AgentUnreachableError. */
let forwarded: ((machineId: string, event: ChannelEvent) => FileChannel) | undefined;

/** Sets how requests reach agents of other processes; answers the function that removes it again. */
export function setForwardedFileChannels(channelOf: (machineId: string, event: ChannelEvent) => FileChannel): () => void {
  forwarded = channelOf;
  return () => {
    if (forwarded === channelOf) forwarded = undefined;
  };
}

/**
 * The file requests' channel to machine `machineId`'s agent: over its connection to this process, or forwarded to the
 * process that holds it; undefined when neither can be (no Redis, and not connected here).
 */
export const fileChannelOf = (machineId: string): FileChannel | undefined => agentChannelOf(machineId, 'files') ?? forwarded?.(machineId, 'files');

/** The transfer requests' channel to machine `machineId`'s agent, the same way. */
export const transferChannelOf = (machineId: string): FileChannel | undefined => agentChannelOf(machineId, 'transfer') ?? forwarded?.(machineId, 'transfer');

/** Whether requests to agents of other processes can be forwarded from this process (it has Redis). */
export const forwardsAcross = (): boolean => forwarded !== undefined;
