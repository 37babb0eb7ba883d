/**
 * The domain on /metrics: servers by status, players online per cluster, machines online, jobs created and ended by
 * type and status with their latency histogram (kept by triggers), events, console lines and webhook deliveries.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json } from '../support/app.ts';
import { signUp } from '../support/identity.ts';
import { registerMachine } from '../support/agentProcess.ts';
import { startGatewayApp } from '../support/gateway.ts';

test('the domain gauges, counters and histogram are on /metrics, from the database and this process', async (t) => {
  const app = await startGatewayApp({ heartbeatSeconds: 1, worker: true });
  t.teardown(() => app.close());
  const owner = await signUp(app);
  const { clusterId, machineId } = await registerMachine(app, owner);
  const server = await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json({ name: 'EU', gameType: 'RUST', machineId, gamePort: 28015, queryPort: 28016, rconPort: 28017 }, { headers: owner.auth }),
    ),
  );
  await app.pool.query(sql.unsafe`UPDATE servers SET status = 'ONLINE', players_online = 7 WHERE id = ${server.id}`);
  // A START the agent (absent) never runs, cancelled: created, then ended CANCELLED.
  const other = await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json({ name: 'US', gameType: 'RUST', machineId, gamePort: 28115, queryPort: 28116, rconPort: 28117 }, { headers: owner.auth }),
    ),
  );
  const job = await body(await app.request(`/api/v1/servers/${other.id}/start`, json({}, { headers: owner.auth })));
  t.truthy(job.id, JSON.stringify(job));
  t.is((await app.request(`/api/v1/jobs/${job.id}/cancel`, json({}, { headers: owner.auth }))).status, 200);

  const text = await (await app.request('/metrics')).text();
  t.regex(text, /^gsm_servers\{status="ONLINE"\} 1$/m);
  t.regex(text, new RegExp(`^gsm_players_online\\{cluster_id="${clusterId}"\\} 7$`, 'm'));
  t.regex(text, /^gsm_machines_online 0$/m);
  t.regex(text, /^gsm_jobs_created_total\{type="START"\} 1$/m);
  t.regex(text, /^gsm_jobs_ended_total\{type="START",status="CANCELLED"\} 1$/m);
  t.regex(text, /^gsm_job_duration_seconds_count\{type="START"\} 1$/m);
  t.regex(text, /^gsm_job_duration_seconds_bucket\{le="\+Inf",type="START"\} 1$/m);
  t.regex(text, /^# TYPE gsm_job_duration_seconds histogram$/m);
  t.regex(text, /^gsm_events_total \d+$/m);
  t.regex(text, /^gsm_console_lines_total\{outcome="relayed"\} 0$/m);
  t.regex(text, /^gsm_webhook_deliveries_total\{outcome="delivered"\} 0$/m);
});
