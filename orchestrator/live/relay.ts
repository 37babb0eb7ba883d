/**
 * Live-only events (`server.console`, `server.stats`): relayed to whoever watches, never stored in the event log.
 *
 * The gateway (on the orchestrator process that holds the agent's connection) publishes; every process that serves
 * viewers (Socket.IO `/live`, the SSE stream) receives. This file is the contract between the two sides. The in-process
 * relay below serves a single process; with REDIS_URL the relay built on Socket.IO's Redis adapter carries the same
 * events between processes (see ./socketRelay.ts once it exists).
 */
import { EventEmitter } from 'node:events';

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

export type LiveRelay = {
  /** Hands the event to every listener of every process (never throws, never waits on a slow listener). */
  publish: (event: LiveEvent) => void;
  /** Listens to every live event published anywhere; answers the function that stops listening. */
  subscribe: (listener: LiveListener) => () => void;
  close: () => Promise<void>;
};

/** The relay of a single process: publish reaches this process's listeners only. */
export function createLocalRelay(): LiveRelay {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (event) => {
      for (const listener of emitter.listeners('event') as LiveListener[]) {
        try {
          listener(event);
        } catch {
          // A failing listener must not keep the event from the others.
        }
      }
    },
    subscribe: (listener) => {
      emitter.on('event', listener);
      return () => void emitter.off('event', listener);
    },
    close: async () => void emitter.removeAllListeners(),
  };
}
