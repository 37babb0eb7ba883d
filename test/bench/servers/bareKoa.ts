/** Baseline: a bare Koa hello-world answering JSON. */
import Koa from 'koa';

const koa = new Koa();
koa.use((ctx) => {
  ctx.body = { status: 'ok' };
});
const server = koa.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.error(`PORT ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
