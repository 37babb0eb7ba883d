/**
 * Before a start, each of a server's ports is bound for a moment as the protocol its game uses (TCP, UDP or both):
 * a port already taken fails the start with PORT_IN_USE naming the process holding it (found from
 * /proc/net/{tcp,udp}{,6}: the socket's inode, then the process whose /proc/<pid>/fd links to it), rather than the
 * game's own bind error later (docs/agent.md#ports).
 */
import { createSocket } from 'node:dgram';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';

export type PortNeed = { name: string; port: number; protocol: 'TCP' | 'UDP' | 'BOTH' };

export class PortInUseError extends Error {
  readonly code = 'PORT_IN_USE';
}

/** Whether `port` can be bound as `protocol` on every address; the error code when not. */
function tryBind(port: number, protocol: 'TCP' | 'UDP'): Promise<string | undefined> {
  return new Promise((resolve) => {
    if (protocol === 'TCP') {
      const server = createServer();
      server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      server.listen({ port, host: '0.0.0.0', exclusive: true }, () => server.close(() => resolve(undefined)));
    } else {
      const socket = createSocket({ type: 'udp4' });
      socket.once('error', (error: NodeJS.ErrnoException) => {
        socket.close();
        resolve(error.code ?? error.message);
      });
      socket.bind({ port, address: '0.0.0.0', exclusive: true }, () => socket.close(() => resolve(undefined)));
    }
  });
}

type SocketEntry = { inode: string; uid: number };

/** The sockets bound to `port` (TCP: listening) from the kernel's tables. */
async function socketsOn(port: number, protocol: 'TCP' | 'UDP'): Promise<SocketEntry[]> {
  const files = protocol === 'TCP' ? ['/proc/net/tcp', '/proc/net/tcp6'] : ['/proc/net/udp', '/proc/net/udp6'];
  const found: SocketEntry[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const localPort = Number.parseInt(fields[1]!.split(':')[1] ?? '', 16);
      if (localPort !== port || (protocol === 'TCP' && fields[3] !== '0A')) continue;
      found.push({ uid: Number(fields[7]), inode: fields[9]! });
    }
  }
  return found.filter((entry) => entry.inode !== '0');
}

/**
 * The process holding a socket inode: pid and process name (only processes this agent may look into). Never its
 * command line: that can carry another server's RCON password, and this text reaches events, webhooks and viewers.
 */
async function holderOf(inodes: Set<string>): Promise<{ pid: number; name: string } | undefined> {
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((entry) => /^\d+$/.test(entry));
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) {
        // comm is at most 15 bytes, chosen by the process: cleaned to printable characters.
        // eslint-disable-next-line no-control-regex
        const name = (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '?')).trim().replace(/[\u0000-\u001f\u007f]/g, '') || '?';
        return { pid: Number(pid), name };
      }
    }
  }
  return undefined;
}

/** Account name → the id of the server it belongs to (accounts.json), to name a server rather than its account. */
export type AccountOwners = Readonly<Record<string, string | null>>;

/** The account of `uid` in words: the server it belongs to when it is one of this agent's, else its name. */
async function accountOf(uid: number, owners: AccountOwners): Promise<string> {
  let name: string | undefined;
  try {
    if (uid === userInfo().uid) name = userInfo().username;
  } catch {
    // no name for our own uid: looked up below
  }
  if (name === undefined) {
    const passwd = await readFile('/etc/passwd', 'utf8').catch(() => '');
    name = passwd
      .split('\n')
      .map((line) => line.split(':'))
      .find((fields) => fields.length > 3 && Number(fields[2]) === uid)?.[0];
  }
  if (name === undefined) return `uid ${uid}`;
  const server = owners[name];
  return server ? `the account of server ${server}` : name;
}

/** Who holds `port`, in words: `pid 1234 (java) of gsm`, or what the kernel tables say (never a command line). */
export async function describeHolder(port: number, protocol: 'TCP' | 'UDP', owners: AccountOwners = {}): Promise<string> {
  const sockets = await socketsOn(port, protocol);
  if (sockets.length === 0) return 'held by a process this agent cannot see';
  const holder = await holderOf(new Set(sockets.map((socket) => socket.inode)));
  const account = await accountOf(sockets[0]!.uid, owners);
  if (holder) return `held by pid ${holder.pid} (${holder.name}) of ${account}`;
  return `held by a process of ${account} (socket inode ${sockets[0]!.inode})`;
}

/** Throws PortInUseError for the first of `needs` that cannot be bound, saying who holds it. */
export async function checkPortsFree(needs: readonly PortNeed[], owners: AccountOwners = {}): Promise<void> {
  for (const need of needs) {
    const protocols: ('TCP' | 'UDP')[] = need.protocol === 'BOTH' ? ['TCP', 'UDP'] : [need.protocol];
    for (const protocol of protocols) {
      const failure = await tryBind(need.port, protocol);
      if (failure === undefined) continue;
      const why = failure === 'EADDRINUSE' ? await describeHolder(need.port, protocol, owners) : `cannot be bound (${failure})`;
      throw new PortInUseError(`port ${need.port}/${protocol} (its ${need.name} port) is in use: ${why}`);
    }
  }
}
