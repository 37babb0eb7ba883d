/**
 * The agent as its own package (docs/agent.md#installing-it): agent/cli.ts and everything it imports (zod,
 * socket.io-client, pino, the shared schema) bundled by esbuild into one plain JavaScript file for Node.js 20 and
 * later, packed with agent/package.json, agent/README.md, the project's LICENSE and the bundled packages' licences as an npm tarball (`package/…`). The service serves it at
 * `GET /agent/package.tgz` (built once per process, on first use); `npm run pack:agent` writes it to a file.
 *
 * The install script the pasted line downloads is agent/install.sh, served as it is at `GET /agent/install.sh`; the line
 * carries its SHA-256.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { packageManifest, readPackageArchive } from '../schema/packageArchive.ts';

export type AgentPackage = { tgz: Buffer; version: string; sha256: string; fileName: string; bundleBytes: number };

/** A file of the agent's sources (bundled, not imported: the service does not run the agent). */
const agentFile = (path: string) => new URL(`../agent/${path}`, import.meta.url);

/**
 * The bundle: one ES module, with `require` for the CommonJS dependencies that use it for Node's built-ins; and the npm
 * packages bundled into it (from esbuild's metafile), whose licences must travel with the copy.
 */
async function bundle(): Promise<{ code: Buffer; packages: string[] }> {
  const result = await build({
    entryPoints: [fileURLToPath(agentFile('cli.ts'))],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    write: false,
    minify: true,
    keepNames: true, // readable stack traces
    // The bundled packages' licences ship whole in THIRD_PARTY_LICENSES.md instead of as scattered comments.
    legalComments: 'none',
    metafile: true,
    // Optional native helpers, each required inside try/catch, so the bundle runs on their pure JavaScript fallbacks:
    // ws's, and ssh2's (its crypto binding and cpu-features, used only to order ciphers by the CPU's features).
    external: ['bufferutil', 'utf-8-validate', 'cpu-features', '*.node'],
    banner: {
      // `__dirname` and `__filename` for the CommonJS dependencies that read them (ssh2's WebAssembly Poly1305 loader).
      js: "#!/usr/bin/env node\nimport { createRequire as __gsmCreateRequire } from 'node:module';\nimport { dirname as __gsmDirname } from 'node:path';\nimport { fileURLToPath as __gsmFileURLToPath } from 'node:url';\nconst require = __gsmCreateRequire(import.meta.url);\nconst __filename = __gsmFileURLToPath(import.meta.url);\nconst __dirname = __gsmDirname(__filename);",
    },
    logLevel: 'silent',
  });
  // The folder of each package an input comes from, nested ones included (`node_modules/a/node_modules/b/`).
  const packages = new Set<string>();
  for (const input of Object.keys(result.metafile.inputs)) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packages.add(match[1]!);
  }
  return { code: Buffer.from(result.outputFiles[0].contents), packages: [...packages].sort() };
}

/** Each bundled package's name, version, licence and licence text, as the MIT and similar licences ask of a copy. */
async function thirdPartyLicenses(folders: string[]): Promise<Buffer> {
  const sections: string[] = [];
  for (const path of folders) {
    // esbuild names inputs relative to the working directory it ran in.
    const folder = pathToFileURL(`${resolve(path)}/`);
    const manifest = JSON.parse(await readFile(new URL('package.json', folder), 'utf8')) as { name: string; version?: string; license?: string };
    const name = manifest.name;
    const files = await readdir(folder);
    const licenseFile = files.find((file) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(file));
    const text = licenseFile ? (await readFile(new URL(licenseFile, folder), 'utf8')).trim() : `Licensed under ${manifest.license ?? 'its own terms'}.`;
    sections.push(`## ${name} ${manifest.version ?? ''}\n\nLicence: ${manifest.license ?? 'see below'}\n\n\`\`\`\n${text}\n\`\`\`\n`);
  }
  return Buffer.from(`# Third-party licences\n\nThe agent's bundle (gsm-agent.mjs) contains these packages.\n\n${sections.join('\n')}`, 'utf8');
}

