/**
 * The file helper process (docs/agent.md#server-files): started by the agent as a server's account with
 * `<server directory>` and the deny list (JSON) as arguments, it serves the file operations of one session over its
 * standard input and output (protocol.ts) until its input ends. It imports only Node's own modules and ours, so the
 * bundled agent starts it as `gsm-agent.mjs __files-helper …` and the sources as `node agent/files/helperMain.ts …`.
 */
import { FileOpError, FrameReader, writeFrame, type Frame } from './protocol.ts';
import { ServerFiles } from './operations.ts';
import { compress, extract } from './archives.ts';
import { tuneGarbageCollector } from '../../schema/garbageCollection.ts';

type Args = Record<string, unknown>;
const str = (args: Args, key: string): string => {
  const value = args[key];
  if (typeof value !== 'string') throw new FileOpError('INVALID', `${key} must be a string`);
  return value;
};
const num = (args: Args, key: string): number => {
  const value = args[key];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new FileOpError('INVALID', `${key} must be a whole number`);
  return value;
};
const opt = <T>(args: Args, key: string): T | undefined => (args[key] === undefined || args[key] === null ? undefined : (args[key] as T));

/** How long a helper whose input ended waits for the operations under way to clean up (FileHelper.stop kills it after 5 s). */
const ENDING_MS = 4_000;

/** The long operations under way (compress, extract), by request id: a `cancel` aborts one. */
const underway = new Map<number, AbortController>();

type Progress = (done: number, total: number | null, message: string) => void;

async function dispatch(files: ServerFiles, frame: Frame, progress: Progress): Promise<{ json: Record<string, unknown>; data?: Buffer }> {
  const args = frame.json;
  switch (args.op) {
    case 'stat':
      return { json: { info: await files.stat(str(args, 'path')) } };
    case 'lstat':
      return { json: { info: await files.lstat(str(args, 'path')) } };
    case 'realpath':
      return { json: { path: await files.realpath(str(args, 'path')) } };
    case 'readlink':
      return { json: { target: await files.readlink(str(args, 'path')) } };
    case 'list':
      return { json: await files.list(str(args, 'path'), { after: opt<string>(args, 'after'), limit: opt<number>(args, 'limit') }) };
    case 'open':
      return { json: await files.open(str(args, 'path'), (opt<Record<string, unknown>>(args, 'flags') ?? {}) as never) };
    case 'read':
      return { json: {}, data: await files.read(num(args, 'handle'), num(args, 'position'), num(args, 'length')) };
    case 'write':
      return { json: { written: await files.write(num(args, 'handle'), num(args, 'position'), frame.data ?? Buffer.alloc(0)) } };
    case 'fstat':
      return { json: { info: await files.fstat(num(args, 'handle')) } };
    case 'close':
      return { json: { info: (await files.close(num(args, 'handle'), { commit: args.commit === true })) ?? null } };
    case 'mkdir':
      return { json: { info: await files.mkdir(str(args, 'path'), { recursive: args.recursive === true, mode: opt<number>(args, 'mode') }) } };
    case 'rename':
      return { json: { info: await files.rename(str(args, 'from'), str(args, 'to'), { overwrite: args.overwrite === true }) } };
    case 'copy':
      return { json: { info: await files.copy(str(args, 'from'), str(args, 'to')) } };
    case 'remove':
      await files.remove(str(args, 'path'), { recursive: args.recursive === true });
      return { json: {} };
    case 'chmod':
      return { json: { info: await files.chmod(str(args, 'path'), num(args, 'mode')) } };
    case 'search':
      return { json: { result: await files.search((opt<Record<string, unknown>>(args, 'options') ?? {}) as never) } };
    case 'usage':
      return { json: await files.usage(opt<string>(args, 'path') ?? '', opt<number>(args, 'timeoutMs')) };
    case 'space':
      return { json: await files.space() };
    case 'compress':
    case 'extract': {
      const controller = new AbortController();
      underway.set(frame.id, controller);
      try {
        const options = { signal: controller.signal, progress };
        if (args.op === 'compress') {
          const sources = args.sources;
          if (!Array.isArray(sources) || !sources.every((source) => typeof source === 'string'))
            throw new FileOpError('INVALID', 'sources must be a list of paths');
          return { json: { result: await compress(files, sources as string[], str(args, 'archive'), options) } };
        }
        const limits = { maxBytes: num(args, 'maxBytes'), maxEntries: num(args, 'maxEntries') };
        return { json: { result: await extract(files, str(args, 'archive'), str(args, 'destination'), limits, options) } };
      } finally {
        underway.delete(frame.id);
      }
    }
    case 'cancel':
      underway.get(num(args, 'request'))?.abort();
      return { json: {} };
    case 'deny':
      files.setDenyList(denyPatterns(args.patterns));
      return { json: {} };
    case 'ping':
      return { json: { uid: process.getuid?.() ?? null, gid: process.getgid?.() ?? null } };
    default:
      throw new FileOpError('INVALID', `unknown operation ${String(args.op)}`);
  }
}

