/**
 * `gsm files ls|get|put|rm|edit` (docs/clients.md): a server's files from a terminal. `get` streams the download to a
 * part file and goes on with `Range` after a break (also when run again); `put` uses the resumable upload and
 * remembers unfinished ones in the config directory, so running it again resumes; `edit` opens $VISUAL or $EDITOR on a
 * temporary copy and saves it with `If-Match`, so a change someone else made meanwhile is never overwritten.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError, type GsmClient } from './client.ts';
import { ServerFiles, type UploadMemory } from './files.ts';

export const FILES_USAGE = `  files ls <server> [path]                a directory (every page)
  files get <server> <path> [local|-]     download (streamed; a break, or running it again, resumes with Range)
  files put <server> <local> <path>       upload (resumable: after a break, or run again, it goes on)
  files rm <server> <path> [--recursive]  delete a file, or a directory with --recursive
  files edit <server> <path>              edit in $VISUAL/$EDITOR; saved only if nobody changed it meanwhile`;

export type FilesCli = {
  client: GsmClient;
  positional: string[];
  flags: Map<string, string | true>;
  json: boolean;
  out: (text: string) => void;
  usage: (message: string) => Error;
  /** The directory of gsm's own files (config.json): unfinished uploads are remembered there. */
  configDir: string;
};

const modeText = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

/** Unfinished uploads in `<config dir>/uploads.json` (mode 0600), by local file, its size and time, and target. */
function uploadMemory(configDir: string): UploadMemory {
  const file = join(configDir, 'uploads.json');
  const load = async () => (await readFile(file, 'utf8').then(JSON.parse, () => ({}))) as Record<string, string>;
  const save = async (all: Record<string, string>) => {
    await mkdir(configDir, { recursive: true, mode: 0o700 });
    await writeFile(file, JSON.stringify(all, null, 2), { mode: 0o600 });
  };
  return {
    get: async (key) => (await load())[key],
    set: async (key, id) => save({ ...(await load()), [key]: id }),
    delete: async (key) => {
      const all = await load();
      delete all[key];
      await save(all);
    },
  };
}

/** Progress on standard error while it is a terminal: `42% 210 MiB of 500 MiB`. */
function progress(label: string) {
  if (!process.stderr.isTTY) return () => undefined;
  const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;
  return (done: number, size: number) => {
    const percent = size === 0 ? 100 : Math.floor((done / size) * 100);
    process.stderr.write(`\r${label} ${percent}% ${mib(done)} of ${mib(size)}${done >= size ? '\n' : ''}`);
  };
}

/** Runs `$VISUAL`/`$EDITOR` (a command line, as shells and git take it) on `file` and waits for it. */
function runEditor(file: string): Promise<void> {
  const editor = process.env.VISUAL || process.env.EDITOR || 'vi';
  return new Promise((resolvePromise, reject) => {
    const child = spawn('/bin/sh', ['-c', `${editor} "$1"`, 'gsm-editor', file], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolvePromise() : reject(new Error(`the editor (${editor}) ended with ${signal ?? `status ${code}`}; nothing was saved`)),
    );
  });
}