/** One ustar header block for a regular file. */
function tarHeader(name: string, size: number, mode: number): Buffer {
  const header = Buffer.alloc(512);
  const field = (value: string, offset: number, length: number) => header.write(value, offset, length, 'utf8');
  const octal = (value: number, offset: number, length: number) => field(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length);
  field(name, 0, 100);
  octal(mode, 100, 8);
  octal(0, 108, 8); // uid
  octal(0, 116, 8); // gid
  octal(size, 124, 12);
  octal(0, 136, 12); // mtime: fixed, so the same sources give the same tarball
  header.fill(' ', 148, 156); // checksum placeholder
  field('0', 156, 1); // regular file
  field('ustar\u000000', 257, 8);
  let sum = 0;
  for (const byte of header) sum += byte;
  field(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return header;
}

/** A gzip tarball of `files` (regular files only), in order. */
export function tarGz(files: { name: string; content: Buffer; mode: number }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const file of files) {
    blocks.push(tarHeader(file.name, file.content.length, file.mode), file.content);
    const padding = (512 - (file.content.length % 512)) % 512;
    if (padding > 0) blocks.push(Buffer.alloc(padding));
  }
  blocks.push(Buffer.alloc(1024)); // two empty blocks end the archive
  return gzipSync(Buffer.concat(blocks), { level: 9 });
}

async function make(): Promise<AgentPackage> {
  const manifest = await readFile(agentFile('package.json'));
  const version = (JSON.parse(manifest.toString('utf8')) as { version: string }).version;
  const { code, packages } = await bundle();
  const tgz = tarGz([
    { name: 'package/package.json', content: manifest, mode: 0o644 },
    { name: 'package/gsm-agent.mjs', content: code, mode: 0o755 },
    { name: 'package/README.md', content: await readFile(agentFile('README.md')), mode: 0o644 },
    { name: 'package/LICENSE', content: await readFile(new URL('../LICENSE', import.meta.url)), mode: 0o644 },
    { name: 'package/THIRD_PARTY_LICENSES.md', content: await thirdPartyLicenses(packages), mode: 0o644 },
  ]);
  return { tgz, version, sha256: createHash('sha256').update(tgz).digest('hex'), fileName: `gsm-agent-${version}.tgz`, bundleBytes: code.length };
}

let built: Promise<AgentPackage> | undefined;

/** The package a service serves: built from its own sources, or the prebuilt tarball `AGENT_PACKAGE_FILE` names. */
export type AgentPackageSource = {
  /** The package (built or read once per process). */
  get: () => Promise<AgentPackage>;
  /** Its version, without building it. */
  version: () => Promise<string>;
};

/** A prebuilt package read from `path`: a gsm-agent tarball with package.json and gsm-agent.mjs, or an error saying why not. */
async function readPackageFile(path: string): Promise<AgentPackage> {
  const tgz = await readFile(path);
  const entries = readPackageArchive(tgz);
  const { name, version } = packageManifest(entries);
  const bundle = entries.find((entry) => entry.name === 'gsm-agent.mjs');
  if (name !== 'gsm-agent' || !bundle) throw new Error(`AGENT_PACKAGE_FILE ${path} is not a gsm-agent package (package.json names ${name})`);
  return { tgz, version, sha256: createHash('sha256').update(tgz).digest('hex'), fileName: `gsm-agent-${version}.tgz`, bundleBytes: bundle.content.length };
}

/** The service's own version of the agent (agent/package.json), read once. */
let ownVersion: Promise<string> | undefined;

export function agentPackageSource(file: string | undefined): AgentPackageSource {
  if (!file) {
    return {
      get: buildAgentPackage,
      version: () => (ownVersion ??= readFile(agentFile('package.json'), 'utf8').then((manifest) => (JSON.parse(manifest) as { version: string }).version)),
    };
  }
  let read: Promise<AgentPackage> | undefined;
  const get = () =>
    (read ??= readPackageFile(file).catch((error: unknown) => {
      read = undefined;
      throw error;
    }));
  return { get, version: async () => (await get()).version };
}

/** The package, built once per process (concurrent first callers share the build; a failed build is tried again). */
export function buildAgentPackage(): Promise<AgentPackage> {
  built ??= make().catch((error: unknown) => {
    built = undefined;
    throw error;
  });
  return built;
}

