/**
 * Console commands over a process's standard input, as panels do for vanilla servers: write the command, then read
 * the output that follows. The answer ends at the first line matching `expect`, or after a short quiet period.
 * Commands run one at a time so their outputs do not interleave.
 */
import type { CommandChannel } from '../games/adapter.ts';
import type { RunningProcess } from '../runtime/processRuntime.ts';

/** With no `expect`, the answer is what the console printed until it stayed quiet this long. */
const QUIET_MS = 300;
/** The longest a command may take to answer. */
const COMMAND_TIMEOUT_MS = 5_000;

export class StdinChannel implements CommandChannel {
  readonly #process: RunningProcess;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(process: RunningProcess) {
    this.#process = process;
  }

  command(text: string, expect?: RegExp, timeoutMs = COMMAND_TIMEOUT_MS): Promise<string> {
    const run = () => this.#run(text, expect, timeoutMs);
    const result = this.#queue.then(run, run);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  #run(text: string, expect: RegExp | undefined, timeoutMs: number): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const lines: string[] = [];
      let quiet: NodeJS.Timeout | undefined;
      const finish = (error?: Error) => {
        clearTimeout(quiet);
        clearTimeout(limit);
        this.#process.off('line', onLine);
        if (error) reject(error);
        else resolve(lines.join('\n'));
      };
      const onLine = (_stream: 'stdout' | 'stderr', line: string) => {
        lines.push(line);
        if (expect?.test(line)) return finish();
        if (!expect) {
          clearTimeout(quiet);
          quiet = setTimeout(() => finish(), QUIET_MS);
        }
      };
      const limit = setTimeout(() => (expect ? finish(new Error(`no answer to ${JSON.stringify(text)} within ${timeoutMs} ms`)) : finish()), timeoutMs);
      this.#process.on('line', onLine);
      if (!expect) quiet = setTimeout(() => finish(), QUIET_MS);
      this.#process.write(text);
    });
  }
}
