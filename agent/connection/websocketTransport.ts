/**
 * The agent's WebSocket transport to the gateway. A WebSocket client masks every frame it sends with a random key
 * (RFC 6455 §5.3), and the gateway unmasks it byte by byte: for the bytes an agent sends in bulk (downloads, transfers,
 * backups) that was a tenth of the CPU of both processes. Masking protects proxies that read plain HTTP from a
 * browser script that chooses the bytes; inside TLS no proxy reads them, and on the loopback there is none. So a
 * connection over TLS or to a loopback address is sent with the all-zero key (the frames stay valid, and the gateway
 * then skips unmasking); a plain connection to any other address keeps random keys.
 */
import { isIP } from 'node:net';
import { NodeWebSocket } from 'socket.io-client';

const zeroMask = (mask: Buffer): void => void mask.fill(0);

/** Plain WebSocket frames with the all-zero masking key (see above). */
class UnmaskedWebSocket extends NodeWebSocket {
  override createSocket(uri: string, protocols: string | string[] | undefined, opts: Record<string, unknown>): unknown {
    return super.createSocket(uri, protocols, { ...opts, generateMask: zeroMask });
  }
}

/** Whether frames to `url` need random masking keys: not over TLS, not to a loopback address. */
export function needsMasking(url: string): boolean {
  const parsed = new URL(url);
  if (parsed.protocol === 'https:' || parsed.protocol === 'wss:') return false;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return false;
  if (isIP(host) === 4) return !host.startsWith('127.');
  if (isIP(host) === 6) return host !== '::1';
  return true;
}

/** The socket.io `transports` option for a connection to `url`. */
export function transportsFor(url: string): ['websocket'] | [typeof UnmaskedWebSocket] {
  return needsMasking(url) ? ['websocket'] : [UnmaskedWebSocket];
}
