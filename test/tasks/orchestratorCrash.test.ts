/**
 * A task run whose orchestrator process is SIGKILLed between two steps: a new orchestrator process takes the lapsed
 * lease over and finishes the run, each step once. Real processes: the orchestrator (`node main.ts
 * --role=orchestrator`), the agent and the fake game server.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { sql } from 'slonik';
import { until } from '../support/wait.ts';
import { body, json, useTestApp } from '../support/app.ts';
import { createCluster, signUp } from '../support/identity.ts';
import { FAKE_SERVER, freePorts, startAgent } from '../support/agentProcess.ts';

const app = useTestApp(test);

test('an orchestrator killed mid-run: another one resumes the run after the lease lapses, and each step runs once', async (t) => {
  const [port, gamePort, queryPort, rconPort] = await freePorts(4);
  const startOrchestrator = () => {
    const child = spawn(process.execPath, ['main.ts', '--role=orchestrator'], {
      env: { ...process.env, DATABASE_URL: app().database.url, PORT: String(port), AGENT_HEARTBEAT_SECONDS: '1', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    return { child, exited: new Promise((resolve) => child.on('exit', resolve)) };
  };
  let orchestrator = startOrchestrator();
  t.teardown(() => void orchestrator.child.kill('SIGKILL'));
  const url = `http://127.0.0.1:${port}`;
  await until(async () => (await fetch(`${url}/readyz`).catch(() => null))?.status === 200, 'orchestrator ready');

  const owner = await signUp(app());
  const request = (path: string, payload?: unknown) => app().request(path, payload === undefined ? { method: 'POST', headers: owner.auth } : json(payload, { headers: owner.auth }));
  const get = async (path: string) => body(await app().request(path, { headers: owner.auth }));
  const clusterId = await createCluster(app(), owner);
  const machine = await body(await request(`/api/v1/clusters/${clusterId}/machines`, { name: 'host' }));
  const server = await body(
    await request(`/api/v1/clusters/${clusterId}/servers`, {
      name: 'fake', gameType: 'CUSTOM', machineId: machine.id, gamePort, queryPort, rconPort, rconPassword: 'fake-password', startCommand: `${process.execPath} ${FAKE_SERVER}`,
    }),
  );
  const agent = await startAgent({ url, machineId: machine.id, token: machine.agentToken });
  t.teardown(() => void agent.stop());
  t.is((await body(await request(`/api/v1/servers/${server.id}/start?wait=30`))).status, 'SUCCEEDED');

  const task = await body(
    await request(`/api/v1/clusters/${clusterId}/tasks`, {
      name: 'two steps', schedule: '0 4 * * *', serverIds: [server.id],
      steps: [{ type: 'RCON', command: 'echo one' }, { type: 'RCON', command: 'echo two', delaySeconds: 4 }],
    }),
  );
  const run = await body(await request(`/api/v1/tasks/${task.id}/run`));
  const rconJobs = async () => (await get(`/api/v1/clusters/${clusterId}/jobs?taskId=${task.id}&type=RCON&sort=createdAt`)).data;
  await until(async () => (await rconJobs())[0]?.status === 'SUCCEEDED', 'the first step done');
  t.is(String(await app().pool.oneFirst(sql.unsafe`SELECT status FROM jobs WHERE id = ${run.id}`)), 'RUNNING');

  orchestrator.child.kill('SIGKILL');
  await orchestrator.exited;
  orchestrator = startOrchestrator();

  const ended = await get(`/api/v1/jobs/${run.id}?wait=60`);
  t.is(ended.status, 'SUCCEEDED', JSON.stringify(ended));
  const outputs = (await rconJobs()).map((job: { result: { output: string } | null }) => job.result?.output);
  t.deepEqual(outputs, ['one', 'two'], 'each step once, in order');
  t.like(await get(`/api/v1/tasks/${task.id}`), { lastRunStatus: 'SUCCEEDED' });
  await agent.stop();
});
