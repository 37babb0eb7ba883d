/**
 * A viewer's start on a server's console (docs/events.md, "Console sequence and resume"): the lines kept in the
 * history (the last N, or every one after a sequence the viewer already has), then the live batches, with no line
 * lost or repeated between the two. The follower listens to the relay before it reads the history, holds the batches
 * that come meanwhile, and hands them on with the lines the history already gave cut off.
 */
import type { ConsoleHistory } from './consoleHistory.ts';
import { onlyServer, type ConsoleBatch, type LiveEvent, type LiveRelay, type SequencedLine } from './relay.ts';

export type ConsoleEvent = Extract<LiveEvent, { type: 'server.console' }>;

/** Batches a reader holds back while it reads the history; a console that busy (5,000 lines/s) needs far fewer. */
const MAX_HELD_BATCHES = 10_000;

export type ConsoleStart = { after: number } | { last: number };

export type ConsoleFollower = {
  /** The kept lines to show first, oldest first. */
  replay: SequencedLine[];
  /** Lines after the resume point were numbered but are no longer kept. */
  gap: boolean;
  /** The sequence of the last line handed on so far (0: none yet). */
  last: () => number;
  /**
   * Hands on (synchronously) the batches that came while the history was read, then each next batch as it comes,
   * every one cut to the lines after the last one handed on.
   */
  live: (deliver: (event: ConsoleEvent) => void) => void;
  stop: () => void;
};

/** The lines of `event` after sequence `last` (the event itself when all are; null when none is). */
export function after(event: ConsoleEvent, last: number): ConsoleEvent | null {
  const batch = event.data;
  const skip = last - batch.seq + 1;
  if (skip <= 0) return event;
  if (skip >= batch.lines.length) return null;
  const data: ConsoleBatch = { serverId: batch.serverId, lines: batch.lines.slice(skip), seq: batch.seq + skip };
  return { ...event, data };
}

export async function followConsole(live: { relay: LiveRelay; history: ConsoleHistory }, serverId: string, start: ConsoleStart): Promise<ConsoleFollower> {
  let held: ConsoleEvent[] | null = [];
  let deliver: ((event: ConsoleEvent) => void) | null = null;
  /** Where the follower starts: after the sequence it resumes from, or before the first line. */
  const resumedAt = 'after' in start ? start.after : 0;
  let last = 0;
  const pass = (event: ConsoleEvent) => {
    const rest = after(event, last);
    if (!rest) return;
    last = rest.data.seq + rest.data.lines.length - 1;
    deliver!(rest);
  };
  const unsubscribe = live.relay.subscribe((event) => {
    if (event.type !== 'server.console' || event.data.serverId !== serverId) return;
    if (deliver) return pass(event);
    // Bounded, should the history read hang: past the bound the oldest batches go.
    if (held && held.push(event) > MAX_HELD_BATCHES) held.shift();
  }, onlyServer(serverId));
  const follower = (replay: SequencedLine[], gap: boolean): ConsoleFollower => ({
    replay,
    gap,
    last: () => last,
    live(to) {
      deliver = to;
      const waiting = held ?? [];
      held = null;
      for (const event of waiting) pass(event);
    },
    stop: unsubscribe,
  });
  try {
    const { lines, gap } =
      'after' in start ? await live.history.since(serverId, start.after) : { lines: await live.history.recent(serverId, start.last), gap: false };
    last = lines.at(-1)?.seq ?? resumedAt;
    return follower(lines, gap);
  } catch {
    // The history cannot be read (Redis away, or stalled past the read's time-out): no replay, but the batches that
    // came while it was tried, and every next one, are still handed on. Resumed after a sequence, the lines between it
    // and the first live one may be missing: said as a gap.
    last = resumedAt;
    return follower([], 'after' in start);
  }
}
