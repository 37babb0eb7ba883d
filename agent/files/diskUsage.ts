/**
 * The disk usage of each server's directory (docs/files.md#disk-usage), for its stats: measured by the server's file
 * helper (as its account: root never walks a server's tree), at most once per interval per server (default 5 min),
 * one measurement at a time on the machine, in the background; it does not keep the helper alive (a helper started for
 * it alone ends with it). A walk stops after WALK_TIMEOUT_MS: the figure is then
 * what it counted (at least that much). Stats carry the last figure; none is known before the first measurement ends.
 */
import type { FileSessions } from './fileSessions.ts';

export const DEFAULT_DISK_USAGE_INTERVAL_MS = 5 * 60_000;
/** The longest one walk may take (a directory of millions of files is measured in part). */
const WALK_TIMEOUT_MS = 30_000;

type Figure = { bytes: number; measuredAt: number };

export class DiskUsage {
  readonly #files: FileSessions;
  readonly #intervalMs: number;
  readonly #figures = new Map<string, Figure>();
  readonly #queue: string[] = [];
  /** The server being measured now (not queued again meanwhile). */
  #measuring: string | undefined;
  #running = false;

  constructor(files: FileSessions, intervalMs = DEFAULT_DISK_USAGE_INTERVAL_MS) {
    this.#files = files;
    this.#intervalMs = intervalMs;
  }

  /** The last figure of the server's directory (bytes), asking for a new one when it is older than the interval. */
  of(serverId: string, now = Date.now()): number | undefined {
    const figure = this.#figures.get(serverId);
    if ((!figure || now - figure.measuredAt >= this.#intervalMs) && !this.#queue.includes(serverId) && this.#measuring !== serverId) {
      this.#queue.push(serverId);
      void this.#drain();
    }
    return figure?.bytes;
  }

  async #drain(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      for (let serverId = this.#queue.shift(); serverId !== undefined; serverId = this.#queue.shift()) {
        this.#measuring = serverId;
        try {
          // Borrowed, not used: a measurement every interval must not keep an idle helper alive.
          const { bytes } = await this.#files.borrow(serverId, (helper) => helper.usage('', WALK_TIMEOUT_MS));
          this.#figures.set(serverId, { bytes, measuredAt: Date.now() });
        } catch {
          // Not this machine's server any more, or its helper ended (a STOP): measured again at the next ask.
          const figure = this.#figures.get(serverId);
          if (figure) figure.measuredAt = Date.now();
        }
      }
    } finally {
      this.#measuring = undefined;
      this.#running = false;
    }
  }

  forget(serverId: string): void {
    this.#figures.delete(serverId);
  }
}
