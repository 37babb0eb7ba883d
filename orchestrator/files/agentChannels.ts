/**
 * How the file routes reach a server's agent (docs/files.md): over the agent's own connection (agents dial out), as
 * `files` requests answered in the acknowledgement. The gateway of this process registers a lookup of its connected
 * agents here; the routes ask it. An agent connected to another process is not reachable from this one (503).
 */
export type FileChannel = (payload: Record<string, unknown>, timeoutMs: number) => Promise<Record<string, unknown>>;
type Resolver = (machineId: string) => FileChannel | undefined;

const resolvers = new Set<Resolver>();

/** Registers a gateway's lookup; answers the function that removes it again (the gateway closing). */
export function addFileChannelResolver(resolver: Resolver): () => void {
  resolvers.add(resolver);
  return () => void resolvers.delete(resolver);
}

/** The channel to machine `machineId`'s agent when it is connected to this process. */
export function fileChannelOf(machineId: string): FileChannel | undefined {
  for (const resolver of resolvers) {
    const channel = resolver(machineId);
    if (channel) return channel;
  }
  return undefined;
}
