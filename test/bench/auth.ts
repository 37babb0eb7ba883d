/**
 * `npm run bench -- auth`: requests/s and p99 of an API-token-authenticated GET /api/v1/clusters/<id> (token lookup,
 * membership and scope check, cluster query) against a bare Koa hello-world, with the rate limiter off, in memory and
 * in Redis. Targets: ≥ 35% of bare Koa; the limiter costs ≤ 15% of the endpoint's throughput.
 *
 * The token's user is ENTERPRISE and its bucket is refilled out of reach of the load, so every request is a 200 and
 * the limiter's cost (not its refusals) is what is measured. Beside requests/s, the CPU time per request of the server
 * process and of the database's Postgres backends (steadier than requests/s on a shared machine). The endpoint makes
 * two queries (token with the caller's membership, then the cluster); on 2 cores the server, Postgres and the load
 * generator share the CPU, so requests/s is bounded by their sum of CPU per request, not by the database alone.
 */
import { cpus } from 'node:os';
import { sql } from 'slonik';
import { z } from 'zod';
import { createDatabasePool } from '../../sql/pool.ts';
import { generateSecret, hashSecret } from '../../schema/secretTokens.ts';
import { createTestDatabase } from '../support/database.ts';
import { CONNECTIONS, DURATION_S, measureRounds, printTable, ROUNDS, startServer } from './support.ts';

const TARGET_RATIO = 0.35;
const LIMITER_BUDGET = 0.15;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const database = await createTestDatabase();
const pool = await createDatabasePool(database.url, { maxPoolSize: 1 });
const token = generateSecret('live');
const clusterId = await pool.transaction(async (tx) => {
  const userId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
    INSERT INTO users (email, display_name, tier) VALUES ('bench@example.test', 'bench', 'ENTERPRISE') RETURNING id`);
  const id = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`INSERT INTO clusters (name) VALUES ('bench') RETURNING id`);
  await tx.query(sql.unsafe`INSERT INTO cluster_members (cluster_id, user_id, role) VALUES (${id}, ${userId}, 'OWNER')`);
  const tokenId = await tx.oneFirst(sql.type(z.object({ id: z.string() }))`
    INSERT INTO api_tokens (user_id, name, token_hash) VALUES (${userId}, 'bench', ${sql.binary(hashSecret(token))}) RETURNING id`);
  await tx.query(sql.unsafe`INSERT INTO api_token_clusters (token_id, cluster_id) VALUES (${tokenId}, ${id})`);
  return id;
});
await pool.end();

const bare = await startServer('bareKoa.ts');
const variants = [
  { name: 'limiter off', env: { RATE_LIMIT: 'off' } },
  { name: 'limiter in memory', env: { RATE_LIMIT: 'on', BENCH_UNLIMITED_BUCKETS: '1' } },
  { name: 'limiter in Redis', env: { RATE_LIMIT: 'on', REDIS_URL, BENCH_UNLIMITED_BUCKETS: '1' } },
];
const servers = await Promise.all(variants.map((variant) => startServer('ourApp.ts', [database.url], variant.env)));
try {
  console.log(`Auth benchmark: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s per target, ${cpus().length} cores\n`);
  const headers = { authorization: `Bearer ${token}` };
  const databaseName = new URL(database.url).pathname.slice(1);
  const results = await measureRounds([
    { name: 'bare Koa hello-world', options: { url: `http://127.0.0.1:${bare.port}/` }, cpu: { pid: bare.child.pid } },
    ...variants.map((variant, index) => ({
      name: `GET /api/v1/clusters/:id, ${variant.name}`,
      options: { url: `http://127.0.0.1:${servers[index]!.port}/api/v1/clusters/${clusterId}`, headers },
      // The three servers share the database: its backends' CPU is counted while one of them is measured.
      cpu: { pid: servers[index]!.child.pid, database: databaseName },
    })),
  ]);
  const [baseline, off, memory, redis] = results as [(typeof results)[0], (typeof results)[0], (typeof results)[0], (typeof results)[0]];
  printTable(results, baseline);
  const ratio = off.requestsPerSecond / baseline.requestsPerSecond;
  console.log(
    `\nauthenticated endpoint: ${(ratio * 100).toFixed(1)}% of bare Koa (target ≥ ${TARGET_RATIO * 100}%): ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'}`,
  );
  for (const limited of [memory, redis]) {
    const cost = 1 - limited.requestsPerSecond / off.requestsPerSecond;
    console.log(
      `${limited.name}: costs ${(cost * 100).toFixed(1)}% of the endpoint's requests/s (budget ≤ ${LIMITER_BUDGET * 100}%): ${cost <= LIMITER_BUDGET ? 'met' : 'NOT met'}`,
    );
  }
} finally {
  await Promise.all([bare.stop(), ...servers.map((server) => server.stop())]);
  await database.drop();
}
