/**
 * What a heartbeat says about this machine: CPU use since the last beat, memory in use, disk in use under the
 * agent's data directory, and (on the first beat) the host's facts.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { cpus, freemem, hostname, networkInterfaces, platform, release, totalmem } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { KNOWN_TOOLS } from '../schema/tools.ts';

type CpuTimes = { idle: number; total: number };

const cpuTimes = (): CpuTimes =>
  cpus().reduce(
    (sum, cpu) => {
      const total = cpu.times.user + cpu.times.nice + cpu.times.sys + cpu.times.idle + cpu.times.irq;
      return { idle: sum.idle + cpu.times.idle, total: sum.total + total };
    },
    { idle: 0, total: 0 },
  );

/**
 * The programs of KNOWN_TOOLS found on `path` (absolute directories only): executable regular files. Install steps
 * run with the agent's PATH, so these are what a template's `install.tools` is checked against.
 */
export function toolsOnPath(path: string | undefined = process.env.PATH): string[] {
  const directories = (path ?? '').split(delimiter).filter((directory) => directory !== '' && isAbsolute(directory));
  return KNOWN_TOOLS.filter((tool) =>
    directories.some((directory) => {
      const file = join(directory, tool);
      try {
        accessSync(file, constants.X_OK);
        return statSync(file).isFile();
      } catch {
        return false;
      }
    }),
  );
}

const TOOLS_RESCAN_MS = 60_000;

export function createMetricsSampler(dataDir: string) {
  let previous = cpuTimes();
  /** The tools found, looked for again at most once a minute. */
  let tools = { found: [] as string[], at: -Infinity };
  return {
    host: () => {
      if (performance.now() - tools.at > TOOLS_RESCAN_MS) tools = { found: toolsOnPath(), at: performance.now() };
      return {
        hostname: hostname(),
        os: `${platform()} ${release()}`,
        cpuCount: cpus().length,
        memoryBytes: totalmem(),
        tools: tools.found,
        addresses: hostAddresses(),
      };
    },
    async sample() {
      const now = cpuTimes();
      const total = now.total - previous.total;
      const cpuPercent = total > 0 ? Math.round((1 - (now.idle - previous.idle) / total) * 1000) / 10 : 0;
      previous = now;
      const disk = await statfs(dataDir).catch(() => null);
      return {
        cpuPercent: Math.max(0, cpuPercent),
        memoryUsedBytes: totalmem() - freemem(),
        diskUsedBytes: disk ? (disk.blocks - disk.bfree) * disk.bsize : 0,
        // What an unprivileged writer may still use there (a transfer's target is checked against it).
        ...(disk ? { diskFreeBytes: disk.bavail * disk.bsize } : {}),
      };
    },
  };
}

/** The host's addresses players may reach: every interface's, loopback and link-local (fe80::/10) aside. */
export function hostAddresses(): string[] {
  const found = new Set<string>();
  for (const entries of Object.values(networkInterfaces()))
    for (const entry of entries ?? []) if (!entry.internal && !/^fe[89ab]/i.test(entry.address)) found.add(entry.address);
  return [...found].slice(0, 64);
}
