/**
 * The router's index (api/http/routeIndex.ts) only narrows which routes are tested: for every path shape of every
 * registered route (filled in, with a trailing slash, in capitals, cut short, extended, with an odd segment) and every
 * method, the match is the one @koa/router makes by testing every route; and through the server, a route that exists,
 * a method it lacks (405) and a path nothing serves (404) are answered as they were.
 */
import test from 'ava';
import Router from '@koa/router';
import { indexRoutes } from '../../api/http/routeIndex.ts';
import { useTestApp } from '../support/app.ts';

const app = useTestApp(test);

const ID = '0191a0b0-0000-7000-8000-000000000000';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

test('every path shape of every route matches the same routes as testing them all, in the same order', (t) => {
  const router = app().api.router;
  const paths = new Set(['', '/', '//', '/x', '/API/V1/CLUSTERS', '/api//v1/clusters', `/api/v1/clusters/${ID}%2F/servers`, '/HEALTHZ', '/healthz/']);
  for (const layer of router.stack) {
    const path = String(layer.path);
    const filled = path.replace(/:[A-Za-z_$][\w$]*/g, ID);
    for (const variant of [
      path,
      filled,
      `${filled}/`,
      filled.toUpperCase(),
      `${filled}/more`,
      `${filled}x`,
      filled.replace(/\/[^/]*$/, ''),
      filled.replace(ID, 'a.b'),
    ])
      paths.add(variant);
  }
  t.true(router.stack.length > 100, 'the whole route table');
  const shape = (result: ReturnType<Router['match']>) => ({
    route: result.route,
    path: result.path.map((layer) => router.stack.indexOf(layer)),
    pathAndMethod: result.pathAndMethod.map((layer) => router.stack.indexOf(layer)),
  });
  let matched = 0;
  for (const path of paths)
    for (const method of METHODS) {
      const indexed = shape(router.match(path, method));
      t.deepEqual(indexed, shape(Router.prototype.match.call(router, path, method)), `${method} ${path}`);
      if (indexed.route) matched += 1;
    }
  t.true(matched > router.stack.length, 'most shapes match a route');
});

test('a route given as a raw regular expression is tested for every path; a prefix set after the index was built is seen', (t) => {
  const plain = (router: Router, path: string) => Router.prototype.match.call(router, path, 'GET').route;
  const router = new Router();
  const ok = () => undefined;
  router.register('/raw/x', ['GET'], [ok], { pathAsRegExp: true });
  router.register('/files/a.b', ['GET'], [ok], { pathAsRegExp: true });
  router.get('/v1/things', ok);
  indexRoutes(router);
  for (const path of ['/raw/x', '/raw/xyz', '/foo/raw/x', '/files/aXb', '/v1/things', '/nothing'])
    t.is(router.match(path, 'GET').route, plain(router, path), path);
  t.true(router.match('/raw/xyz', 'GET').route, 'unanchored, as @koa/router makes it');
  router.prefix('/api');
  for (const path of ['/api/v1/things', '/v1/things']) t.is(router.match(path, 'GET').route, plain(router, path), `after prefix(): ${path}`);
  t.true(router.match('/api/v1/things', 'GET').route);
});

test('through the server: a route answers, a missing method is 405 with Allow, an unknown path is 404', async (t) => {
  const health = await app().request('/HEALTHZ/', { headers: { origin: 'http://elsewhere.example' } });
  t.is(health.status, 200);
  const wrongMethod = await app().request('/api/v1/clusters', { method: 'PUT' });
  t.is(wrongMethod.status, 405);
  t.true((wrongMethod.headers.get('allow') ?? '').includes('GET'));
  t.is((await app().request('/api/v1/no-such-thing')).status, 404);
  t.is((await app().request(`/api/v1/clusters/${ID}`)).status, 401, 'a route that needs a token still asks for one');
});
