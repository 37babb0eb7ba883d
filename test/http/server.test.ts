import test from 'ava';
import Koa from 'koa';
import { request } from 'node:http';
import { startHttpServer } from '../../api/server.ts';

const get = (port: number, path: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });

test('closing drains in-flight requests and then refuses new connections', async (t) => {
  const koa = new Koa();
  const arrived = Promise.withResolvers<void>();
  koa.use(async (ctx) => {
    arrived.resolve();
    await new Promise((done) => setTimeout(done, 300));
    ctx.body = 'finished';
  });
  const server = await startHttpServer(koa, { port: 0, host: '127.0.0.1' });
  const inFlight = get(server.port, '/slow');
  await arrived.promise; // in flight: being handled when the close begins
  const started = Date.now();
  const closed = server.close(5_000);
  t.deepEqual(await inFlight, { status: 200, body: 'finished' });
  await closed;
  t.true(Date.now() - started < 2_000, 'close does not wait for the keep-alive timeout');
  await t.throwsAsync(get(server.port, '/after'), { code: 'ECONNREFUSED' });
});

test('a request still running at the timeout has its connection cut', async (t) => {
  const koa = new Koa();
  const arrived = Promise.withResolvers<void>();
  koa.use(async (ctx) => {
    arrived.resolve();
    await new Promise((done) => setTimeout(done, 5_000));
    ctx.body = 'too late';
  });
  const server = await startHttpServer(koa, { port: 0, host: '127.0.0.1' });
  const hung = get(server.port, '/hung');
  await arrived.promise;
  const started = Date.now();
  await server.close(300);
  t.true(Date.now() - started < 2_000);
  await t.throwsAsync(hung);
});
