/**
 * Console output that comes while the agent is not connected (an orchestrator handing its agents over in an upgrade,
 * a network blip, the back-off between attempts): held, within a bound, and sent once the agent is authenticated
 * again, in the order it came. Past the bound the newest frames are not kept: each server whose lines were let go gets
 * one line saying how many, so a console never looks complete when it is not.
 */

/** A `console` frame as the agent sends it (schema/agentEvents.ts `consoleEvent`). */
export type ConsoleFrame = { serverId: string; lines: string[]; at: string };

/** Lines held in all while disconnected: about a minute of a chatty server, a few MiB at most. */
export const HELD_CONSOLE_MAX_LINES = 5_000;

export class HeldConsole {
  readonly #maxLines: number;
  #frames: ConsoleFrame[] = [];
  #lines = 0;
  /** Lines let go per server since the last drain. */
  #dropped = new Map<string, number>();

  constructor(maxLines = HELD_CONSOLE_MAX_LINES) {
    this.#maxLines = maxLines;
  }

  hold(frame: ConsoleFrame): void {
    if (this.#lines + frame.lines.length > this.#maxLines) {
      this.#dropped.set(frame.serverId, (this.#dropped.get(frame.serverId) ?? 0) + frame.lines.length);
      return;
    }
    this.#frames.push(frame);
    this.#lines += frame.lines.length;
  }

  /** What was held, oldest first, then a line per server whose lines were let go; empties the hold. */
  drain(now = new Date()): ConsoleFrame[] {
    const frames = this.#frames;
    const at = now.toISOString();
    for (const [serverId, count] of this.#dropped)
      frames.push({ serverId, lines: [`[gsm] ${count} console lines dropped by the agent while it was not connected to the service`], at });
    this.#frames = [];
    this.#lines = 0;
    this.#dropped = new Map();
    return frames;
  }

  get size(): number {
    return this.#lines;
  }
}
