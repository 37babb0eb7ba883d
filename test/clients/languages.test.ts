/**
 * The Python and Go clients' own test suites (`python3 -m unittest`, `go test`) run against the real service and the
 * real agent started here: each gets a fake game server of its own on a running agent, named by GSM_URL, GSM_TOKEN,
 * GSM_CLUSTER_ID and GSM_SERVER_ID. A suite passes here only when it exits 0, reports each of its tests as passed
 * and skipped none (so a suite that finds no service cannot pass by skipping). The Go source must be as gofmt writes it.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { createFakeServer, registerMachine, startAgent, type AgentProcess } from '../support/agentProcess.ts';

const PYTHON_CLIENT = fileURLToPath(new URL('../../api/clients/python', import.meta.url));
const GO_CLIENT = fileURLToPath(new URL('../../api/clients/go', import.meta.url));
const GO_CACHE = fileURLToPath(new URL('../../.tmp/go-cache', import.meta.url));

let app: GatewayApp;
let owner: TestUser;
let cluster: { clusterId: string; machineId: string };
const agents: AgentProcess[] = [];
test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1, worker: true });
  owner = await signUp(app);
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  cluster = { clusterId, machineId };
  agents.push(await startAgent({ url: app.url, machineId, token }));
});
test.after.always(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await app?.close();
});

/** Runs a command to its end (asynchronously: the service it calls runs in this process); output piped at once. */
function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function serviceEnv(): Promise<Record<string, string>> {
  const server = await createFakeServer(app, owner, cluster.clusterId, cluster.machineId, { name: `client ${Math.random().toString(36).slice(2, 8)}` });
  return { GSM_URL: app.url, GSM_TOKEN: owner.accessToken, GSM_CLUSTER_ID: cluster.clusterId, GSM_SERVER_ID: server.id as string };
}

test('the Python client’s unittest suite passes against the real service (Python 3.9+, standard library only)', async (t) => {
  const { code, output } = await run('python3', ['-m', 'unittest', '-v'], { cwd: PYTHON_CLIENT, env: await serviceEnv() });
  t.is(code, 0, output);
  t.regex(output, /\nOK\s*$/, output);
  t.notRegex(output, /skipped/i, output);
  for (const name of [
    'test_restart_and_wait',
    'test_the_event_stream_resumes_after_a_cut_connection',
    'test_429_waits_retry_after_and_a_retried_post_keeps_its_key',
  ])
    t.regex(output, new RegExp(`${name} .* \\.\\.\\. ok`), output);
});

test('the Go client’s go test suite passes against the real service (standard library only), gofmt clean', async (t) => {
  await mkdir(GO_CACHE, { recursive: true });
  const env = { ...(await serviceEnv()), GOCACHE: GO_CACHE, GOFLAGS: '-mod=mod', GOPROXY: 'off', GO111MODULE: 'on', CGO_ENABLED: '0' };
  const format = await run('gofmt', ['-l', '.'], { cwd: GO_CLIENT, env });
  t.is(format.code, 0, format.output);
  t.is(format.output.trim(), '', `not as gofmt writes it: ${format.output}`);
  const vet = await run('go', ['vet', './...'], { cwd: GO_CLIENT, env });
  t.is(vet.code, 0, vet.output);
  const { code, output } = await run('go', ['test', '-count=1', '-v', './...'], { cwd: GO_CLIENT, env });
  t.is(code, 0, output);
  t.notRegex(output, /--- SKIP/, output);
  t.notRegex(output, /--- FAIL/, output);
  for (const name of ['TestRestartAndWait', 'TestEventStreamResumesAfterACutConnection', 'TestRetryAfterAndIdempotencyKey'])
    t.regex(output, new RegExp(`--- PASS: ${name} `), output);
});
