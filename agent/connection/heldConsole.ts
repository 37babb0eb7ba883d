/**
 * Console output that comes while the agent's connection does not take it (an orchestrator handing its agents over in
 * an upgrade, a network blip, the back-off between attempts): held, within a bound, and sent once a connection takes
 * it again, in the order it came. Past the bound the oldest frames are let go (the newest say what the server is doing
 * now, a crash's reason among them); each server whose lines were let go gets one line first saying how many, so a
 * console never looks complete when it is not.
 */

/** A `console` frame as the agent sends it (schema/agentEvents.ts `consoleEvent`). */
export type ConsoleFrame = { serverId: string; lines: string[]; at: string };

/** Lines held in all while disconnected: about a minute of a chatty server. */
export const HELD_CONSOLE_MAX_LINES = 5_000;
/** And characters: long lines (up to 8,192 each) must not make it tens of MiB. */
export const HELD_CONSOLE_MAX_CHARS = 4 * 1024 * 1024;

/** `n`: the number the frame was last sent with (a frame sent but not known to have arrived), for the service's mark. */
type Held = { frame: ConsoleFrame; chars: number; n?: number };

const charsOf = (frame: ConsoleFrame): number => frame.lines.reduce((sum, line) => sum + line.length, 0);

export class HeldConsole {
  readonly #maxLines: number;
  readonly #maxChars: number;
  #frames: Held[] = [];
  /** The first frame still held (frames before it were let go; the array is compacted now and then). */
  #first = 0;
  #lines = 0;
  #chars = 0;
  /** Lines let go per server since the last drain. */
  #dropped = new Map<string, number>();
  /** Lines sent on a connection that ended, neither confirmed nor kept (SentConsole's bound), per server. */
  #unsure = new Map<string, number>();

  constructor(maxLines = HELD_CONSOLE_MAX_LINES, maxChars = HELD_CONSOLE_MAX_CHARS) {
    this.#maxLines = maxLines;
    this.#maxChars = maxChars;
  }

  /** Holds `frame`; `n` when it was sent on a connection that ended before the service confirmed it. */
  hold(frame: ConsoleFrame, n?: number): void {
    const chars = charsOf(frame);
    this.#frames.push(n === undefined ? { frame, chars } : { frame, chars, n });
    this.#lines += frame.lines.length;
    this.#chars += chars;
    while (this.#lines > this.#maxLines || this.#chars > this.#maxChars) {
      const oldest = this.#frames[this.#first++]!;
      this.#lines -= oldest.frame.lines.length;
      this.#chars -= oldest.chars;
      this.#dropped.set(oldest.frame.serverId, (this.#dropped.get(oldest.frame.serverId) ?? 0) + oldest.frame.lines.length);
    }
    if (this.#first > 1024 && this.#first * 2 > this.#frames.length) {
      this.#frames = this.#frames.slice(this.#first);
      this.#first = 0;
    }
  }

  /** `count` lines of a server were sent on a connection that ended and may not have reached the service. */
  unsure(serverId: string, count: number): void {
    this.#unsure.set(serverId, (this.#unsure.get(serverId) ?? 0) + count);
  }

  /**
   * A line per server whose lines were let go, then what is held, oldest first; empties the hold. Frames sent with a
   * number up to `arrived` (the service's mark of what reached it) are left out: they are in its console already.
   */
  drain(now = new Date(), arrived = 0): ConsoleFrame[] {
    const at = now.toISOString();
    const frames: ConsoleFrame[] = [
      ...[...this.#unsure].map(([serverId, count]) => ({
        serverId,
        lines: [`[gsm] ${count} console lines sent while the connection to the service was failing may not have reached it`],
        at,
      })),
      ...[...this.#dropped].map(([serverId, count]) => ({
        serverId,
        lines: [`[gsm] ${count} console lines dropped by the agent while it was not connected to the service`],
        at,
      })),
    ];
    for (let index = this.#first; index < this.#frames.length; index++) {
      const held = this.#frames[index]!;
      if (held.n === undefined || held.n > arrived) frames.push(held.frame);
    }
    this.#frames = [];
    this.#first = 0;
    this.#lines = 0;
    this.#chars = 0;
    this.#dropped = new Map();
    this.#unsure = new Map();
    return frames;
  }

  get size(): number {
    return this.#lines;
  }
}

/**
 * Console frames sent on the current connection that the service has not yet confirmed (`console:seen`, a few times a
 * second), each with its number. When a connection ends without a goodbye, what was in flight may never have arrived:
 * these go back to the hold and are sent again on the next connection, except those the service's mark (in that
 * connection's first `servers:sync`) says arrived. Bounded as the hold: a service that confirms keeps this to a
 * fraction of a second of output, but a connection that fails silently is noticed only by its ping time-out (up to
 * half a minute): past the bound the oldest are forgotten, and counted per server until a confirmation covers them,
 * so that a connection that then ends says how many lines may not have arrived.
 */
export class SentConsole {
  readonly #maxLines: number;
  readonly #maxChars: number;
  #frames: { frame: ConsoleFrame; chars: number; n: number }[] = [];
  #first = 0;
  #lines = 0;
  #chars = 0;
  /** Lines forgotten unconfirmed (past the bound) per server, and the last number forgotten. */
  #forgotten = new Map<string, number>();
  #forgottenUpTo = 0;

  constructor(maxLines = HELD_CONSOLE_MAX_LINES, maxChars = HELD_CONSOLE_MAX_CHARS) {
    this.#maxLines = maxLines;
    this.#maxChars = maxChars;
  }

  sent(frame: ConsoleFrame, n: number): void {
    const chars = charsOf(frame);
    this.#frames.push({ frame, chars, n });
    this.#lines += frame.lines.length;
    this.#chars += chars;
    while (this.#lines > this.#maxLines || this.#chars > this.#maxChars) {
      const oldest = this.#forget();
      this.#forgotten.set(oldest.frame.serverId, (this.#forgotten.get(oldest.frame.serverId) ?? 0) + oldest.frame.lines.length);
      this.#forgottenUpTo = oldest.n;
    }
    this.#compact();
  }

  /** The service has every frame numbered up to `n`. */
  confirmed(n: number): void {
    while (this.#first < this.#frames.length && this.#frames[this.#first]!.n <= n) this.#forget();
    if (n >= this.#forgottenUpTo) this.#forgotten.clear();
    this.#compact();
  }

  /** Everything unconfirmed, oldest first, and the lines forgotten unconfirmed per server (and forgets it all). */
  take(): { frames: { frame: ConsoleFrame; n: number }[]; forgotten: Map<string, number> } {
    const frames = this.#frames.slice(this.#first).map(({ frame, n }) => ({ frame, n }));
    const forgotten = this.#forgotten;
    this.#frames = [];
    this.#first = 0;
    this.#lines = 0;
    this.#chars = 0;
    this.#forgotten = new Map();
    this.#forgottenUpTo = 0;
    return { frames, forgotten };
  }

  get size(): number {
    return this.#lines;
  }

  #forget(): { frame: ConsoleFrame; n: number } {
    const oldest = this.#frames[this.#first++]!;
    this.#lines -= oldest.frame.lines.length;
    this.#chars -= oldest.chars;
    return oldest;
  }

  #compact(): void {
    if (this.#first > 1024 && this.#first * 2 > this.#frames.length) {
      this.#frames = this.#frames.slice(this.#first);
      this.#first = 0;
    }
    if (this.#first === this.#frames.length) {
      this.#frames = [];
      this.#first = 0;
    }
  }
}
