import test from 'ava';
import Koa from 'koa';
import { request } from 'node:http';
import { startHttpServer, type RequestShortcut } from '../../api/server.ts';

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
  const server = await startHttpServer({ koa }, { port: 0, host: '127.0.0.1' });
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
  const server = await startHttpServer({ koa }, { port: 0, host: '127.0.0.1' });
  const hung = get(server.port, '/hung');
  await arrived.promise;
  const started = Date.now();
  await server.close(300);
  t.true(Date.now() - started < 2_000);
  await t.throwsAsync(hung);
});

test('a shortcut answers ahead of Koa; one that throws leaves the request to Koa before answering, is cut off halfway, and left alone once done', async (t) => {
  const koa = new Koa();
  koa.use((ctx) => {
    ctx.body = `koa ${ctx.path}`;
  });
  const probe: RequestShortcut = (request, response) => {
    if (request.url === '/ahead') {
      response.end('ahead');
      return true;
    }
    if (request.url === '/throws-before') throw new Error('before answering');
    if (request.url === '/throws-when-done') {
      response.end('done');
      throw new Error('after the answer');
    }
    if (request.url === '/throws-after') {
      response.writeHead(200, { 'content-length': '100' });
      response.write('partial');
      throw new Error('after answering');
    }
    return false;
  };
  const server = await startHttpServer({ koa, probe }, { port: 0, host: '127.0.0.1' });
  t.teardown(() => server.close(1_000));
  t.deepEqual(await get(server.port, '/ahead'), { status: 200, body: 'ahead' });
  t.deepEqual(await get(server.port, '/other'), { status: 200, body: 'koa /other' });
  t.deepEqual(await get(server.port, '/throws-before'), { status: 200, body: 'koa /throws-before' });
  await t.throwsAsync(get(server.port, '/throws-after'), { code: 'ECONNRESET' });
  t.deepEqual(await get(server.port, '/throws-when-done'), { status: 200, body: 'done' }, 'a whole answer is left as it is');
  t.deepEqual(await get(server.port, '/ahead'), { status: 200, body: 'ahead' }, 'the process is still up');
});
