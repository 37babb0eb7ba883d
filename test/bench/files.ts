/**
 * `npm run bench -- files`: server files through the service and the agent, side by side with bare baselines in one run.
 *
 * 1. Download and upload MB/s of a random file (BENCH_FILES_MB, default 256) with `curl` through the service (the API,
 *    the agent's connection, the file helper) against `curl` to a bare Node static file server (a child process: GET
 *    streams the file, PUT writes it: bench/servers/staticFiles.ts) on the same machine; three alternating rounds, the best of each counts.
 *    Target ≥ 0.5 of the bare server. The resumable upload (one PATCH with the whole body) is measured too.
 * 2. SFTP with OpenSSH's `sftp` client against the agent, beside OpenSSH's own server reached the same way (a private
 *    sshd with internal-sftp on the loopback: both sides encrypt; Debian's openssh-server, as root) and OpenSSH's
 *    `sftp-server` over a pipe (`sftp -D`: no SSH at all), when Debian's openssh-sftp-server is installed; otherwise
 *    the row says why it is skipped.
 * 3. Listing a directory of 100,000 entries: every page (10,000 each) through the API, p50/p95 over BENCH_LIST_ROUNDS
 *    (default 10) full listings, beside `readdir` + `lstat` of the same directory in this process.
 * 4. Memory of a BENCH_FILES_BIG_GB (default 4) GiB transfer (a sparse file: no disk to wait for): the peak RSS of the
 *    service (this process), the agent and its file helper while it is downloaded and then uploaded, sampled every
 *    100 ms, beside their RSS before. It must stay flat: a few MiB of chunks in flight, whatever the file's size.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, lstat, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir, loadavg } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { json } from '../support/app.ts';
import { startGatewayApp } from '../support/gateway.ts';
import { signUp } from '../support/identity.ts';
import { createFakeServer, freePorts, registerMachine, startAgent } from '../support/agentProcess.ts';
import { until } from '../support/wait.ts';
import { cpuSecondsBetween, cpuTicks, percentile, startServer } from './support.ts';

const MB = Number(process.env.BENCH_FILES_MB ?? 256);
const BIG_GB = Number(process.env.BENCH_FILES_BIG_GB ?? 4);
const LIST_ROUNDS = Number(process.env.BENCH_LIST_ROUNDS ?? 10);
const ENTRIES = 100_000;
/** Which parts to run (BENCH_FILES_PARTS=3,4): all by default. */
const PARTS = new Set((process.env.BENCH_FILES_PARTS ?? '1,2,3,4').split(','));
const SFTP_SERVER = ['/usr/lib/openssh/sftp-server', '/usr/libexec/sftp-server', '/usr/lib/sftp-server'].find((path) => existsSync(path));

/**
 * Runs curl as a child, without blocking: the service answering it runs in this process. Answers the seconds it took
 * (curl's own time_total) and the HTTP status.
 */
function curl(args: string[]): Promise<{ seconds: number; status: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', ...args]);
    let out = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`curl failed: ${errors}`));
      const [status, seconds] = out.trim().split(' ');
      resolve({ status: Number(status), seconds: Number(seconds) });
    });
  });
}

/** RSS in KiB of a process now (0 once it is gone). */
function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}
const childrenOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

/**
 * CPU seconds so far of the service (this process), the agent, its file helpers (children of the agent) and the bare
 * static server: the transfer rows say what each MiB costs each side.
 */
type CpuSnapshot = { service: number; agent: Map<number, number>; helper: Map<number, number>; bare: Map<number, number> };
async function cpuSnapshot(agentPid: number, barePid: number): Promise<CpuSnapshot> {
  const helpers = new Set(childrenOf(agentPid));
  const usage = process.cpuUsage();
  return {
    service: (usage.user + usage.system) / 1e6,
    agent: await cpuTicks((pid) => pid === agentPid),
    helper: await cpuTicks((pid) => helpers.has(pid)),
    bare: await cpuTicks((pid) => pid === barePid),
  };
}
const cpuSpent = (before: CpuSnapshot, after: CpuSnapshot) => ({
  service: after.service - before.service,
  agent: cpuSecondsBetween(before.agent, after.agent),
  helper: cpuSecondsBetween(before.helper, after.helper),
  bare: cpuSecondsBetween(before.bare, after.bare),
});

