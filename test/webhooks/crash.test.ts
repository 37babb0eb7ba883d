/**
 * Deliveries survive the SIGKILL of the orchestrator (`node main.ts --role=orchestrator` as a child process): a
 * delivery cut off mid-send is sent again, with the same delivery id, by the next orchestrator once the dead one's
 * lease has run out; a delivery the receiver acknowledged is not sent again by it.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { sql } from 'slonik';
import { body, json, useTestApp } from '../support/app.ts';
import { createCluster, signUp } from '../support/identity.ts';
import { freePorts } from '../support/agentProcess.ts';
import { startReceiver } from '../support/receiver.ts';
import { until } from '../support/wait.ts';

const app = useTestApp(test, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });

test('a delivery cut off by SIGKILL is sent again by the next orchestrator; an acknowledged one is not', async (t) => {
  const [port] = await freePorts(1);
  const startOrchestrator = () => {
    const child = spawn(process.execPath, ['main.ts', '--role=orchestrator'], {
      env: { ...process.env, DATABASE_URL: app().database.url, PORT: String(port), WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    return { child, exited: new Promise((resolve) => child.on('exit', resolve)) };
  };
  const ready = () => until(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200, 'orchestrator ready', 60_000);
  let orchestrator = startOrchestrator();
  t.teardown(() => void orchestrator.child.kill('SIGKILL'));
  await ready();

  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  receiver.answers.push('hang');
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const hook = await body(await app().request(`/api/v1/clusters/${clusterId}/webhooks`, json({ url: receiver.url, events: ['*'] }, { headers: owner.auth })));
  t.truthy(hook.id, JSON.stringify(hook));
  await app().pool.query(sql.unsafe`INSERT INTO events (cluster_id, type, data) VALUES (${clusterId}, 'task.run.finished', '{"status":"SUCCEEDED"}')`);

  // The first attempt reaches the receiver, which does not answer; the orchestrator dies waiting.
  const [first] = await receiver.waitFor(1, 30_000);
  orchestrator.child.kill('SIGKILL');
  await orchestrator.exited;
  orchestrator = startOrchestrator();
  await ready();
  const [, second] = await receiver.waitFor(2, 60_000);
  t.is(second!.headers['gsm-delivery'], first!.headers['gsm-delivery'], 'sent again with the same delivery id');
  t.is(second!.raw, first!.raw);
  await until(
    async () => String(await app().pool.oneFirst(sql.unsafe`SELECT status FROM webhook_deliveries WHERE webhook_id = ${hook.id}`)) === 'SUCCEEDED',
    'recorded as delivered',
  );

  // Acknowledged and recorded: another SIGKILL and restart do not send it again.
  orchestrator.child.kill('SIGKILL');
  await orchestrator.exited;
  orchestrator = startOrchestrator();
  await ready();
  await new Promise((done) => setTimeout(done, 3_000));
  t.is(receiver.received.length, 2);
  t.like(await app().pool.one(sql.unsafe`SELECT status, attempts FROM webhook_deliveries WHERE webhook_id = ${hook.id}`), { status: 'SUCCEEDED', attempts: 2 });
});
