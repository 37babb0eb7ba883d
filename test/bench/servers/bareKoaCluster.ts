/**
 * Baseline of the auth benchmark: bare Koa running the endpoint's own cluster query (the SQL of GET
 * /api/v1/clusters/<id>, prepared, as our endpoint runs it) with a plain `pg` pool and no authentication, routing,
 * validation or logging: the limit of a database-backed read. Arguments: the database URL, the cluster id and the
 * id of the user whose role it answers.
 */
import Koa from 'koa';
import pg from 'pg';

const [databaseUrl, clusterId, userId] = process.argv.slice(2) as [string, string, string];
const url = new URL(databaseUrl);
url.searchParams.set('options', '-c jit=off');
const pool = new pg.Pool({ connectionString: url.toString(), max: 10 });
const CLUSTER_QUERY = `
  SELECT c.id, c.name, c.description, m.role,
         json_build_object(
           'machines', (SELECT count(*) FROM machines WHERE cluster_id = c.id),
           'servers', (SELECT count(*) FROM servers WHERE cluster_id = c.id),
           'members', (SELECT count(*) FROM cluster_members WHERE cluster_id = c.id)) AS counts,
         coalesce(c.file_deny_list, '{}') AS "fileDenyList",
         c.created_at AS "createdAt", c.updated_at AS "updatedAt"
    FROM clusters c JOIN cluster_members m ON m.cluster_id = c.id AND m.user_id = $1
   WHERE c.id = $2`;

const koa = new Koa();
koa.use(async (ctx) => {
  const { rows } = await pool.query({ name: 'bench_cluster', text: CLUSTER_QUERY, values: [userId, clusterId] });
  ctx.body = rows[0];
});
const server = koa.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.error(`PORT ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
