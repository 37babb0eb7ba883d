/**
 * The real reference agent as a child process (`node agent/cli.ts run`), with its log lines kept for assertions.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { body, json, type TestApp } from './app.ts';
import { FAKE_SERVER_PATH } from './fakeGame.ts';
import { freePorts } from './ports.ts';
import { createCluster, type TestUser } from './identity.ts';

export type AgentProcess = { child: ChildProcess; lines: string[]; dataDir: string; exited: Promise<number | null>; stop: () => Promise<number | null> };

/**
 * By default the agent stops its servers when it exits (tests must not leave games behind) and, run as root, runs them
 * as root (no system accounts made per test); `keepServers` and `accounts` ask for what a real installation does.
 */
export async function startAgent(options: {
  url: string;
  machineId: string;
  token: string;
  stopTimeoutMs?: number;
  dataDir?: string;
  keepServers?: boolean;
  accounts?: boolean;
  env?: Record<string, string>;
  /** The agent's script: its sources by default, or an installed package's gsm-agent.mjs. */
  program?: string;
  /** An agent of a release before SFTP (test/support/previousRelease.ts): no `--sftp-*` options, which it refuses. */
  withoutSftp?: boolean;
}): Promise<AgentProcess> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'gsm-agent-')));
  const child = spawn(
    process.execPath,
    [
      options.program ?? 'agent/cli.ts',
      'run',
      '--url',
      options.url,
      '--machine-id',
      options.machineId,
      '--token',
      options.token,
      '--data-dir',
      dataDir,
      '--stop-timeout-ms',
      String(options.stopTimeoutMs ?? 1_000),
      '--report-interval-ms',
      '500',
      ...(options.keepServers ? [] : ['--stop-servers-on-exit']),
      ...(options.accounts ? [] : ['--allow-root']),
      // SFTP on a free port of the loopback only: test agents run side by side (docs/sftp.md).
      ...(options.withoutSftp ? [] : ['--sftp-port', '0', '--sftp-address', '127.0.0.1']),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_LEVEL: 'debug', ...options.env } },
  );
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    dataDir,
    exited,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export { freePorts };

export { FAKE_SERVER_PATH as FAKE_SERVER } from './fakeGame.ts';

/** Registers a machine in a new cluster of `owner`'s, through the API: its ids and its agent token. */
export async function registerMachine(app: TestApp, owner: TestUser) {
  const clusterId = await createCluster(app, owner);
  const created = await body(await app.request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'host' }, { headers: owner.auth })));
  return { clusterId, machineId: created.id as string, token: created.agentToken as string };
}

/** A CUSTOM server on `machineId` that runs the fake game (Source RCON on free ports), created through the API. */
export async function createFakeServer(
  app: Pick<TestApp, 'request'>,
  owner: Pick<TestUser, 'auth'>,
  clusterId: string,
  machineId: string,
  extra: Record<string, unknown> = {},
) {
  // Ports free on the host now may still be held in the database by another server of the machine whose process is
  // not running (the kernel hands a released port out again): a 409 naming its holder is retried with fresh ports.
  for (let attempt = 1; ; attempt += 1) {
    const [gamePort, queryPort, rconPort] = await freePorts(3);
    const response = await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json(
        {
          name: 'fake',
          gameType: 'CUSTOM',
          machineId,
          gamePort,
          queryPort,
          rconPort,
          rconPassword: 'fake-password',
          startCommand: `${process.execPath} ${FAKE_SERVER_PATH}`,
          ...extra,
        },
        { headers: owner.auth },
      ),
    );
    const server = await body(response);
    if (response.status === 409 && attempt < 5 && (server as { holder?: unknown }).holder) continue;
    if (response.status !== 201) throw new Error(JSON.stringify(server));
    return server as { id: string; gamePort: number; queryPort: number; rconPort: number };
  }
}
