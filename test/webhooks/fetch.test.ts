/**
 * The guarded GET (orchestrator/webhooks/fetch.ts) that imports read templates from URLs with: the webhooks' SSRF rules
 * (a private address refused unless allowed), no redirects, a size cap, a time-out. Local servers only.
 */
import test from 'ava';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchText } from '../../orchestrator/webhooks/fetch.ts';

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const options = { allowPrivate: true, maxBytes: 1024, timeoutMs: 2000, userAgent: 'gsm-test' };

test('reads a document; refuses private addresses unless allowed, redirects, oversize answers, silence and bad URLs', async (t) => {
  const { url, server } = await serve((request, response) => {
    if (request.url === '/egg.json') return response.end('{"meta":{"version":"PTDL_v2"}}');
    if (request.url === '/moved') return response.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    if (request.url === '/big') return response.end('x'.repeat(5000));
    if (request.url === '/chunked') {
      response.write('x'.repeat(800));
      return response.end('x'.repeat(800));
    }
    if (request.url === '/slow') return; // never answers
    response.writeHead(404).end('nope');
  });
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const fetched = await fetchText(`${url}/egg.json`, options);
  t.true(fetched.ok);
  if (fetched.ok) t.is(fetched.text, '{"meta":{"version":"PTDL_v2"}}');
  const refused = await fetchText(`${url}/egg.json`, { ...options, allowPrivate: false });
  t.like(refused, { ok: false, error: '127.0.0.1 is a private or reserved address (WEBHOOK_ALLOW_PRIVATE_NETWORKS)' });
  const byName = await fetchText(`${url.replace('127.0.0.1', 'localhost')}/egg.json`, { ...options, allowPrivate: false });
  t.false(byName.ok);
  if (!byName.ok) t.regex(byName.error, /localhost resolves to .*private or reserved/);
  t.like(await fetchText(`${url}/moved`, options), { ok: false, error: 'the URL answered HTTP 302 (redirects are not followed: http://169.254.169.254/)' });
  t.like(await fetchText(`${url}/missing`, options), { ok: false, error: 'the URL answered HTTP 404' });
  t.like(await fetchText(`${url}/big`, options), { ok: false, error: 'the document is larger than 1 KiB' });
  t.like(await fetchText(`${url}/chunked`, options), { ok: false, error: 'the document is larger than 1 KiB' });
  t.like(await fetchText(`${url}/slow`, { ...options, timeoutMs: 300 }), { ok: false, error: 'no answer within 0.3 s' });
  t.like(await fetchText('ftp://example.org/egg.json', options), { ok: false, error: 'the URL must be an http or https URL' });
  t.like(await fetchText('http://user:pw@example.org/egg.json', options), { ok: false });
});
