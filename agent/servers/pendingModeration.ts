/**
 * Bans and unbans that reached a server while it was not running (docs/agent.md). They wait in the agent's own run
 * directory, `<data-dir>/run/<id>/.gsm-pending-moderation.json` (never in the server's directory, which its account
 * can change), in order, and are applied to the
 * game's own list as soon as the server is next ONLINE — so an unban sent at night, while the server was stopped,
 * still lifts the in-game ban. The file survives agent restarts; it is written whole to a temporary file and renamed.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type PendingAction = { type: 'BAN' | 'UNBAN'; steamId: string; username: string; reason: string };

const FILE = '.gsm-pending-moderation.json';

export class PendingModeration {
  readonly #dir: string;
  /** One change at a time, in the order asked. */
  #chain: Promise<unknown> = Promise.resolve();

  constructor(runDir: string) {
    this.#dir = runDir;
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(work, work);
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #read(): Promise<PendingAction[]> {
    const text = await readFile(join(this.#dir, FILE), 'utf8').catch(() => '[]');
    try {
      const parsed = JSON.parse(text) as unknown;
      return Array.isArray(parsed) ? (parsed as PendingAction[]) : [];
    } catch {
      return [];
    }
  }

  async #write(actions: PendingAction[]): Promise<void> {
    const file = join(this.#dir, FILE);
    if (actions.length === 0) return void (await rm(file, { force: true }));
    await mkdir(this.#dir, { recursive: true });
    await writeFile(`${file}.tmp`, JSON.stringify(actions));
    await rename(`${file}.tmp`, file);
  }

  /** Remembers an action for the next time the server is online. */
  add(action: PendingAction): Promise<void> {
    return this.#serial(async () => this.#write([...(await this.#read()), action]));
  }

  /**
   * Applies the waiting actions in order with `apply`; those not applied (the first failure and what follows) stay
   * for the next time. Answers how many were applied. Never rejects (it runs unawaited when a server comes online):
   * when what is left cannot be written back (a full disk), the file keeps every action and the applied ones are
   * applied again next time, which a game's ban list takes as a no-op.
   */
  drain(apply: (action: PendingAction) => Promise<void>): Promise<number> {
    return this.#serial(async () => {
      const actions = await this.#read();
      let done = 0;
      for (const action of actions) {
        try {
          await apply(action);
        } catch {
          break;
        }
        done++;
      }
      if (done > 0) await this.#write(actions.slice(done)).catch(() => undefined);
      return done;
    });
  }
}
