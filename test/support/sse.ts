/**
 * A Server-Sent Events reader over fetch, for tests: frames parsed as they arrive (`id`, `event`, `data`), comments
 * counted, and the end of the stream observed.
 */
export type SseFrame = { id?: string; event?: string; data: any };

export type SseReader = {
  status: number;
  frames: SseFrame[];
  /** Resolves with the first `count` frames (waiting for them as needed). */
  take: (count: number, timeoutMs?: number) => Promise<SseFrame[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close: () => void;
};

export async function openSse(url: string, headers: Record<string, string>): Promise<SseReader> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { Accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const frames: SseFrame[] = [];
  let wake: () => void = () => undefined;
  let done = false;
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let split = buffer.indexOf('\n\n');
        while (split >= 0) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          const frame: SseFrame = { data: undefined };
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const [field, ...rest] = line.split(':');
            const value = rest.join(':').replace(/^ /, '');
            if (field === 'id') frame.id = value;
            else if (field === 'event') frame.event = value;
            else if (field === 'data') data += value;
          }
          if (data) {
            frame.data = JSON.parse(data);
            frames.push(frame);
            wake();
          }
          split = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted by close()
    } finally {
      done = true;
      wake();
    }
  })();
  return {
    status: response.status,
    frames,
    ended,
    close: () => abort.abort(),
    async take(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (frames.length < count) {
        if (done) throw new Error(`the stream ended after ${frames.length} of ${count} frames`);
        if (Date.now() > deadline) throw new Error(`only ${frames.length} of ${count} frames within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
      return frames.slice(0, count);
    },
  };
}
