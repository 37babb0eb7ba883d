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
import { startTestApp, type TestApp } from '../support/app.ts';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const scrape = async (app: TestApp) => {
  const response = await app.request('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  return response.text();
};

/** A cluster with one ONLINE server of `players` players. */
async function clusterWithPlayers(app: TestApp, players: number) {
  const owner = await signUp(app);
  const { clusterId, machineId } = await registerMachine(app, owner);
  const server = await body(
    await app.request(
      `/api/v1/clusters/${clusterId}/servers`,
      json({ name: 'EU', gameType: 'RUST', machineId, gamePort: 28015, queryPort: 28016, rconPort: 28017 }, { headers: owner.auth }),
    ),
  );
  await app.pool.query(sql.unsafe`UPDATE servers SET status = 'ONLINE', players_online = ${players} WHERE id = ${server.id}`);
  return { owner, clusterId, machineId, server };
}

test('the domain gauges, counters and histogram are on /metrics, from the database and this process', async (t) => {
  const app = await startGatewayApp({ heartbeatSeconds: 1, worker: true, env: { METRICS_TOKEN } });
  t.teardown(() => app.close());
  const { owner, clusterId, machineId } = await clusterWithPlayers(app, 7);
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

  const text = await scrape(app);
  t.regex(text, /^gsm_servers\{status="ONLINE"\} 1$/m);
  // One figure for all clusters: no cluster's id is shown to whoever reads the metrics.
  t.regex(text, /^gsm_players_online 7$/m);
  t.false(text.includes(clusterId));
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

test('players online per cluster only with METRICS_CLUSTER_LABELS', async (t) => {
  const app = await startTestApp({ METRICS_TOKEN, METRICS_CLUSTER_LABELS: 'true' });
  t.teardown(() => app.close());
  const first = await clusterWithPlayers(app, 3);
  const second = await clusterWithPlayers(app, 4);
  const text = await scrape(app);
  t.regex(text, new RegExp(`^gsm_players_online\\{cluster_id="${first.clusterId}"\\} 3$`, 'm'));
  t.regex(text, new RegExp(`^gsm_players_online\\{cluster_id="${second.clusterId}"\\} 4$`, 'm'));
});
