/**
 * The copy of one item (the server's archive, a backup) from the source agent to the target agent through this
 * process (docs/transfers.md#the-copy): chunks are read from the source a few ahead and written to the target in
 * order, each with its SHA-256, which the target checks before it writes; the target's count of what it holds is
 * where a copy starts, so a copy broken anywhere resumes from the last chunk the target acknowledged. Memory stays at
 * the read-ahead window whatever the size; a bandwidth limit paces the chunks.
 */
import type { FileChannel } from '../files/agentChannels.ts';

/** Bytes per chunk (the gateway's frames are at most 256 KiB; the agent answers at most 192 KiB). */
export const COPY_CHUNK = 128 * 1024;
/** Chunks read ahead of the one being written. */
const READ_AHEAD = 6;
/** Writes in flight to a target that applies them in the order they came (`inOrder` in its answer to `received`). */
export const WRITES_IN_FLIGHT = 8;
/** How long one chunk may take to be read or written before the agent counts as away. */
export const CHUNK_TIMEOUT_MS = 30_000;

/** An agent is not connected here, or did not answer: the transfer waits for it (a pause, not a failure). */
export class AgentAway extends Error {
  constructor(role: string) {
    super(`the ${role} machine's agent is not connected to this process or did not answer`);
  }
}

/** What a target answers a write that does not follow what it holds: the copy resumes from what it holds. */
const OUT_OF_STEP: ReadonlySet<string> = new Set(['OUT_OF_ORDER']);

/** An agent refused: its code says why. */
export class AgentRefused extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

export type Ask = (role: 'source' | 'target', payload: Record<string, unknown>, timeoutMs?: number) => Promise<Record<string, unknown>>;

/** One request to an agent: its answer, AgentAway when it cannot be asked, AgentRefused when it says no. */
export function askerFor(channels: { source: () => FileChannel | undefined; target: () => FileChannel | undefined }): Ask {
  return async (role, payload, timeoutMs = CHUNK_TIMEOUT_MS) => {
    const channel = channels[role]();
    if (!channel) throw new AgentAway(role);
    let answer: Record<string, unknown>;
    try {
      answer = await channel(payload, timeoutMs);
    } catch {
      throw new AgentAway(role);
    }
    const error = answer.error as { code?: string; message?: string } | undefined;
    // Long work that failed (`state: 'failed'`, a pack or a finish) is an answer its caller reads: a whole item whose
    // SHA-256 did not match is copied again.
    if (error && answer.state !== 'failed') throw new AgentRefused(error.code ?? 'FAILED', `${role}: ${error.message ?? 'refused'}`);
    return answer;
  };
}

const toBuffer = (value: unknown): Buffer =>
  Buffer.isBuffer(value) ? value : value instanceof Uint8Array ? Buffer.from(value) : value instanceof ArrayBuffer ? Buffer.from(value) : Buffer.alloc(0);

/**
 * Copies `key` (`size` bytes) from `start` (what the target holds) to the end. `progress` is told after each chunk the
 * target acknowledged; `stop` is asked between chunks (a cancel). `bytesPerSecond` paces the whole copy. With
 * `writesInFlight` above 1 (a target that applies an item's writes in the order they came) that many writes are sent
 * before the first is acknowledged: the round trip of each chunk no longer sets the pace.
 */
export async function copyItem(options: {
  ask: Ask;
  base: Record<string, unknown>;
  key: string;
  size: number;
  start: number;
  bytesPerSecond: number | null;
  progress: (offset: number) => Promise<void>;
  stop: () => boolean;
  writesInFlight?: number;
}): Promise<void> {
  const { ask, base, key, size } = options;
  const window = Math.max(1, options.writesInFlight ?? 1);
  const began = Date.now();
  let offset = options.start;
  /** The next byte to send to the target (ahead of `offset`, what it acknowledged, by the writes in flight). */
  let sent = offset;
  const reads = new Map<number, Promise<{ data: Buffer; sha256: string }>>();
  const writes: Promise<Record<string, unknown>>[] = [];
  const read = (at: number) =>
    ask('source', { ...base, op: 'read', key, offset: at, length: Math.min(COPY_CHUNK, size - at) }).then((answer) => ({
      data: toBuffer(answer.data),
      sha256: String(answer.sha256),
    }));
  // Reads under way that are not awaited (a failure part-way) must not reject unhandled.
  const ahead = (from: number) => {
    for (let at = from, n = 0; at < size && n < READ_AHEAD + window; at += COPY_CHUNK, n++) {
      if (!reads.has(at)) {
        const pending = read(at);
        pending.catch(() => undefined);
        reads.set(at, pending);
      }
    }
  };
  try {
    while (offset < size) {
      if (options.stop()) return;
      // Writes sent in order, up to the window, each once its chunk was read.
      while (sent < size && writes.length < window) {
        ahead(sent);
        const chunk = await reads.get(sent)!;
        reads.delete(sent);
        if (chunk.data.length === 0) throw new AgentRefused('SOURCE_SHORT', `the source's ${key} ended at ${sent} of ${size} bytes`);
        // A write the target finds out of step (another run's late write came first: a request forwarded across
        // processes that timed out, a lease that lapsed) is no failure of the transfer: the copy resumes from what the
        // target holds.
        const written = ask('target', { ...base, op: 'write', key, offset: sent, sha256: chunk.sha256, data: chunk.data }).catch((error: unknown) => {
          if (error instanceof AgentRefused && OUT_OF_STEP.has(error.code)) throw new AgentAway('target');
          throw error;
        });
        written.catch(() => undefined);
        writes.push(written);
        sent += chunk.data.length;
      }
      offset = Number((await writes.shift()!).size);
      await options.progress(offset);
      if (options.bytesPerSecond) {
        // Paced over the whole copy: a slow chunk lets the next ones go at once.
        const due = began + ((offset - options.start) / options.bytesPerSecond) * 1000;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  } finally {
    // Writes still in flight (a stop, a failure) end on their own: the target's count says what it holds.
    await Promise.allSettled(writes);
    reads.clear();
  }
}
