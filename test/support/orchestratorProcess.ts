/** An orchestrator process of its own (`main.ts --role=orchestrator`) on a test database, as production runs them. */
import { spawn } from 'node:child_process';
import { until } from './wait.ts';

/**
 * Starts one on `port` (1 s heartbeats, no ready delay on SIGTERM, warnings only); killed at the test's end.
 * `exited` settles with its exit code, or the signal that ended it.
 */
export function startOrchestratorProcess(t: { teardown: (f: () => void) => void }, databaseUrl: string, port: number) {
  const child = spawn(process.execPath, ['main.ts', '--role=orchestrator'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      METRICS_LISTEN: 'off',
      AGENT_HEARTBEAT_SECONDS: '1',
      SHUTDOWN_READY_DELAY_MS: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  t.teardown(() => void child.kill('SIGKILL'));
  return { child, exited: new Promise<number | string | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal))) };
}

/** Waits until the process on `port` answers /readyz with 200. */
export const orchestratorReady = (port: number) =>
  until(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200, `orchestrator on ${port} ready`, 60_000);
