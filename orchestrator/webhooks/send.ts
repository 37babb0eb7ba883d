/**
 * One delivery attempt: an HTTP POST of the body, signed (`GSM-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>">`), with `GSM-Event` and `GSM-Delivery`. It succeeds on a 2xx answered within SEND_TIMEOUT_MS;
 * redirects are not followed (a 3xx is a failure), and the connection goes only to an address the SSRF check let
 * through (./addresses.ts). At most RESPONSE_BYTES of the answer are read (for the log); the rest is dropped.
 */
import { createHmac } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { checkedLookup, isPublicAddress, type HostResolver } from './addresses.ts';

export const SEND_TIMEOUT_MS = 10_000;
const RESPONSE_BYTES = 1024;

export const signature = (secret: string, body: string, unixSeconds: number) =>
  `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;

export type Attempt = {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** From a Retry-After answer. */ retryAfterMs?: number;
};

/**
 * Connections of our own, kept alive between deliveries: never the global agents, which Node may route through an
 * HTTP_PROXY (NODE_USE_ENV_PROXY), and a proxy would connect to whatever address it likes, past the SSRF check.
 */
const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 64 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 64 }) };

export type Outgoing = {
  url: string;
  body: string;
  secret: string;
  eventType: string;
  deliveryId: string;
  allowPrivate: boolean;
  userAgent: string;
  timeoutMs?: number;
  /** Resolves the URL's host (./addresses.ts hostResolver); default the system's name servers. */
  resolve?: HostResolver;
};

export function send(outgoing: Outgoing): Promise<Attempt> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): Attempt => ({
    ok: statusCode !== null && statusCode >= 200 && statusCode < 300 && error === null,
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  const url = new URL(outgoing.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // A literal address is not looked up: it is checked here instead.
  if (!outgoing.allowPrivate && isIP(host) && !isPublicAddress(host))
    return Promise.resolve(done(null, `${host} is a private or reserved address (WEBHOOK_ALLOW_PRIVATE_NETWORKS)`));
  const timeoutMs = outgoing.timeoutMs ?? SEND_TIMEOUT_MS;
  return new Promise<Attempt>((resolve) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        lookup: checkedLookup(outgoing.allowPrivate, outgoing.resolve),
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(outgoing.body),
          'User-Agent': outgoing.userAgent,
          'GSM-Event': outgoing.eventType,
          'GSM-Delivery': outgoing.deliveryId,
          'GSM-Signature': signature(outgoing.secret, outgoing.body, Math.floor(Date.now() / 1000)),
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let kept = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (kept.length < RESPONSE_BYTES) kept += chunk.slice(0, RESPONSE_BYTES - kept.length);
        });
        response.on('end', () => {
          if (status >= 200 && status < 300) return resolve(done(status, null));
          const retryAfter = Number(response.headers['retry-after']);
          const redirect =
            status >= 300 && status < 400 ? ` (redirects are not followed${response.headers.location ? `: ${response.headers.location}` : ''})` : '';
          const failed = done(status, `HTTP ${status}${redirect}${kept.trim() ? `: ${kept.trim().slice(0, 200)}` : ''}`);
          resolve(Number.isFinite(retryAfter) && retryAfter > 0 ? { ...failed, retryAfterMs: retryAfter * 1000 } : failed);
        });
        response.on('error', (error) => resolve(done(status, error.message)));
      },
    );
    request.on('error', (error: Error & { code?: string }) => {
      const message =
        error.name === 'AbortError' || error.name === 'TimeoutError' || error.code === 'ABORT_ERR'
          ? `no answer within ${timeoutMs / 1000} s`
          : error.name === 'WebhookAddressError'
            ? error.message
            : `${error.code ?? error.name}: ${error.message}`;
      resolve(done(null, message));
    });
    request.end(outgoing.body);
  });
}
