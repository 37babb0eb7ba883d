/**
 * CPU and memory of a running game server, from /proc (Linux): CPU is the share of one core used since the last
 * sample, memory the resident set. Elsewhere, or once the process is gone, there is nothing to report.
 */
import { readFile } from 'node:fs/promises';

const CLOCK_TICKS_PER_SECOND = 100;
const PAGE_BYTES = 4096;

export function createProcessSampler(pid: number) {
  let previous: { ticks: number; at: number } | undefined;
  return async (): Promise<{ cpuPercent: number; memoryBytes: number } | null> => {
    const [stat, statm] = await Promise.all([
      readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null),
      readFile(`/proc/${pid}/statm`, 'utf8').catch(() => null),
    ]);
    if (!stat || !statm) return null;
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th of the whole line.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    const at = Date.now();
    const cpuPercent = previous && at > previous.at ? ((ticks - previous.ticks) / CLOCK_TICKS_PER_SECOND / ((at - previous.at) / 1000)) * 100 : 0;
    previous = { ticks, at };
    return { cpuPercent: Math.max(0, Math.round(cpuPercent * 10) / 10), memoryBytes: Number(statm.split(' ')[1]) * PAGE_BYTES };
  };
}

/** Resident memory of `pid` and all its descendants (a game started by a wrapper script is mostly its child's). */
export async function treeMemoryBytes(pid: number): Promise<number | null> {
  let total = 0;
  let found = false;
  const seen = new Set<number>();
  const visit = async (id: number, depth: number): Promise<void> => {
    if (seen.has(id) || depth > 32) return;
    seen.add(id);
    const statm = await readFile(`/proc/${id}/statm`, 'utf8').catch(() => null);
    if (!statm) return;
    found = true;
    total += Number(statm.split(' ')[1]) * PAGE_BYTES;
    const children = await readFile(`/proc/${id}/task/${id}/children`, 'utf8').catch(() => '');
    for (const child of children.trim().split(' ').filter(Boolean)) await visit(Number(child), depth + 1);
  };
  await visit(pid, 0);
  return found ? total : null;
}
