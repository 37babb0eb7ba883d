/**
 * `npm run bench -- backups`: backup and restore of a server directory of mixed files (BENCH_BACKUP_MB, default 1024:
 * many small compressible files, region-like files half random, a few large ones), through the agent's archiver
 * beside `tar -czf` / `tar -xzf` of the same directory, in the same run (backups twice, restores three times in
 * alternating order; the best run counts; the page cache is warm for both; dirty pages are written out before each run).
 *
 * Throughput is source megabytes per wall-clock second; the agent's runs are timed inside its process, from the call to
 * its end (the agent runs already when it backs up: Node's start-up is no part of a backup), tar's from its start to
 * its end. CPU is user + system seconds of everything involved, the Node process's start-up included: each run
 * is a child `bash -c '…; times'` whose `times` prints the CPU of its children (tar, gzip, or the Node process with its
 * tar child). Memory: the peak RSS (maxRSS) of the Node process that runs the archiver, which must stay flat whatever
 * the directory's size. Target: ≥ 80 % of tar's throughput.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TOTAL_MB = Number(process.env.BENCH_BACKUP_MB ?? 1024);
const self = new URL(import.meta.url).pathname;

// ---- worker mode: one archiver operation in its own process, printing what it measured

if (process.argv[2] === '--worker') {
  const { writeArchive, restoreArchive } = await import('../../agent/backups/archiver.ts');
  const [, , , operation, a, b, sha] = process.argv;
  // Timed from here: the agent runs already when it backs up or restores, its own start-up is no part of either.
  const started = process.hrtime.bigint();
  const elapsedS = () => Number(process.hrtime.bigint() - started) / 1e9;
  if (operation === 'create') {
    const made = await writeArchive({ dir: a!, destFile: b!, account: undefined });
    process.stdout.write(`${JSON.stringify({ ...made, elapsedS: elapsedS(), maxRssKb: process.resourceUsage().maxRSS })}\n`);
  } else {
    await restoreArchive({ source: { file: a! }, expectedSha256: sha!, dir: b!, account: undefined });
    process.stdout.write(`${JSON.stringify({ elapsedS: elapsedS(), maxRssKb: process.resourceUsage().maxRSS })}\n`);
  }
  process.exit(0);
}

// ---- the benchmark

/** A directory of about `totalMb` of game-server-like files; half of the bytes compress well. */
async function makeServerDir(dir: string, totalMb: number): Promise<{ files: number; bytes: number }> {
  const random = randomBytes(16 * 1024 * 1024);
  const text = Buffer.from(
    Array.from({ length: 4096 }, (_, i) => `{"player":"p${i}","x":${i * 7},"y":64,"z":${i * 3},"inventory":["stone","dirt","torch"]}\n`).join(''),
  );
  const slice = (source: Buffer, size: number, at: number) => {
    const parts: Buffer[] = [];
    for (let left = size, offset = at % source.length; left > 0;) {
      const take = Math.min(left, source.length - offset);
      parts.push(source.subarray(offset, offset + take));
      left -= take;
      offset = 0;
    }
    return Buffer.concat(parts);
  };
  let bytes = 0;
  let files = 0;
  const write = async (path: string, data: Buffer) => {
    await writeFile(path, data);
    bytes += data.length;
    files += 1;
  };
  const budget = totalMb * 1024 * 1024;
  // 10 %: small JSON and config files (4 KiB each), like player data and plugin configs.
  await mkdir(join(dir, 'world', 'playerdata'), { recursive: true });
  await mkdir(join(dir, 'plugins', 'config'), { recursive: true });
  for (let i = 0; bytes < budget * 0.1; i++) await write(join(dir, i % 2 ? 'world/playerdata' : 'plugins/config', `f${i}.json`), slice(text, 4096, i * 131));
  // 50 %: region files of 2 MiB, half random (compressed chunks) and half repetitive.
  await mkdir(join(dir, 'world', 'region'), { recursive: true });
  for (let i = 0; bytes < budget * 0.6; i++) {
    await write(join(dir, 'world', 'region', `r.${i}.0.mca`), Buffer.concat([slice(random, 1024 * 1024, i * 4099), slice(text, 1024 * 1024, i * 17)]));
  }
  // 40 %: a few large files (logs, a database, a jar), mixed.
  await mkdir(join(dir, 'logs'), { recursive: true });
  for (let i = 0; bytes < budget; i++) {
    const size = Math.min(64 * 1024 * 1024, budget - bytes);
    await write(join(dir, 'logs', `big${i}.dat`), i % 2 ? slice(random, size, i * 65_537) : slice(text, size, i));
  }
  return { files, bytes };
}

/**
 * Runs `command` in bash; answers wall seconds, CPU seconds of its children, and its standard output. Dirty pages of
 * the previous run are written out first (untimed): otherwise a run pays for its predecessor's writes.
 */
function timed(command: string): { wallS: number; cpuS: number; stdout: string } {
  spawnSync('sync');
  const started = process.hrtime.bigint();
  const run = spawnSync('bash', ['-c', `${command}\ntimes`], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0) throw new Error(`${command} failed: ${run.stderr}`);
  const lines = run.stdout.trim().split('\n');
  // `times`: the shell's own user/system, then its children's: "0m1.234s 0m0.567s".
  const children = lines
    .at(-1)!
    .match(/(\d+)m([\d.]+)s/g)!
    .map((part) => {
      const [, m, s] = /(\d+)m([\d.]+)s/.exec(part)!;
      return Number(m) * 60 + Number(s);
    });
  return { wallS, cpuS: children.reduce((a, b) => a + b, 0), stdout: lines.slice(0, -2).join('\n') };
}

