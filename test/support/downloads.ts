/**
 * A local HTTP server for the files installs download (no internet here, and none needed): a Minecraft version
 * manifest with its version documents and jars, and a fake SteamCMD tarball whose `steamcmd.sh` prints SteamCMD's
 * progress lines and "installs" an app by writing files into `+force_install_dir`.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile, chmod, mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';

export type DownloadServer = {
  url: string;
  /** Serves `body` at `path` (replacing what was there). */
  put: (path: string, body: Buffer | string) => void;
  /** The next `count` requests of `path` answer `status`. */
  failNext: (path: string, count: number, status: number) => void;
  /** Requests seen, by path. */
  hits: Map<string, number>;
  close: () => Promise<void>;
};

export async function startDownloadServer(): Promise<DownloadServer> {
  const files = new Map<string, Buffer>();
  const failures = new Map<string, { count: number; status: number }>();
  const hits = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const failure = failures.get(path);
    if (failure && failure.count > 0) {
      failure.count -= 1;
      response.writeHead(failure.status).end('failing on purpose');
      return;
    }
    const file = files.get(path);
    if (!file) return void response.writeHead(404).end('not found');
    response.writeHead(200, { 'content-length': file.length, 'content-type': 'application/octet-stream' }).end(file);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    put: (path, body) => void files.set(path, Buffer.isBuffer(body) ? body : Buffer.from(body)),
    failNext: (path, count, status) => void failures.set(path, { count, status }),
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const sha1 = (data: Buffer | string) => createHash('sha1').update(data).digest('hex');

/** A fake server jar: its text names its version (the `java` stand-in prints it). */
export const fakeJar = (version: string) => Buffer.from(`fake minecraft server ${version}\n${'x'.repeat(4096)}\n`);

/**
 * Serves a Mojang-shaped manifest (`/mc/version_manifest_v2.json`) listing `versions` (the last is the latest
 * release), each version's document and its jar. `wrongSha1` lists versions whose document announces a wrong jar SHA-1.
 */
export function serveMinecraft(downloads: DownloadServer, versions: string[], options: { wrongSha1?: string[] } = {}): string {
  const entries = versions.map((id) => {
    const jar = fakeJar(id);
    downloads.put(`/mc/jars/${id}/server.jar`, jar);
    const document = JSON.stringify({
      id,
      downloads: {
        server: { url: `${downloads.url}/mc/jars/${id}/server.jar`, sha1: options.wrongSha1?.includes(id) ? sha1('not it') : sha1(jar), size: jar.length },
      },
    });
    downloads.put(`/mc/versions/${id}.json`, document);
    return { id, type: 'release', url: `${downloads.url}/mc/versions/${id}.json`, sha1: sha1(document) };
  });
  downloads.put(
    '/mc/version_manifest_v2.json',
    JSON.stringify({ latest: { release: versions.at(-1), snapshot: versions.at(-1) }, versions: [...entries].reverse() }),
  );
  return `${downloads.url}/mc/version_manifest_v2.json`;
}

/**
 * A SteamCMD tarball (`/steamcmd_linux.tar.gz`) whose steamcmd.sh, like the real one, takes `+force_install_dir <dir>
 * +login anonymous +app_update <id> validate +quit`, or the same commands from a file (`+runscript <file>`, one a line,
 * without the `+`), prints `Update state (0x61) downloading, progress: …` lines and `Success! App '<id>' fully
 * installed.`, and writes `<dir>/installed-app-<id>.txt` (with the user it ran as, and for a script its mode; with a
 * beta password, whether any process's command line held it then). It fails (`Error! App … state is 0x6 after update
 * job.`) while the file `fail-count` in its own directory holds a number greater than 0, counting it down.
 */
export async function serveSteamcmd(downloads: DownloadServer, options: { failures?: number; diskFull?: boolean } = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-steamcmd-'));
  try {
    await mkdir(join(dir, 'linux32'));
    const script = `#!/bin/sh
here=$(cd "$(dirname "$0")" && pwd)
dir=""; app=""; beta=""; script=""
while [ $# -gt 0 ]; do
  case "$1" in
    +force_install_dir) dir="$2"; shift ;;
    +app_update) app="$2"; shift ;;
    -betapassword) beta="$2"; shift ;;
    +runscript) script="$2"; shift ;;
  esac
  shift
done
if [ -n "$script" ]; then
  while IFS= read -r line; do
    set -f; set -- $line; set +f
    case "$1" in
      force_install_dir) dir=$(printf '%s' "$line" | cut -d' ' -f2- | tr -d '"') ;;
      app_update)
        app="$2"
        while [ $# -gt 0 ]; do [ "$1" = -betapassword ] && beta="$2"; shift; done ;;
    esac
  done < "$script"
fi
echo "Redirecting stderr to '$HOME/Steam/logs/stderr.txt'"
echo "Logging in user 'anonymous' to Steam Public..."
echo "Waiting for user info...OK"
${options.diskFull ? `echo "Error! App '$app' state is 0x202 after update job."; exit 8` : ''}
fails=$(cat "$here/fail-count" 2>/dev/null || echo 0)
if [ "$fails" -gt 0 ]; then
  echo $((fails - 1)) > "$here/fail-count"
  echo " Update state (0x61) downloading, progress: 3.10 (31 / 1000)"
  echo "Error! App '$app' state is 0x6 after update job."
  exit 8
fi
for p in 10.00 45.50 99.00; do
  echo " Update state (0x61) downloading, progress: $p ($p / 100)"
  sleep 1.1
done
echo " Update state (0x81) verifying update, progress: 100.00 (100 / 100)"
mkdir -p "$dir" && echo "app $app installed by $(id -un)" > "$dir/installed-app-$app.txt"
[ -n "$script" ] && echo "runscript mode $(stat -c %a "$script")" >> "$dir/installed-app-$app.txt"
if [ -n "$beta" ]; then
  # The password as a pattern file (printf is the shell's own): no command line of this check holds it.
  printf '%s\n' "$beta" > "$here/beta-pattern"
  if grep -qsFf "$here/beta-pattern" /proc/[0-9]*/cmdline; then where="on a command line"; else where="on no command line"; fi
  rm -f "$here/beta-pattern"
  echo "beta password $where" >> "$dir/installed-app-$app.txt"
fi
echo "Success! App '$app' fully installed."
`;
    await writeFile(join(dir, 'steamcmd.sh'), script);
    await chmod(join(dir, 'steamcmd.sh'), 0o755);
    await writeFile(join(dir, 'fail-count'), String(options.failures ?? 0));
    await tar.c({ gzip: true, cwd: dir, file: join(dir, '..', `${dir.split('/').pop()}.tar.gz`), portable: true }, ['steamcmd.sh', 'fail-count', 'linux32']);
    const tarball = await readFile(join(dir, '..', `${dir.split('/').pop()}.tar.gz`));
    await rm(join(dir, '..', `${dir.split('/').pop()}.tar.gz`), { force: true });
    downloads.put('/steamcmd_linux.tar.gz', tarball);
    return `${downloads.url}/steamcmd_linux.tar.gz`;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
