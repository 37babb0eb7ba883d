/**
 * This machine's servers by id, as `servers:sync` set them up. A job can reach the agent before the configuration of
 * its server (a job sent right after the server was created, or while a sync is being applied after a reconnect):
 * it waits for that server here instead of failing, until its deadline.
 */
import type { ServerSupervisor } from './serverSupervisor.ts';

export class Supervisors {
  readonly #byId = new Map<string, ServerSupervisor>();
  readonly #waiters = new Map<string, Set<(supervisor: ServerSupervisor) => void>>();

  get(serverId: string): ServerSupervisor | undefined {
    return this.#byId.get(serverId);
  }

  get size(): number {
    return this.#byId.size;
  }

  has(serverId: string): boolean {
    return this.#byId.has(serverId);
  }

  values(): IterableIterator<ServerSupervisor> {
    return this.#byId.values();
  }

  entries(): IterableIterator<[string, ServerSupervisor]> {
    return this.#byId.entries();
  }

  set(serverId: string, supervisor: ServerSupervisor): void {
    this.#byId.set(serverId, supervisor);
    const waiting = this.#waiters.get(serverId);
    this.#waiters.delete(serverId);
    for (const wake of waiting ?? []) wake(supervisor);
  }

  delete(serverId: string): void {
    this.#byId.delete(serverId);
  }

  /** The server's supervisor once it is set up; undefined when `timeoutMs` passes first. Rejects when `signal` aborts. */
  waitFor(serverId: string, timeoutMs: number, signal: AbortSignal): Promise<ServerSupervisor | undefined> {
    const found = this.#byId.get(serverId);
    if (found) return Promise.resolve(found);
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiters = this.#waiters.get(serverId) ?? this.#waiters.set(serverId, new Set()).get(serverId)!;
      const finish = (supervisor: ServerSupervisor | undefined, error?: unknown) => {
        clearTimeout(timer);
        waiters.delete(wake);
        if (waiters.size === 0 && this.#waiters.get(serverId) === waiters) this.#waiters.delete(serverId);
        signal.removeEventListener('abort', onAbort);
        if (error !== undefined) reject(error);
        else resolve(supervisor);
      };
      const wake = (supervisor: ServerSupervisor) => finish(supervisor);
      const onAbort = () => finish(undefined, signal.reason ?? new Error('aborted'));
      // setTimeout's limit (about 24.8 days) is far beyond any job's deadline; clamp to stay valid.
      const timer = setTimeout(() => finish(undefined), Math.max(0, Math.min(timeoutMs, 2 ** 31 - 1)));
      waiters.add(wake);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
