/**
 * Server limits with cgroup v2 (docs/agent.md#limits). Where the agent can write the unified hierarchy (it runs as
 * root outside a container, or under systemd with `Delegate=yes`, as the unit `gsm-agent install` writes), each
 * server runs in its own cgroup `<base>/gsm-server-<id>` with `memory.max`, `cpu.max` and (with the pids controller)
 * `pids.max`; the agent moves itself into
 * `<base>/gsm-agent` first, since a cgroup that holds processes cannot hand controllers to its children. Elsewhere
 * `available` is false and the supervisor watches memory itself.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** cpu.max's period: 100 ms, the kernel's default. */
const CPU_PERIOD_US = 100_000;

export type Limits = { memoryLimitMb?: number | null; cpuLimitPercent?: number | null };

/** The unified hierarchy's mount point and this process's cgroup in it, from /proc (Linux); undefined elsewhere. */
function ownCgroup(): string | undefined {
  try {
    const mount = readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .find((fields) => fields[2] === 'cgroup2')?.[1];
    const path = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('0::'))
      ?.slice(3);
    if (!mount || path === undefined) return undefined;
    return join(mount, path.replace(/\/gsm-agent$/, ''));
  } catch {
    return undefined;
  }
}

/** A server's process limit (pids.max) unless the agent's setting `serverPidsMax` says otherwise. */
export const DEFAULT_PIDS_MAX = 4096;

export class Cgroups {
  /** The cgroup under which servers' cgroups are made, once set up; undefined when limits cannot be enforced here. */
  #base: string | undefined;
  /** pids.max of each server's cgroup (its processes and threads: a fork bomb stops there), where `pids` is available. */
  readonly #pidsMax: number;
  #pids = false;

  constructor(options: { pidsMax?: number } = {}) {
    this.#pidsMax = options.pidsMax ?? DEFAULT_PIDS_MAX;
  }
  /** Why cgroups are not used here (for the log and `gsm-agent status`). */
  reason = 'not set up';

  get available(): boolean {
    return this.#base !== undefined;
  }

  /** Sets up delegation below `base` (this process's own cgroup unless given); false, with `reason`, when it cannot. */
  async setUp(base: string | undefined = ownCgroup()): Promise<boolean> {
    if (!base) return this.#fail('no cgroup v2 (unified) hierarchy');
    try {
      const controllers = (await readFile(join(base, 'cgroup.controllers'), 'utf8')).split(/\s+/);
      const missing = ['memory', 'cpu'].filter((name) => !controllers.includes(name));
      if (missing.length > 0) return this.#fail(`the cgroup v2 controllers ${missing.join(' and ')} are not available to ${base}`);
      await mkdir(join(base, 'gsm-agent'), { recursive: true });
      await writeFile(join(base, 'gsm-agent', 'cgroup.procs'), String(process.pid));
      this.#pids = controllers.includes('pids');
      await writeFile(join(base, 'cgroup.subtree_control'), this.#pids ? '+memory +cpu +pids' : '+memory +cpu');
    } catch (error) {
      return this.#fail(`${base} is not writable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    this.#base = base;
    this.reason = `cgroup v2 at ${base}`;
    return true;
  }

  #fail(reason: string): false {
    this.reason = reason;
    this.#base = undefined;
    return false;
  }

  /** The server's cgroup with `limits` written (made if new); undefined when cgroups are not available here. */
  async prepare(serverId: string, limits: Limits): Promise<string | undefined> {
    if (!this.#base) return undefined;
    const dir = join(this.#base, `gsm-server-${serverId}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'memory.max'), limits.memoryLimitMb ? String(limits.memoryLimitMb * 1024 * 1024) : 'max');
    // Swap would only make a server over its limit crawl instead of being stopped.
    await writeFile(join(dir, 'memory.swap.max'), limits.memoryLimitMb ? '0' : 'max').catch(() => undefined);
    await writeFile(
      join(dir, 'cpu.max'),
      limits.cpuLimitPercent ? `${Math.round((limits.cpuLimitPercent / 100) * CPU_PERIOD_US)} ${CPU_PERIOD_US}` : `max ${CPU_PERIOD_US}`,
    );
    if (this.#pids) await writeFile(join(dir, 'pids.max'), String(this.#pidsMax));
    return dir;
  }

  /** How many times the kernel killed a process of the cgroup for going over memory.max. */
  async oomKills(dir: string): Promise<number> {
    const events = await readFile(join(dir, 'memory.events'), 'utf8').catch(() => '');
    return Number(/^oom_kill (\d+)$/m.exec(events)?.[1] ?? 0);
  }

  /** Removes a server's cgroup once its processes are gone (the kernel refuses while any remains). */
  async remove(dir: string): Promise<void> {
    await rmdir(dir).catch(() => undefined);
  }
}
