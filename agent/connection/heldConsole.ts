/**
 * Console output that comes while the agent is not connected (an orchestrator handing its agents over in an upgrade,
 * a network blip, the back-off between attempts): held, within a bound, and sent once the agent is authenticated
 * again, in the order it came. Past the bound the newest frames are not kept: each server whose lines were let go gets
 * one line saying how many, so a console never looks complete when it is not.
 */

/** A `console` frame as the agent sends it (schema/agentEvents.ts `consoleEvent`). */
export type ConsoleFrame = { serverId: string; lines: string[]; at: string };

/** Lines held in all while disconnected: about a minute of a chatty server. */
export const HELD_CONSOLE_MAX_LINES = 5_000;
/** And characters: long lines (up to 8,192 each) must not make it tens of MiB. */
export const HELD_CONSOLE_MAX_CHARS = 4 * 1024 * 1024;

export class HeldConsole {
  readonly #maxLines: number;
  readonly #maxChars: number;
  #frames: ConsoleFrame[] = [];
  #lines = 0;
  #chars = 0;
  /** Lines let go per server since the last drain. */
  #dropped = new Map<string, number>();

  constructor(maxLines = HELD_CONSOLE_MAX_LINES, maxChars = HELD_CONSOLE_MAX_CHARS) {
    this.#maxLines = maxLines;
    this.#maxChars = maxChars;
  }

  hold(frame: ConsoleFrame): void {
    const chars = frame.lines.reduce((sum, line) => sum + line.length, 0);
    if (this.#lines + frame.lines.length > this.#maxLines || this.#chars + chars > this.#maxChars) {
      this.#dropped.set(frame.serverId, (this.#dropped.get(frame.serverId) ?? 0) + frame.lines.length);
      return;
    }
    this.#frames.push(frame);
    this.#lines += frame.lines.length;
    this.#chars += chars;
  }

  /** What was held, oldest first, then a line per server whose lines were let go; empties the hold. */
  drain(now = new Date()): ConsoleFrame[] {
    const frames = this.#frames;
    const at = now.toISOString();
    for (const [serverId, count] of this.#dropped)
      frames.push({ serverId, lines: [`[gsm] ${count} console lines dropped by the agent while it was not connected to the service`], at });
    this.#frames = [];
    this.#lines = 0;
    this.#chars = 0;
    this.#dropped = new Map();
    return frames;
  }

  get size(): number {
    return this.#lines;
  }
}
