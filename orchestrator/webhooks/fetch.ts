/**
 * A GET of a text document under the webhooks' SSRF rules (./addresses.ts): `http`/`https` without credentials, the
 * connection made only to an address the check let through (the check is the connection's DNS lookup, so DNS
 * rebinding cannot reach inside), on connections of our own (never a proxy from the environment), redirects not
 * followed, at most `maxBytes` read and `timeoutMs` waited. Used to import a template from a URL
 * (docs/templates.md#importing-eggs); WEBHOOK_ALLOW_PRIVATE_NETWORKS lets it reach the installation's own network.
 */
import { Agent as HttpAgent, get as httpGet, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, get as httpsGet } from 'node:https';
import { isIP } from 'node:net';
import { urlProblem } from '../../schema/webhooks.ts';
import { checkedLookup, isPublicAddress, type HostResolver } from './addresses.ts';

export type FetchedText = { ok: true; text: string; contentType: string | null } | { ok: false; error: string };

export type FetchOptions = { allowPrivate: boolean; maxBytes: number; timeoutMs: number; userAgent: string };

const agents = { http: new HttpAgent({ keepAlive: false }), https: new HttpsAgent({ keepAlive: false }) };

export function fetchText(text: string, options: FetchOptions): Promise<FetchedText> {
  const problem = urlProblem(text);
  if (problem) return Promise.resolve({ ok: false, error: `the URL ${problem}` });
  const url = new URL(text);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(host) && !isPublicAddress(host))
    return Promise.resolve({ ok: false, error: `${host} is a private or reserved address (WEBHOOK_ALLOW_PRIVATE_NETWORKS)` });
  return new Promise<FetchedText>((resolve) => {
    const request = (url.protocol === 'https:' ? httpsGet : httpGet)(
      url,
      {
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        lookup: checkedLookup(options.allowPrivate),
        signal: AbortSignal.timeout(options.timeoutMs),
        headers: { Accept: 'application/json, application/yaml, text/yaml, text/plain;q=0.9, */*;q=0.1', 'User-Agent': options.userAgent },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          response.resume();
          const redirect =
            status >= 300 && status < 400 ? ` (redirects are not followed${response.headers.location ? `: ${response.headers.location}` : ''})` : '';
          return resolve({ ok: false, error: `the URL answered HTTP ${status}${redirect}` });
        }
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          response.destroy();
          return resolve({ ok: false, error: `the document is larger than ${options.maxBytes / 1024} KiB` });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            response.destroy();
            resolve({ ok: false, error: `the document is larger than ${options.maxBytes / 1024} KiB` });
          } else chunks.push(chunk);
        });
        response.on('end', () => resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8'), contentType: response.headers['content-type'] ?? null }));
        response.on('error', (error) => resolve({ ok: false, error: `reading the answer failed: ${error.message}` }));
      },
    );
    request.on('error', (error: Error & { code?: string }) => {
      const message =
        error.name === 'AbortError' || error.name === 'TimeoutError' || error.code === 'ABORT_ERR'
          ? `no answer within ${options.timeoutMs / 1000} s`
          : error.name === 'WebhookAddressError'
            ? error.message
            : `${error.code ?? error.name}: ${error.message}`;
      resolve({ ok: false, error: message });
    });
  });
}

export type OpenedResponse = { ok: true; response: IncomingMessage; url: string } | { ok: false; error: string };

/** Redirects a guarded GET follows at most (each hop checked again). */
const MAX_REDIRECTS = 5;

/**
 * A GET under the same rules as fetchText, answering the response to stream (a pull into a server's files,
 * docs/files.md#archives-and-pulls): redirects are followed (at most MAX_REDIRECTS), each hop checked as the first
 * (its URL, and its connection through the checked lookup), so a redirect to a private address is refused like a
 * request to one. `timeoutMs` bounds the wait for the answer's headers (not the body); `signal` ends the request at
 * any time; `resolve` resolves the hosts (the installation's resolver, bounded in time; default the system's name
 * servers).
 */
export async function openGuarded(
  text: string,
  options: { allowPrivate: boolean; timeoutMs: number; userAgent: string; signal?: AbortSignal; resolve?: HostResolver },
): Promise<OpenedResponse> {
  let current = text;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const problem = urlProblem(current);
    if (problem) return { ok: false, error: `${hop > 0 ? 'a redirect to ' : ''}the URL ${problem}` };
    const url = new URL(current);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && isIP(host) && !isPublicAddress(host))
      return { ok: false, error: `${hop > 0 ? 'a redirect to ' : ''}${host} is a private or reserved address (WEBHOOK_ALLOW_PRIVATE_NETWORKS)` };
    const answer = await new Promise<{ response: IncomingMessage } | { error: string }>((resolve) => {
      // The time-out bounds the wait for the headers only: it is cleared once they arrive, so a long body is not cut
      // (the caller bounds the body: an idle time-out and an overall cap, docs/files.md#archives-and-pulls).
      const headers = new AbortController();
      const timer = setTimeout(() => headers.abort(new DOMException('no answer', 'TimeoutError')), options.timeoutMs);
      const request = (url.protocol === 'https:' ? httpsGet : httpGet)(
        url,
        {
          agent: url.protocol === 'https:' ? agents.https : agents.http,
          lookup: checkedLookup(options.allowPrivate, options.resolve),
          signal: options.signal ? AbortSignal.any([options.signal, headers.signal]) : headers.signal,
          headers: { Accept: '*/*', 'User-Agent': options.userAgent },
        },
        (response) => {
          clearTimeout(timer);
          resolve({ response });
        },
      );
      request.on('close', () => clearTimeout(timer));
      request.on('error', (error: Error & { code?: string }) => {
        const message =
          error.name === 'AbortError' || error.name === 'TimeoutError' || error.code === 'ABORT_ERR'
            ? options.signal?.aborted
              ? 'cancelled'
              : `no answer within ${options.timeoutMs / 1000} s`
            : error.name === 'WebhookAddressError'
              ? `${hop > 0 ? 'a redirect: ' : ''}${error.message}`
              : `${error.code ?? error.name}: ${error.message}`;
        resolve({ error: message });
      });
    });
    if ('error' in answer) return { ok: false, error: answer.error };
    const { response } = answer;
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      current = new URL(response.headers.location, url).toString();
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      return { ok: false, error: `the URL answered HTTP ${status}` };
    }
    return { ok: true, response, url: current };
  }
  return { ok: false, error: `more than ${MAX_REDIRECTS} redirects` };
}