export async function filesCommand(cli: FilesCli): Promise<number> {
  const { positional, flags, json, out, usage } = cli;
  const sub = positional[1];
  const arg = (index: number, what: string) => {
    const value = positional[index];
    if (value === undefined) throw usage(`${what} is required`);
    return value;
  };
  if (!sub || !['ls', 'get', 'put', 'rm', 'edit'].includes(sub)) throw usage('gsm files ls|get|put|rm|edit');
  const serverId = arg(2, 'the server id');
  const files = new ServerFiles(cli.client, serverId);

  switch (sub) {
    case 'ls': {
      const path = positional[3] ?? '/';
      const entries = [];
      for await (const entry of files.entries(path)) entries.push(entry);
      if (json) out(JSON.stringify(entries, null, 2));
      else
        for (const entry of entries) {
          const kind = entry.type === 'directory' ? 'd' : entry.type === 'symlink' ? 'l' : entry.type === 'file' ? '-' : '?';
          const name = entry.type === 'directory' ? `${entry.name}/` : entry.linkTarget ? `${entry.name} -> ${entry.linkTarget}` : entry.name;
          out(`${kind}${modeText(entry.mode)}  ${String(entry.size).padStart(12)}  ${entry.modifiedAt}  ${name}`);
        }
      return 0;
    }
    case 'rm': {
      const path = arg(3, 'the path');
      await files.remove(path, flags.has('recursive'));
      if (json) out(JSON.stringify({ deleted: path }));
      return 0;
    }
    case 'put': {
      const local = resolve(arg(3, 'the local file'));
      const path = arg(4, 'the path on the server');
      const info = await stat(local);
      if (!info.isFile()) throw usage(`${local} is not a file`);
      const blob = await openAsBlob(local);
      const key = `${serverId}:${path}:${local}:${info.size}:${info.mtimeMs}`;
      const done = await files.upload(path, blob, {
        memory: uploadMemory(cli.configDir),
        key,
        onProgress: progress(`uploading ${basename(local)}`),
      });
      if (json) out(JSON.stringify(done, null, 2));
      else out(`uploaded ${done.size} bytes to ${done.path}`);
      return 0;
    }
    case 'get': {
      const path = arg(3, 'the path');
      const target = positional[4] ?? basename(path);
      const entry = await files.stat(path);
      if (entry.type !== 'file') throw usage(`${path} is not a file`);
      const show = target === '-' ? () => undefined : progress(`downloading ${basename(path)}`);
      if (target === '-') {
        const response = await files.download(path);
        await pipeline(Readable.fromWeb(response.body as never), process.stdout);
        return 0;
      }
      // A part file named by the version: a later run resumes it, unless the file changed on the server meanwhile.
      const version = createHash('sha256')
        .update(entry.etag ?? String(entry.modifiedAt))
        .digest('hex')
        .slice(0, 12);
      const part = join(dirname(resolve(target)), `.${basename(target)}.${version}.gsm-part`);
      for (let failures = 0; ;) {
        const have = await stat(part).then(
          (found) => found.size,
          () => 0,
        );
        show(have, entry.size);
        if (have >= entry.size) break;
        try {
          const response = await files.download(path, { start: have });
          if (entry.etag && response.headers.get('etag') && response.headers.get('etag') !== entry.etag)
            throw new Error(`${path} changed on the server during the download; run gsm files get again`);
          let received = have;
          const count = new Transform({
            transform(chunk: Buffer, _encoding, callback) {
              received += chunk.length;
              show(received, entry.size);
              callback(null, chunk);
            },
          });
          await pipeline(Readable.fromWeb(response.body as never), count, createWriteStream(part, { flags: have > 0 ? 'a' : 'w' }));
          failures = 0;
        } catch (error) {
          if (error instanceof ApiError && error.statusCode < 500 && error.statusCode !== 429) throw error;
          if (++failures > 8) throw error;
          await new Promise((wait) => setTimeout(wait, Math.min(500 * 2 ** failures, 30_000)));
        }
      }
      await rename(part, target);
      if (json) out(JSON.stringify({ path: entry.name, size: entry.size, file: resolve(target) }));
      return 0;
    }
    case 'edit': {
      const path = arg(3, 'the path');
      let etag: string | undefined;
      let before = '';
      try {
        const text = await files.readText(path);
        etag = text.etag;
        before = text.content;
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode !== 404) throw error; // a new file
      }
      const folder = await mkdtemp(join(tmpdir(), 'gsm-edit-'));
      const copy = join(folder, basename(path) || 'file');
      await writeFile(copy, before, { mode: 0o600 });
      await runEditor(copy);
      const after = await readFile(copy, 'utf8');
      if (after === before) {
        await rm(folder, { recursive: true, force: true });
        out(json ? JSON.stringify({ saved: false }) : 'no changes; nothing saved');
        return 0;
      }
      try {
        const written = await files.write(path, after, etag === undefined ? { ifNoneMatch: '*' } : { ifMatch: etag });
        await rm(folder, { recursive: true, force: true });
        out(json ? JSON.stringify({ saved: true, ...written }) : `saved ${path} (${written.size} bytes)`);
        return 0;
      } catch (error) {
        if (error instanceof ApiError && error.statusCode === 412) {
          process.stderr.write(`gsm: ${path} was changed on the server while you edited it; nothing was saved. Your version is in ${copy}\n`);
          return 1;
        }
        process.stderr.write(`gsm: your version is kept in ${copy}\n`);
        throw error;
      }
    }
  }
  return 2;
}