function denyPatterns(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new FileOpError('INVALID', 'the deny list must be a list of strings');
  return value as string[];
}

/** Serves the operations on `root` with the deny list `denyJson` over standard input and output. */
export async function runFileHelper(root: string, denyJson: string): Promise<void> {
  const deny = denyPatterns(JSON.parse(denyJson));
  tuneGarbageCollector(); // every read and write of a server's file passes through here as a Buffer
  process.umask(0o022);
  const files = await ServerFiles.open(root, deny);
  const reader = new FrameReader();
  const send = (id: number, json: unknown, data?: Buffer) => writeFrame(process.stdout, id, json, data);
  send(0, { ready: true, uid: process.getuid?.() ?? null });
  /** The operations under way: when the input ends, the long ones are aborted and all are awaited (their cleanup). */
  const inFlight = new Set<Promise<unknown>>();
  let ending = false;
  const end = async (code: number) => {
    if (ending) return;
    ending = true;
    // An extraction cut short removes its staging directory, a compress its temporary file: they are aborted and given
    // up to ENDING_MS to clean up before the helper exits.
    for (const controller of underway.values()) controller.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, ENDING_MS)))]);
    clearTimeout(timer);
    await files.closeAll();
    process.stdout.end(() => process.exit(code));
  };
  process.stdin.on('data', (chunk: Buffer) => {
    let frames: Frame[];
    try {
      frames = reader.push(chunk);
    } catch (error) {
      process.stderr.write(`file helper: ${(error as Error).message}\n`);
      void end(1);
      return;
    }
    for (const frame of frames) {
      const progress: Progress = (done, total, message) => send(0, { progress: { request: frame.id, done, total, message } });
      // Each operation keeps the deny list it started with: a `deny` (the list changed) applies to the ones after it.
      const running = dispatch(frame.json.op === 'deny' ? files : files.pinned(), frame, progress).then(
        (answer) => send(frame.id, { ok: true, ...answer.json }, answer.data),
        (error: unknown) => {
          const failure =
            error instanceof FileOpError
              ? { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) }
              : { code: 'FAILED', message: (error as Error).message };
          send(frame.id, { error: failure });
        },
      );
      inFlight.add(running);
      void running.finally(() => inFlight.delete(running));
    }
  });
  process.stdin.on('end', () => void end(0));
  process.stdin.on('error', () => void end(1));
  process.stdout.on('error', () => process.exit(1));
}

const self = process.argv[1] ?? '';
if (self.endsWith('helperMain.ts') || self.endsWith('helperMain.js')) {
  runFileHelper(process.argv[2] ?? '', process.argv[3] ?? '[]').catch((error: unknown) => {
    process.stderr.write(`file helper: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
