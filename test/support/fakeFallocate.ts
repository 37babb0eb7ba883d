/**
 * A `fallocate` that refuses (it prints `said` on standard error and exits 1), put ahead of the real one on this
 * process's PATH, which the agent's spool hole punches are spawned with. Answers the function that puts PATH back.
 * PATH is the whole process's: only for serial tests.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export async function refusingFallocate(dir: string, said: string): Promise<() => void> {
  const bin = await mkdtemp(join(dir, 'bin-'));
  await writeFile(join(bin, 'fallocate'), `#!/bin/sh\necho '${said.replaceAll("'", `'\\''`)}' >&2\nexit 1\n`, { mode: 0o755 });
  const path = process.env.PATH;
  process.env.PATH = `${bin}:${path}`;
  return () => void (process.env.PATH = path);
}