const best = <T extends { wallS: number }>(runs: T[]) => runs.reduce((a, b) => (b.wallS < a.wallS ? b : a));
const node = `"${process.execPath}"`;

const root = await mkdtemp(join(tmpdir(), 'gsm-bench-backups-'));
try {
  const source = join(root, 'server');
  process.stdout.write(`Making a ${TOTAL_MB} MB server directory… `);
  const made = await makeServerDir(source, TOTAL_MB);
  const mb = made.bytes / 1024 / 1024;
  process.stdout.write(`${made.files} files, ${mb.toFixed(0)} MB\n`);
  spawnSync('sync');

  const ours = join(root, 'ours.tar.gz');
  const theirs = join(root, 'tar.tar.gz');
  const backups: { name: string; wallS: number; cpuS: number; rssMb: number | null; sizeMb: number }[] = [];
  let sha256 = '';
  for (let round = 0; round < 2; round++) {
    await rm(theirs, { force: true });
    const tar = timed(`tar -czf "${theirs}" -C "${source}" .`);
    backups.push({ name: 'tar -czf', ...tar, rssMb: null, sizeMb: Number(spawnSync('stat', ['-c', '%s', theirs], { encoding: 'utf8' }).stdout) / 1048576 });
    await rm(ours, { force: true });
    const run = timed(`${node} "${self}" --worker create "${source}" "${ours}"`);
    const result = JSON.parse(run.stdout) as { sizeBytes: number; sha256: string; maxRssKb: number; elapsedS: number };
    sha256 = result.sha256;
    backups.push({ name: 'agent writeArchive', wallS: result.elapsedS, cpuS: run.cpuS, rssMb: result.maxRssKb / 1024, sizeMb: result.sizeBytes / 1048576 });
  }

  const restores: { name: string; wallS: number; cpuS: number; rssMb: number | null }[] = [];
  // Three rounds, the order alternating, each extraction into a new directory removed only after the round: neither
  // run pays for the other's removal or write-back.
  for (let round = 0; round < 3; round++) {
    const into = join(root, `tar-restore-${round}`);
    const target = join(root, `ours-restore-${round}`);
    const runTar = () => {
      spawnSync('mkdir', ['-p', into]);
      restores.push({ name: 'tar -xzf', ...timed(`tar -xzf "${theirs}" -C "${into}"`), rssMb: null });
    };
    const runOurs = () => {
      const run = timed(`${node} "${self}" --worker restore "${ours}" "${target}" ${sha256}`);
      const result = JSON.parse(run.stdout) as { maxRssKb: number; elapsedS: number };
      restores.push({ name: 'agent restoreArchive', wallS: result.elapsedS, cpuS: run.cpuS, rssMb: result.maxRssKb / 1024 });
    };
    if (round % 2 === 0) {
      runTar();
      runOurs();
    } else {
      runOurs();
      runTar();
    }
    await rm(into, { recursive: true, force: true });
    await rm(target, { recursive: true, force: true });
  }

  const row = (name: string, wallS: number, cpuS: number, rssMb: number | null, extra = '') =>
    `${name.padEnd(22)} ${(mb / wallS).toFixed(1).padStart(8)} MB/s ${wallS.toFixed(2).padStart(7)} s ${cpuS.toFixed(2).padStart(7)} s CPU ${rssMb === null ? '     —' : `${rssMb.toFixed(0).padStart(4)} MB`} ${extra}`;
  const report = (
    title: string,
    runs: { name: string; wallS: number; cpuS: number; rssMb: number | null; sizeMb?: number }[],
    baseline: string,
    mine: string,
  ) => {
    const base = best(runs.filter((r) => r.name === baseline));
    const ourBest = best(runs.filter((r) => r.name === mine));
    process.stdout.write(`\n${title} (${mb.toFixed(0)} MB of source, best of ${runs.length / 2})\n`);
    process.stdout.write(`${'run'.padEnd(22)} ${'throughput'.padStart(13)} ${'wall'.padStart(9)} ${'CPU'.padStart(13)} peak RSS\n`);
    for (const r of [base, ourBest]) process.stdout.write(`${row(r.name, r.wallS, r.cpuS, r.rssMb, r.sizeMb ? `archive ${r.sizeMb.toFixed(0)} MB` : '')}\n`);
    const ratio = base.wallS / ourBest.wallS;
    process.stdout.write(`ratio: ${(ratio * 100).toFixed(0)} % of tar's throughput (target ≥ 80 %): ${ratio >= 0.8 ? 'met' : 'NOT met'}\n`);
  };
  report('Backup', backups, 'tar -czf', 'agent writeArchive');
  report('Restore', restores, 'tar -xzf', 'agent restoreArchive');
} finally {
  if (!process.env.BENCH_KEEP) await rm(root, { recursive: true, force: true });
  else process.stdout.write(`kept ${root}\n`);
}