/** Quotes `value` for a POSIX shell: single quotes, an embedded one closed, escaped and reopened. */
export const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** The SHA-256 of what an install line runs: the install script and the agent package it installs. */
export type InstallHashes = { script: string; package: string };

/** Whether `url` is plain http to somewhere other than this host (the code and the package cross the network in clear). */
export const exposedOnNetwork = (url: string) => {
  const { protocol, hostname } = new URL(url);
  return protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(hostname);
};

/**
 * The one line an operator pastes on the machine (POSIX sh; docs/agent.md#installing-it), or with no `code` the line
 * that upgrades an installed agent. It needs `sha256sum` and says so before doing anything. Everything else happens in
 * one root shell (sudo only when the shell is not root already: root-only hosts and containers have no sudo): the
 * script is downloaded into a fresh root-owned `mktemp -d /tmp/gsm.XXXXXX` directory (no other account can swap the
 * checked file for another before it runs; TMPDIR is not trusted), read through `sha256sum <` (no path to escape), and
 * run only if its SHA-256 is the one in the line; the script in turn installs the package only if its SHA-256 is the
 * one in the line. With an https URL curl refuses any other protocol, redirects included. The single-use code travels
 * on standard input (printf is a shell built-in, so it is in no process's command line); the directory is removed and
 * the line's exit status is the installer's.
 */
export function installCommand(publicUrl: string, code: string | null, hashes: InstallHashes): string {
  const url = publicUrl.replace(/\/+$/, '');
  const curl = url.startsWith('https:') ? 'curl --proto =https --proto-redir =https -fsSL' : 'curl -fsSL';
  const inner =
    'D="$(mktemp -d /tmp/gsm.XXXXXX)" || exit 1; trap "rm -rf $D" EXIT; trap "exit 1" HUP INT TERM; ' +
    `${curl} "$1/agent/install.sh" -o "$D/install.sh" || exit 1; ` +
    'if [ "$(sha256sum < "$D/install.sh" | cut -d" " -f1)" != "$2" ]; then ' +
    'echo "gsm-agent: error: the downloaded install script does not match the SHA-256 in this line; nothing was run" >&2; exit 1; fi; ' +
    `sh "$D/install.sh" --url "$1" --package-sha256 "$3"${code === null ? ' --upgrade' : ''}`;
  const noSha = shellQuote('gsm-agent: error: sha256sum is required (GNU coreutils) to check what this line downloads; nothing was run');
  return (
    `command -v sha256sum >/dev/null 2>&1 || { echo ${noSha} >&2; false; } && ` +
    (code === null ? '' : `printf '%s\\n' ${shellQuote(code)} | `) +
    `$([ "$(id -u)" = 0 ] || echo sudo) sh -c ${shellQuote(inner)} gsm-install ${shellQuote(url)} ${shellQuote(hashes.script)} ${shellQuote(hashes.package)}` +
    (code === null ? ' </dev/null' : '')
  );
}

/** The hashes an install line of this service pins (the script's and the package's, both built once per process). */
export async function installHashes(source: AgentPackageSource): Promise<InstallHashes> {
  const [script, pkg] = await Promise.all([installScript(), source.get()]);
  return { script: script.sha256, package: pkg.sha256 };
}

// `node api/agentPackage.ts [--out DIR]` (npm run pack:agent): writes the tarball and says what it wrote.
if (import.meta.url === `file://${process.argv[1]}`) {
  const outIndex = process.argv.indexOf('--out');
  const dir = resolve(outIndex > 0 ? process.argv[outIndex + 1] : '.');
  const pkg = await buildAgentPackage();
  const path = resolve(dir, pkg.fileName);
  await writeFile(path, pkg.tgz);
  process.stdout.write(`${path}\n${pkg.tgz.length} bytes (bundle ${pkg.bundleBytes} bytes)\nsha256 ${pkg.sha256}\n`);
}

let script: Promise<{ content: Buffer; sha256: string }> | undefined;

/** The install script (agent/install.sh) and its SHA-256, read once per process (the install line carries the hash). */
export function installScript(): Promise<{ content: Buffer; sha256: string }> {
  script ??= readFile(agentFile('install.sh')).then((content) => ({ content, sha256: createHash('sha256').update(content).digest('hex') }));
  return script;
}