/**
 * A private sshd on a free loopback port (Debian's openssh-server, as root): host key and authorized key under `dir`,
 * `Subsystem sftp internal-sftp`. Undefined when it cannot run here.
 */
async function startSshd(dir: string, publicKeyFile: string): Promise<{ port: number; stop: () => void } | undefined> {
  const binary = '/usr/sbin/sshd';
  if (!existsSync(binary) || process.getuid?.() !== 0) return undefined;
  const [port] = await freePorts(1);
  spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'sshd_host_ed25519')]);
  await writeFile(join(dir, 'authorized_keys'), readFileSync(publicKeyFile));
  const config = join(dir, 'sshd_config');
  await writeFile(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'sshd_host_ed25519')}`,
      'PidFile none',
      'UsePAM no',
      'PermitRootLogin prohibit-password',
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'StrictModes no',
      'Subsystem sftp internal-sftp',
      '',
    ].join('\n'),
  );
  await mkdir('/run/sshd', { recursive: true });
  const child = spawn(binary, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-2000)));
  // Never left running as root past the bench, whatever ends it.
  const stop = () => void child.kill();
  process.once('exit', stop);
  const listening = await until(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true))).on('error', () => resolve(false));
      }),
    'sshd listens',
    5_000,
  ).then(
    () => true,
    () => false,
  );
  if (!listening) {
    stop();
    console.log(`   sshd did not start: ${errors.trim().split('\n').at(-1) ?? 'no message'}`);
    return undefined;
  }
  return { port, stop };
}

const mbps = (bytes: number, seconds: number) => bytes / 1048576 / seconds;
const fixed = (value: number) => value.toFixed(1).padStart(8);

const app = await startGatewayApp({ env: { FILES_MAX_UPLOAD_BYTES: String((BIG_GB + 1) * 1024 ** 3), FILES_MAX_TRANSFERS: '8' } });
const owner = await signUp(app, 'bench-files');
const { clusterId, machineId, token } = await registerMachine(app, owner);
const agent = await startAgent({ url: app.url, machineId, token });
const serverId = (await createFakeServer(app, owner, clusterId, machineId)).id;
const serverDir = join(agent.dataDir, 'servers', serverId);
await until(async () => (await app.request(`/api/v1/servers/${serverId}/files`, { headers: owner.auth })).status === 200, 'the agent serves files', 30_000);
const bare = await mkdtemp(join(tmpdir(), 'gsm-bench-files-'));
const local = await mkdtemp(join(tmpdir(), 'gsm-bench-files-local-'));
const staticServer = await startServer('staticFiles.ts', [bare]);
const auth = `authorization: Bearer ${owner.accessToken}`;
const apiPath = (suffix: string) => `/api/v1/servers/${serverId}/files${suffix}`;
const api = (suffix: string) => `${app.url}${apiPath(suffix)}`;

try {
  console.log(
    `Files benchmark: ${MB} MiB transfers, ${ENTRIES} entries listed, a ${BIG_GB} GiB transfer's memory; load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}\n`,
  );

  // ---- 1. transfers
  const source = join(local, 'random.bin');
  {
    const handle = await open(source, 'w');
    const block = randomBytes(4 * 1024 * 1024);
    for (let written = 0; written < MB * 1048576; written += block.length) await handle.write(block);
    await handle.close();
  }
  const bytes = MB * 1048576;
  spawnSync('cp', [source, join(serverDir, 'random.bin')]);
  spawnSync('cp', [source, join(bare, 'random.bin')]);
  const best = { ours: { down: Infinity, up: Infinity, resumable: Infinity }, bare: { down: Infinity, up: Infinity } };
  // CPU seconds of each process summed over the rounds of each row (divided by the MiB moved when printed).
  const cpu = new Map<string, ReturnType<typeof cpuSpent>>();
  const counted = async <T>(what: string, transfer: () => Promise<T>): Promise<T> => {
    const before = await cpuSnapshot(agent.child.pid!, staticServer.child.pid!);
    const result = await transfer();
    const spent = cpuSpent(before, await cpuSnapshot(agent.child.pid!, staticServer.child.pid!));
    const sum = cpu.get(what) ?? { service: 0, agent: 0, helper: 0, bare: 0 };
    cpu.set(what, { service: sum.service + spent.service, agent: sum.agent + spent.agent, helper: sum.helper + spent.helper, bare: sum.bare + spent.bare });
    return result;
  };
  for (let round = 0; PARTS.has('1') && round < 3; round++) {
    const order = round % 2 === 0 ? ['ours', 'bare'] : ['bare', 'ours'];
    for (const who of order) {
      if (who === 'ours') {
        const down = await counted('download (GET)', () => curl(['-H', auth, `${api('/content')}?path=/random.bin`]));
        if (down.status !== 200) throw new Error(`download answered ${down.status}`);
        best.ours.down = Math.min(best.ours.down, down.seconds);
        const up = await counted('upload (PUT)', () =>
          curl(['-H', auth, '-H', 'content-type: application/octet-stream', '-T', source, `${api('/content')}?path=/uploaded.bin`]),
        );
        if (up.status !== 200) throw new Error(`upload answered ${up.status}`);
        best.ours.up = Math.min(best.ours.up, up.seconds);
        const created = (await (await app.request(apiPath('/uploads'), json({ path: '/resumed.bin', size: bytes }, { headers: owner.auth }))).json()) as {
          id: string;
        };
        const resumable = await counted('upload (resumable PATCH)', () =>
          curl([
            '-X',
            'PATCH',
            '-H',
            auth,
            '-H',
            'upload-offset: 0',
            '-H',
            'content-type: application/offset+octet-stream',
            '--data-binary',
            `@${source}`,
            api(`/uploads/${created.id}`),
          ]),
        );
        if (resumable.status !== 200) throw new Error(`resumable upload answered ${resumable.status}`);
        best.ours.resumable = Math.min(best.ours.resumable, resumable.seconds);
      } else {
        const down = await counted('bare download', () => curl([`http://127.0.0.1:${staticServer.port}/random.bin`]));
        best.bare.down = Math.min(best.bare.down, down.seconds);
        const up = await counted('bare upload', () => curl(['-T', source, `http://127.0.0.1:${staticServer.port}/uploaded.bin`]));
        best.bare.up = Math.min(best.bare.up, up.seconds);
      }
    }
  }
  if (PARTS.has('1')) console.log('1. Transfers with curl (MB/s, best of 3 alternating rounds)');
  if (PARTS.has('1')) console.log('                              service+agent   bare Node server   ratio   target');
  const row = (what: string, ours: number, baseline: number) =>
    console.log(
      `   ${what.padEnd(27)}${fixed(mbps(bytes, ours))}        ${fixed(mbps(bytes, baseline))}        ${(baseline / ours).toFixed(2).padStart(5)}   ≥ 0.50`,
    );
  if (PARTS.has('1')) {
    row('download (GET)', best.ours.down, best.bare.down);
    row('upload (PUT)', best.ours.up, best.bare.up);
    row('upload (resumable PATCH)', best.ours.resumable, best.bare.up);
    const perMib = (seconds: number) => ((seconds * 1000) / (MB * 3)).toFixed(2).padStart(8);
    console.log('   CPU ms per MiB (all rounds)   service    agent  file helper   bare server');
    for (const [what, spent] of cpu)
      console.log(`   ${what.padEnd(27)}${perMib(spent.service)} ${perMib(spent.agent)} ${perMib(spent.helper)}     ${perMib(spent.bare)}`);
  }

  // ---- 2. SFTP
  if (PARTS.has('2')) console.log('\n2. SFTP');
  if (PARTS.has('2') && !SFTP_SERVER)
    console.log("   skipped: OpenSSH's sftp-server is not installed here (Debian: apt-get install openssh-sftp-server), so there is no baseline");
  else if (PARTS.has('2')) {
    const time = (args: string[], batch: string, cwd: string) =>
      new Promise<number>((resolve, reject) => {
        const started = process.hrtime.bigint();
        const child = spawn('sftp', ['-q', '-b', '-', ...args], { cwd, stdio: ['pipe', 'ignore', 'pipe'] });
        let errors = '';
        child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
        child.stdin.end(batch);
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - started) / 1e9) : reject(new Error(`sftp failed: ${errors}`))));
      });
    const key = join(local, 'id_ed25519');
    spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
    await app.request('/api/v1/account/ssh-keys', json({ name: 'bench', publicKey: readFileSync(`${key}.pub`, 'utf8').trim() }, { headers: owner.auth }));
    const machine = (await (await app.request(`/api/v1/machines/${machineId}`, { headers: owner.auth })).json()) as { sftp: { port: number } | null };
    const account = (await (await app.request('/api/v1/account', { headers: owner.auth })).json()) as { handle: string };
    if (!machine.sftp) console.log('   skipped: the agent reports no SFTP service');
    else {
      const ours = [
        '-P',
        String(machine.sftp.port),
        '-i',
        key,
        '-o',
        'StrictHostKeyChecking=no',
        '-o',
        'UserKnownHostsFile=/dev/null',
        `${account.handle}.${serverId.replace(/-/g, '').slice(-8)}@127.0.0.1`,
      ];
      const openssh = ['-D', SFTP_SERVER!];
      // The like-for-like baseline: OpenSSH's own server (sshd with internal-sftp) on the loopback, over SSH with the
      // same key, so both sides pay for the encryption. It needs Debian's openssh-server and root (sshd's privilege
      // separation); without them only the pipe row is printed.
      const sshd = await startSshd(local, `${key}.pub`);
      const viaSshd = sshd
        ? ['-P', String(sshd.port), '-i', key, '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', 'root@127.0.0.1']
        : undefined;
      const sftpBest = { ours: { down: Infinity, up: Infinity }, openssh: { down: Infinity, up: Infinity }, sshd: { down: Infinity, up: Infinity } };
      try {
        for (let round = 0; round < 3; round++) {
          sftpBest.ours.down = Math.min(sftpBest.ours.down, await time(ours, 'get random.bin /dev/null\n', local));
          if (viaSshd) sftpBest.sshd.down = Math.min(sftpBest.sshd.down, await time(viaSshd, `get ${join(bare, 'random.bin')} /dev/null\n`, local));
          sftpBest.openssh.down = Math.min(sftpBest.openssh.down, await time(openssh, `get ${join(bare, 'random.bin')} /dev/null\n`, local));
          sftpBest.ours.up = Math.min(sftpBest.ours.up, await time(ours, `put ${source} sftp-up.bin\n`, local));
          if (viaSshd) sftpBest.sshd.up = Math.min(sftpBest.sshd.up, await time(viaSshd, `put ${source} ${join(bare, 'sftp-up.bin')}\n`, local));
          sftpBest.openssh.up = Math.min(sftpBest.openssh.up, await time(openssh, `put ${source} ${join(bare, 'sftp-up.bin')}\n`, local));
        }
      } finally {
        sshd?.stop();
      }
      const ratio = (baseline: number, ours: number) => (baseline / ours).toFixed(2).padStart(5);
      console.log("                              agent's SFTP   OpenSSH over SSH   ratio   OpenSSH over a pipe   ratio   target");
      for (const way of ['down', 'up'] as const)
        console.log(
          `   ${(way === 'down' ? 'get' : 'put').padEnd(27)}${fixed(mbps(bytes, sftpBest.ours[way]))}       ${viaSshd ? `${fixed(mbps(bytes, sftpBest.sshd[way]))}      ${ratio(sftpBest.sshd[way], sftpBest.ours[way])}` : '     (no sshd)     '}        ${fixed(mbps(bytes, sftpBest.openssh[way]))}      ${ratio(sftpBest.openssh[way], sftpBest.ours[way])}   ≥ 0.50`,
        );
      console.log('   (over SSH: sshd with internal-sftp on the loopback, as the agent is reached; over a pipe: `sftp -D`, no SSH at all)');
      if (!sshd)
        console.log(
          `   sshd baseline skipped: ${process.getuid?.() !== 0 ? 'it needs root' : existsSync('/usr/sbin/sshd') ? 'it did not start (above)' : 'Debian’s openssh-server is not installed'}`,
        );
    }
  }

  // ---- 3. listing 100,000 entries
  const many = join(serverDir, 'many');
  if (PARTS.has('3')) await mkdir(many);
  for (let i = 0; PARTS.has('3') && i < ENTRIES; i += 1000)
    await Promise.all(Array.from({ length: 1000 }, (_, j) => writeFile(join(many, `entry-${String(i + j).padStart(6, '0')}.dat`), '')));
  const listTimes: number[] = [];
  const pageTimes: number[] = [];
  const baselineTimes: number[] = [];
  for (let round = 0; PARTS.has('3') && round < LIST_ROUNDS; round++) {
    const started = performance.now();
    let after: string | null = null;
    let seen = 0;
    do {
      const pageStarted = performance.now();
      const query: string = `?path=/many&limit=10000${after ? `&after=${encodeURIComponent(after)}` : ''}`;
      const answer = await app.request(apiPath(query), { headers: owner.auth });
      if (answer.status !== 200) throw new Error(`listing answered ${answer.status}: ${await answer.text()}`);
      const page = (await answer.json()) as { entries: unknown[]; next: string | null };
      pageTimes.push(performance.now() - pageStarted);
      seen += page.entries.length;
      after = page.next;
    } while (after);
    listTimes.push(performance.now() - started);
    if (seen !== ENTRIES) throw new Error(`listed ${seen} entries, not ${ENTRIES}`);
    const baseStarted = performance.now();
    const names = (await readdir(many)).sort();
    for (let i = 0; i < names.length; i += 500) await Promise.all(names.slice(i, i + 500).map((name) => lstat(join(many, name))));
    baselineTimes.push(performance.now() - baseStarted);
  }
  if (PARTS.has('3')) console.log(`\n3. Listing ${ENTRIES} entries (${LIST_ROUNDS} full listings, pages of 10,000)`);
  if (PARTS.has('3'))
    console.log(
      `   through the API: p50 ${percentile(listTimes, 50).toFixed(0)} ms, p95 ${percentile(listTimes, 95).toFixed(0)} ms (a page: p95 ${percentile(pageTimes, 95).toFixed(0)} ms)`,
    );
  if (PARTS.has('3'))
    console.log(`   readdir + lstat in one process: p50 ${percentile(baselineTimes, 50).toFixed(0)} ms, p95 ${percentile(baselineTimes, 95).toFixed(0)} ms`);
  await rm(many, { recursive: true, force: true });

  // ---- 4. memory of a big transfer
  if (PARTS.has('4')) {
    const big = join(serverDir, 'big.bin');
    const bigBytes = BIG_GB * 1024 ** 3;
    await writeFile(big, '');
    await truncate(big, bigBytes);
    const agentPid = agent.child.pid!;
    const sample = () => {
      const helpers = childrenOf(agentPid).reduce((sum, pid) => sum + rssKb(pid), 0);
      return { service: process.memoryUsage().rss / 1024, agent: rssKb(agentPid), helper: helpers };
    };
    const before = sample();
    const peak = { ...before };
    const sampler = setInterval(() => {
      const now = sample();
      peak.service = Math.max(peak.service, now.service);
      peak.agent = Math.max(peak.agent, now.agent);
      peak.helper = Math.max(peak.helper, now.helper);
    }, 100);
    const down = await curl(['-H', auth, `${api('/content')}?path=/big.bin`]);
    const sparse = join(local, 'big-local.bin');
    await writeFile(sparse, '');
    await truncate(sparse, bigBytes);
    const up = await curl(['-H', auth, '-H', 'content-type: application/octet-stream', '-T', sparse, `${api('/content')}?path=/big-up.bin`]);
    clearInterval(sampler);
    const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;
    console.log(
      `\n4. A ${BIG_GB} GiB file: download ${down.status} at ${mbps(bigBytes, down.seconds).toFixed(1)} MB/s, upload ${up.status} at ${mbps(bigBytes, up.seconds).toFixed(1)} MB/s`,
    );
    console.log('   peak RSS during both          before     peak');
    for (const who of ['service', 'agent', 'helper'] as const)
      console.log(`   ${(who === 'helper' ? 'file helper' : who).padEnd(28)}${mib(before[who]).padStart(8)} ${mib(peak[who]).padStart(8)}`);
  }
  console.log(
    `\nload average after: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await staticServer.stop();
  await agent.stop();
  await app.close();
  await rm(bare, { recursive: true, force: true });
  await rm(local, { recursive: true, force: true });
}
process.exit(0);
