/**
 * The MINECRAFT recipe (docs/installs-and-backups.md): the server jar of the server's `version` (a release or snapshot
 * id; `latest` or none: the latest release) from the version manifest, checked by the SHA-1 the manifest gives for
 * the version's own document and for the jar, then put in place as `server.jar`. An installed jar with the right
 * SHA-1 is kept (an UPDATE to the version already there downloads nothing). `eula.txt` says `eula=true` only when the
 * server's configuration has `acceptEula`: accepting Mojang's EULA is the operator's decision, not the agent's.
 */
import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { writeGameFile } from '../servers/gameFiles.ts';
import { download, fetchJson, InstallError, type DownloadOptions } from './download.ts';
import type { InstallContext } from './context.ts';

/** Mojang's version manifest (v2: each version with the SHA-1 of its document). */
export const DEFAULT_MANIFEST_URL = 'https://piston-meta.mojang.com/mc/game/version_manifest_v2.json';

const sha1 = z.string().regex(/^[0-9a-f]{40}$/i);
const manifest = z.object({
  latest: z.object({ release: z.string(), snapshot: z.string().optional() }),
  versions: z.array(z.object({ id: z.string(), type: z.string().optional(), url: z.string(), sha1: sha1.optional() })),
});
const versionDocument = z.object({
  downloads: z.object({ server: z.object({ url: z.string(), sha1, size: z.number().int().nonnegative().optional() }).optional() }),
});

/** The SHA-1 of a regular file in the server's directory (never through a link), or undefined when there is none. */
async function fileSha1(path: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.nlink > 1) return undefined;
    const hash = createHash('sha1');
    await pipeline(createReadStream('', { fd: handle, autoClose: false }), hash);
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
}

/** Installs or updates the jar; answers the version installed. */
export async function installMinecraft(context: InstallContext): Promise<{ version: string; message: string }> {
  const { dir, stagingDir, account, signal } = context;
  const retry: DownloadOptions = { signal, retries: context.retries, backoffMs: context.backoffMs };
  context.progress(null, 'reading the version manifest');
  const parsedManifest = manifest.safeParse(await fetchJson(context.manifestUrl, retry));
  if (!parsedManifest.success) throw new InstallError('DOWNLOAD_FAILED', `${context.manifestUrl} is not a Minecraft version manifest`);
  const wanted = !context.version || context.version === 'latest' ? parsedManifest.data.latest.release : context.version;
  const entry = parsedManifest.data.versions.find((candidate) => candidate.id === wanted);
  if (!entry) throw new InstallError('VERSION_NOT_FOUND', `Minecraft ${wanted} is not in the version manifest`);

  await mkdir(stagingDir, { recursive: true, mode: 0o700 });
  const documentFile = join(stagingDir, 'version.json');
  await download(entry.url, documentFile, { ...retry, ...(entry.sha1 ? { sha1: entry.sha1 } : {}) });
  const parsedDocument = versionDocument.safeParse(JSON.parse(await readFile(documentFile, 'utf8')));
  await rm(documentFile, { force: true });
  if (!parsedDocument.success) throw new InstallError('DOWNLOAD_FAILED', `the document of Minecraft ${wanted} is not valid`);
  const server = parsedDocument.data.downloads.server;
  if (!server) throw new InstallError('NOT_INSTALLABLE', `Minecraft ${wanted} has no server download`);

  const jar = join(dir, 'server.jar');
  let message: string;
  if ((await fileSha1(jar)) === server.sha1.toLowerCase()) {
    message = `Minecraft ${wanted} is already installed`;
  } else {
    const staged = join(stagingDir, 'server.jar');
    await download(server.url, staged, {
      ...retry,
      sha1: server.sha1,
      ...(server.size === undefined ? {} : { size: server.size }),
      onProgress: (received, total) => context.progress(total ? Math.min(99, Math.floor((received / total) * 100)) : null, `downloading server.jar`),
    });
    if (account) {
      // The staged file is the agent's own (in root's staging directory), changed through its descriptor all the same.
      const handle = await open(staged, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        if ((await handle.stat()).nlink > 1) throw new InstallError('INSTALL_FAILED', 'the downloaded server.jar has more than one hard link');
        await handle.chown(account.uid, account.gid);
      } finally {
        await handle.close();
      }
    }
    // One rename: the old jar stays whole until the checked new one replaces it.
    await rename(staged, jar);
    message = `installed Minecraft ${wanted}`;
  }
  if (context.acceptEula)
    await writeGameFile(join(dir, 'eula.txt'), '# Accepted by the operator (acceptEula) through the game server manager\neula=true\n', account);
  return { version: wanted, message };
}
