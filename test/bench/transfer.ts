/**
 * `npm run bench -- transfer`: a transfer of a server directory (BENCH_TRANSFER_MB, default 1024: half random bytes,
 * half compressible text, in files of 1..64 MiB) between two real agents through the service, beside
 * `tar -cf - . | gzip | tar -xzf -` of the same directory on this machine, in the same run. Throughput is source
 * megabytes per wall-clock second: the transfer's from its request to its job's end (check, pack, copy with checksums,
 * extraction, switch, clean up), the pipeline's from its start to its end. Memory: the peak RSS (VmHWM) of the service
 * process and of both agents, which must stay flat whatever the size. Target: ≥ 0.6 of the pipeline's throughput.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { body, json } from '../support/app.ts';
import { startGatewayApp } from '../support/gateway.ts';
import { signUp } from '../support/identity.ts';
import { createFakeServer, freePorts, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';

const TOTAL_MB = Number(process.env.BENCH_TRANSFER_MB ?? 1024);
const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const peakKb = async (pid: number | undefined) => Number(/VmHWM:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''))?.[1] ?? 0);

/** Half random, half text, in files of 1..64 MiB. */
async function fill(dir: string) {
  const text = Buffer.from('the quick brown fox jumps over the lazy dog; '.repeat(23_000).slice(0, MiB));
  let left = TOTAL_MB;
  for (let n = 0; left > 0; n++) {
    const size = Math.min(left, 1 + (n % 64));
    const parts = Array.from({ length: size }, (_, i) => ((n + i) % 2 === 0 ? randomBytes(MiB) : text));
    await writeFile(join(dir, `file-${n}.bin`), Buffer.concat(parts));
    left -= size;
  }
}

const app = await startGatewayApp({ heartbeatSeconds: 1, authTimeoutMs: 2_000, worker: true });
const agents: AgentProcess[] = [];
try {
  const owner = await signUp(app);
  const request = async (path: string, payload?: unknown) => body(await app.request(path, json(payload ?? {}, { headers: owner.auth })));
  const get = async (path: string) => body(await app.request(path, { headers: owner.auth }));
  const first = await registerMachine(app, owner);
  const second = await request(`/api/v1/clusters/${first.clusterId}/machines`, { name: 'target' });
  agents.push(await startAgent({ url: app.url, machineId: first.machineId, token: first.token }));
  agents.push(await startAgent({ url: app.url, machineId: second.id, token: second.agentToken }));
  const server = await createFakeServer(app, owner, first.clusterId, first.machineId, { autoRestart: false });
  const dir = join(agents[0]!.dataDir, 'servers', server.id);
  await mkdir(dir, { recursive: true });
  await fill(dir);

  // The baseline first, on the same files (the page cache is warm for both).
  const out = await mkdtemp(join(tmpdir(), 'gsm-bench-transfer-'));
  spawnSync('sync');
  const began = process.hrtime.bigint();
  const piped = spawnSync('bash', ['-c', `set -o pipefail; tar -C '${dir}' -cf - . | gzip | tar -C '${out}' -xzf -`], { stdio: 'inherit' });
  const baselineS = Number(process.hrtime.bigint() - began) / 1e9;
  if (piped.status !== 0) throw new Error('the tar | gzip | tar pipeline failed');
  await rm(out, { recursive: true, force: true });

  spawnSync('sync');
  const [game, query, rcon] = await freePorts(3);
  const started = process.hrtime.bigint();
  const job = await request(`/api/v1/servers/${server.id}/transfer`, { machineId: second.id, allocations: { game, query, rcon } });
  let ended: Record<string, any> = job;
  // Seconds in each phase, as the job's progress shows them (polled every 200 ms).
  const phases = new Map<string, number>();
  let phase = 'ACCEPTED';
  let since = Date.now();
  while (!['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(ended.status)) {
    await sleep(200);
    ended = await get(`/api/v1/jobs/${job.id}`);
    const now = ended.progress?.phase ?? phase;
    if (now !== phase || ['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(ended.status)) {
      phases.set(phase, (phases.get(phase) ?? 0) + (Date.now() - since) / 1000);
      [phase, since] = [now, Date.now()];
    }
  }
  const transferS = Number(process.hrtime.bigint() - started) / 1e9;
  if (ended.status !== 'SUCCEEDED') throw new Error(`the transfer did not succeed: ${JSON.stringify(ended)}`);

  const rate = (seconds: number) => TOTAL_MB / seconds;
  const [source, target] = await Promise.all(agents.map((agent) => peakKb(agent.child.pid)));
  process.stdout.write(
    [
      `transfer of ${TOTAL_MB} MiB (half random, half text); load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}`,
      `  tar | gzip | tar -x   ${baselineS.toFixed(1)} s   ${rate(baselineS).toFixed(1)} MB/s`,
      `  transfer (2 agents)   ${transferS.toFixed(1)} s   ${rate(transferS).toFixed(1)} MB/s   ratio ${(rate(transferS) / rate(baselineS)).toFixed(2)} (target ≥ 0.6)`,
      `  phases: ${[...phases].map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`).join(', ')}`,
      `  peak RSS: service ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB, source agent ${(source / 1024).toFixed(0)} MB, target agent ${(target / 1024).toFixed(0)} MB`,
    ].join('\n') + '\n',
  );
} finally {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app.close();
  // The GiB and its copies.
  await Promise.all(agents.map((agent) => rm(agent.dataDir, { recursive: true, force: true })));
}
