/**
 * The agent package's archive: an npm tarball (ustar in gzip) whose files sit under `package/`. Read by the agent when
 * it upgrades itself (agent/selfUpgrade/) and by the service when it serves a prebuilt package (AGENT_PACKAGE_FILE).
 * Regular files only; anything else in the archive is refused, as are names that leave `package/`.
 */
import { gunzipSync } from 'node:zlib';

export type ArchiveEntry = { name: string; mode: number; content: Buffer };

/** The archive is larger than an agent package could be (its bundle is a few MB). */
const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;

const text = (block: Buffer, offset: number, length: number) =>
  block
    .subarray(offset, offset + length)
    .toString('utf8')
    .replace(/\0.*$/s, '');
const octal = (block: Buffer, offset: number, length: number) => Number.parseInt(text(block, offset, length).trim() || '0', 8);

/** The files of a package tarball, in order; throws with what is wrong on anything else. */
export function readPackageArchive(tgz: Buffer): ArchiveEntry[] {
  let tar: Buffer;
  try {
    tar = gunzipSync(tgz, { maxOutputLength: MAX_UNPACKED_BYTES });
  } catch {
    throw new Error('the package is not a gzip archive (or unpacks to more than 256 MB)');
  }
  const entries: ArchiveEntry[] = [];
  for (let offset = 0; offset + 512 <= tar.length;) {
    const header = tar.subarray(offset, offset + 512);
    const name = `${text(header, 345, 155) ? `${text(header, 345, 155)}/` : ''}${text(header, 0, 100)}`;
    if (name === '') break;
    const size = octal(header, 124, 12);
    const type = text(header, 156, 1) || '0';
    if (!Number.isSafeInteger(size) || offset + 512 + size > tar.length) throw new Error(`the package's entry ${name} is cut short`);
    if (type !== '0') throw new Error(`the package's entry ${name} is not a regular file`);
    if (!name.startsWith('package/') || name.split('/').some((part) => part === '..' || part === ''))
      throw new Error(`the package's entry ${name} is outside package/`);
    entries.push({
      name: name.slice('package/'.length),
      mode: octal(header, 100, 8) & 0o777,
      content: Buffer.from(tar.subarray(offset + 512, offset + 512 + size)),
    });
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

/** The package's name and version (its package.json); throws when it has none. */
export function packageManifest(entries: ArchiveEntry[]): { name: string; version: string; engines?: { node?: string } } {
  const manifest = entries.find((entry) => entry.name === 'package.json');
  if (!manifest) throw new Error('the package has no package.json');
  let parsed: { name?: unknown; version?: unknown; engines?: { node?: unknown } };
  try {
    parsed = JSON.parse(manifest.content.toString('utf8')) as typeof parsed;
  } catch {
    throw new Error("the package's package.json is not JSON");
  }
  if (typeof parsed?.name !== 'string' || typeof parsed.version !== 'string') throw new Error("the package's package.json has no name or version");
  const node = parsed.engines?.node;
  return { name: parsed.name, version: parsed.version, ...(typeof node === 'string' ? { engines: { node } } : {}) };
}
