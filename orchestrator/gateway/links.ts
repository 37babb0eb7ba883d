/**
 * One agent connection, whatever its framing (docs/agent-protocol.md): Socket.IO (the reference agent), or plain WebSocket
 * where every frame is `{ event, data, id? }` and an answer to a frame with `id` is `{ event: "ack", data: { id, … } }`.
 * The session logic (agentSession.ts) sees only this interface.
 */
import type { Socket } from 'socket.io';
import type { WebSocket } from 'ws';
import { plainFrame } from '../../schema/agentEvents.ts';

export type Ack = (answer: Record<string, unknown>) => void;
export type FrameHandler = (event: string, data: unknown, ack: Ack | undefined) => void;

export interface AgentLink {
  readonly framing: 'socket.io' | 'websocket';
  readonly remoteAddress: string;
  send(event: string, data: unknown): void;
  /** Sends and waits for the agent's acknowledgement; rejects after `timeoutMs`. */
  request(event: string, data: unknown, timeoutMs: number): Promise<Record<string, unknown>>;
  /** Sends `event` last and closes once it is written. */
  closeWith(event: string, data: unknown): void;
  close(): void;
  onFrame(handler: FrameHandler): void;
  /** A frame that is not `{ event, data }` JSON (plain WebSocket only). */
  onMalformed(handler: (reason: string) => void): void;
  onClose(handler: () => void): void;
}

export function socketIoLink(socket: Socket): AgentLink {
  /** Requests waiting for their ack: rejected together when the connection closes (one listener, however many wait). */
  const pending = new Set<() => void>();
  socket.once('disconnect', () => [...pending].forEach((gone) => gone()));
  return {
    framing: 'socket.io',
    remoteAddress: socket.handshake.address,
    send: (event, data) => void socket.emit(event, data),
    // Rejected at once when the connection closes: nothing keeps waiting (and holding a timer) for an ack that cannot come.
    request: (event, data, timeoutMs) =>
      new Promise((resolve, reject) => {
        const settle = (then: () => void) => {
          clearTimeout(timer);
          pending.delete(gone);
          then();
        };
        const gone = () => settle(() => reject(new Error(`the connection closed before the ack for ${event}`)));
        const timer = setTimeout(() => settle(() => reject(new Error(`no ack for ${event} within ${timeoutMs} ms`))), timeoutMs);
        if (socket.disconnected) return gone();
        pending.add(gone);
        socket.emit(event, data, (answer: Record<string, unknown>) => settle(() => resolve(answer)));
      }),
    closeWith(event, data) {
      socket.emit(event, data);
      socket.disconnect(true);
    },
    close: () => void socket.disconnect(true),
    onFrame(handler) {
      socket.onAny((event: string, ...args: unknown[]) => {
        const last = args.at(-1);
        const ack = typeof last === 'function' ? (last as Ack) : undefined;
        handler(event, args[0], ack);
      });
    },
    onMalformed: () => undefined,
    onClose: (handler) => void socket.on('disconnect', handler),
  };
}

/** WebSocket close code for a policy refusal (bad auth, bad version). */
const POLICY_VIOLATION = 1008;

export function plainLink(ws: WebSocket, remoteAddress: string): AgentLink {
  const send = (event: string, data: unknown, done?: () => void) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event, data }), done);
  };
  let malformed: (reason: string) => void = () => undefined;
  /** Acknowledgements this side is waiting for, by frame id. */
  const pending = new Map<string, { settle: (answer: Record<string, unknown>) => void; gone: () => void }>();
  let nextId = 0;
  // ws reports a frame over maxPayload (it then closes with 1009) and protocol errors here; without a listener they
  // would crash the process.
  ws.on('error', () => undefined);
  // Nothing keeps waiting (and holding a timer) for an ack that can no longer come.
  ws.on('close', () => [...pending.values()].forEach((waiting) => waiting.gone()));
  return {
    framing: 'websocket',
    remoteAddress,
    send: (event, data) => send(event, data),
    request: (event, data, timeoutMs) =>
      new Promise((resolve, reject) => {
        const id = `s${++nextId}`;
        const timer = setTimeout(() => (pending.delete(id), reject(new Error(`no ack for ${event} within ${timeoutMs} ms`))), timeoutMs);
        pending.set(id, {
          settle: (answer) => (clearTimeout(timer), pending.delete(id), resolve(answer)),
          gone: () => (clearTimeout(timer), pending.delete(id), reject(new Error(`the connection closed before the ack for ${event}`))),
        });
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event, data, id }));
        else if (ws.readyState !== ws.CONNECTING) pending.get(id)!.gone();
      }),
    closeWith: (event, data) => send(event, data, () => ws.close(POLICY_VIOLATION)),
    close: () => ws.close(POLICY_VIOLATION),
    onFrame(handler) {
      ws.on('message', (raw, isBinary) => {
        let frame: ReturnType<typeof plainFrame.safeParse>;
        try {
          frame = plainFrame.safeParse(JSON.parse(isBinary ? Buffer.from(raw as Buffer).toString('utf8') : String(raw)));
        } catch {
          return malformed('frame is not JSON');
        }
        if (!frame.success) return malformed('frame is not { event, data, id? }');
        const { event, data, id } = frame.data;
        if (event === 'ack') {
          const answer = data as { id?: unknown } | null;
          const settle = typeof answer?.id === 'string' ? pending.get(answer.id) : undefined;
          if (settle) return settle.settle(answer as Record<string, unknown>);
        }
        handler(event, data, id === undefined ? undefined : (answer) => send('ack', { id, ...answer }));
      });
    },
    onMalformed: (handler) => void (malformed = handler),
    onClose: (handler) => void ws.on('close', handler),
  };
}
