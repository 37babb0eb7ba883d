/**
 * Live-only events (`server.console`, `server.stats`): relayed to whoever watches, never stored in the event log.
 *
 * The gateway (on the orchestrator process that holds the agent's connection) publishes; every process that serves
 * viewers (Socket.IO `/live`, the SSE stream) receives. This file is the contract between the two sides. The in-process
 * relay below serves a single process; with REDIS_URL the relay of ./redisRelay.ts carries the same events between
 * processes.
 *
 * Every listener watches some servers (a viewer's, a stream's): it says which with `wants`, so that a process with no
 * listener for a server does no work for that server's events (over Redis it does not even read them).
 */

export type ConsoleLine = { at: string; line: string };
/** A console line with its sequence: per server, one more than the line before it (see liveConsole.ts). */
export type SequencedLine = ConsoleLine & { seq: number };
/** A batch of console lines: `seq` is the sequence of its first line, the next lines follow one by one. */
export type ConsoleBatch = { serverId: string; lines: ConsoleLine[]; seq: number };

export type LiveEvent =
  | { type: 'server.console'; clusterId: string; at: string; data: ConsoleBatch }
  | {
      type: 'server.stats';
      clusterId: string;
      at: string;
      data: { serverId: string; cpuPercent: number | null; memoryBytes: number | null; playersOnline: number | null; diskBytes?: number; at: string };
    };

export type LiveListener = (event: LiveEvent) => void;
/** Whether a listener wants the live events of a server (its console and stats). */
export type ServerInterest = (serverId: string) => boolean;

export type LiveRelay = {
  /** Hands the event to every listener that wants its server, in every process (never throws, never waits on one). */
  publish: (event: LiveEvent) => void;
  /**
   * Listens to the live events of the servers `wants` names, published anywhere (`wants` is asked for each event, so
   * it may change its answer); answers the function that stops listening.
   */
  subscribe: (listener: LiveListener, wants: ServerInterest) => () => void;
  close: () => Promise<void>;
};

/** Listeners of the live events and what each wants: the part every relay shares. */
export function createListeners(onError: (error: unknown) => void = () => undefined) {
  const listeners = new Map<LiveListener, ServerInterest>();
  return {
    /** Whether any listener of this process wants the server's events. */
    wanted(serverId: string): boolean {
      for (const wants of listeners.values()) if (wants(serverId)) return true;
      return false;
    },
    dispatch(event: LiveEvent): void {
      for (const [listener, wants] of listeners) {
        try {
          if (wants(event.data.serverId)) listener(event);
        } catch (error) {
          // A failing listener must not keep the event from the others.
          onError(error);
        }
      }
    },
    add(listener: LiveListener, wants: ServerInterest): () => void {
      // A listener added twice is two subscriptions: each stops on its own.
      const own: LiveListener = (event) => listener(event);
      listeners.set(own, wants);
      return () => void listeners.delete(own);
    },
    clear: () => listeners.clear(),
  };
}

/** One server's events only. */
export const onlyServer =
  (serverId: string): ServerInterest =>
  (id) =>
    id === serverId;

/** The relay of a single process: publish reaches this process's listeners only. */
export function createLocalRelay(): LiveRelay {
  const listeners = createListeners();
  return {
    publish: (event) => listeners.dispatch(event),
    subscribe: (listener, wants) => listeners.add(listener, wants),
    close: async () => listeners.clear(),
  };
}
