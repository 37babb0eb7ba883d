/**
 * The agent's self-upgrade safeguards, unit by unit: what the package archive reader refuses, the https/wss rule, the
 * engines.node check, the download limit enforced while streaming, and the startup check that finishes a cut swap or
 * puts the previous agent back and removes the staging folders an interrupted upgrade left.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { download, insecureUpgradeRefusal, installStaged, parentProblem, satisfiesEngine, startupCheck } from '../../agent/selfInstall/upgrade.ts';
import { packageManifest, readPackageArchive } from '../../schema/packageArchive.ts';

const execFileAsync = promisify(execFile);

/** One ustar entry (header and padded content). */
function entry(name: string, content = '', type = '0'): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, 'utf8');
  header.write('0000644\0', 100);
  header.write(`${Buffer.byteLength(content).toString(8).padStart(11, '0')}\0`, 124);
  header.write(type, 156);
  header.write('ustar\0', 257);
  const body = Buffer.alloc(Math.ceil(Buffer.byteLength(content) / 512) * 512);
  body.write(content);
  return Buffer.concat([header, body]);
}
const archive = (...entries: Buffer[]) => gzipSync(Buffer.concat([...entries, Buffer.alloc(1024)]));
const manifest = (extra: object = {}) => entry('package/package.json', JSON.stringify({ name: 'gsm-agent', version: '1.2.3', ...extra }));

test('the package archive: regular files under package/ are read with the manifest and its engines', (t) => {
  const entries = readPackageArchive(archive(manifest({ engines: { node: '>=20' } }), entry('package/gsm-agent.mjs', 'x')));
  t.deepEqual(
    entries.map((each) => each.name),
    ['package.json', 'gsm-agent.mjs'],
  );
  t.deepEqual(packageManifest(entries), { name: 'gsm-agent', version: '1.2.3', engines: { node: '>=20' } });
});

test('the package archive refuses symbolic links, hard links, pax headers, ../ and names outside package/', (t) => {
  t.throws(() => readPackageArchive(archive(manifest(), entry('package/link', '', '2'))), { message: /not a regular file/ });
  t.throws(() => readPackageArchive(archive(manifest(), entry('package/hard', '', '1'))), { message: /not a regular file/ });
  t.throws(() => readPackageArchive(archive(entry('PaxHeader/x', '30 path=package/../../etc/x\n', 'x'), manifest())), { message: /not a regular file/ });
  t.throws(() => readPackageArchive(archive(entry('pax_global_header', '', 'g'))), { message: /not a regular file/ });
  t.throws(() => readPackageArchive(archive(manifest(), entry('package/../evil.mjs', 'x'))), { message: /outside package/ });
  t.throws(() => readPackageArchive(archive(manifest(), entry('other/gsm-agent.mjs', 'x'))), { message: /outside package/ });
  t.throws(() => readPackageArchive(archive(manifest(), entry('/etc/passwd', 'x'))), { message: /outside package/ });
  t.throws(() => readPackageArchive(Buffer.from('not gzip')), { message: /not a gzip archive/ });
  t.throws(() => packageManifest(readPackageArchive(archive(entry('package/package.json', '{not json')))), { message: /not JSON/ });
});

test('self-upgrade only over https/wss, loopback excepted', (t) => {
  t.is(insecureUpgradeRefusal('wss://gsm.example.com', 'https://gsm.example.com/agent/package.tgz'), null);
  t.is(insecureUpgradeRefusal('ws://127.0.0.1:3000', 'http://127.0.0.1:3000/agent/package.tgz'), null);
  t.is(insecureUpgradeRefusal('ws://localhost:3000', 'http://[::1]:3000/agent/package.tgz'), null);
  t.regex(insecureUpgradeRefusal('ws://gsm.example.com', 'https://gsm.example.com/agent/package.tgz')!, /connection to the service .* is not https\/wss/);
  t.regex(insecureUpgradeRefusal('wss://gsm.example.com', 'http://cdn.example.com/p.tgz')!, /package URL .* is not https\/wss/);
});

test("engines.node: the new agent's range is checked against this Node.js", (t) => {
  t.true(satisfiesEngine('22.15.0', '>=20'));
  t.true(satisfiesEngine('20.1.0', '^20.0.0 || >=22'));
  t.false(satisfiesEngine('20.1.0', '>=22'));
  t.false(satisfiesEngine('21.0.0', '^20.0.0 || >=22'));
  t.true(satisfiesEngine('24.0.0', '>=20 <25'));
  t.false(satisfiesEngine('25.0.0', '>=20 <25'));
  t.true(satisfiesEngine('20.9.1', '~20.9'));
  t.throws(() => satisfiesEngine('20.0.0', 'node-lts'), { message: /cannot read engines.node/ });
});

test('the download stops as soon as it passes the size limit (no length announced)', async (t) => {
  let sent = 0;
  const server = createServer((_request, response) => {
    const chunk = Buffer.alloc(64 * 1024);
    const more = () => {
      while (sent < 64 * 1024 * 1024 && response.write(chunk)) sent += chunk.length;
      if (sent < 64 * 1024 * 1024) response.once('drain', more);
      else response.end();
    };
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/p.tgz`;
  await t.throwsAsync(download(url, 1024 * 1024), { message: /larger than 1048576 bytes/ });
  t.true(sent < 64 * 1024 * 1024, `the server sent ${sent} bytes`);
});

async function installedLayout(t: { teardown: (f: () => Promise<void>) => void }) {
  const root = await mkdtemp(join(tmpdir(), 'gsm-selfupgrade-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const prefix = join(root, 'gsm-agent');
  await mkdir(prefix);
  await writeFile(join(prefix, 'gsm-agent.mjs'), 'old');
  const staged = join(root, 'gsm-agent.new.1');
  await mkdir(staged);
  await writeFile(join(staged, 'gsm-agent.mjs'), 'new');
  return { prefix, staged };
}

test('the previous package stays until confirmed; a new agent that never reaches the service is rolled back', async (t) => {
  const { prefix, staged } = await installedLayout(t);
  await installStaged({ version: '1.2.3', prefix, staged }, '1.2.2');
  t.is(await readFile(join(prefix, 'gsm-agent.mjs'), 'utf8'), 'new');
  t.is(await readFile(join(`${prefix}.old`, 'gsm-agent.mjs'), 'utf8'), 'old');
  for (let start = 1; start <= 3; start++) t.is((await startupCheck(prefix)).state, 'pending');
  const fourth = await startupCheck(prefix);
  t.is(fourth.state, 'rollback');
  t.regex(fourth.note!, /started 3 times without reaching the service/);
  t.is(await readFile(join(prefix, 'gsm-agent.mjs'), 'utf8'), 'old');
  t.false(existsSync(`${prefix}.old`));
  t.is((await startupCheck(prefix)).state, 'none');
});

test('a swap cut between its two renames is undone at startup', async (t) => {
  const { prefix, staged } = await installedLayout(t);
  await installStaged({ version: '1.2.3', prefix, staged }, '1.2.2');
  await rm(prefix, { recursive: true }); // as if the second rename never happened
  const check = await startupCheck(prefix);
  t.is(check.state, 'rollback');
  t.is(await readFile(join(prefix, 'gsm-agent.mjs'), 'utf8'), 'old');
});

test('nothing beside a package in a folder others may write is put in its place: no rollback, no upgrade', async (t) => {
  const { prefix, staged } = await installedLayout(t);
  t.is(await parentProblem(prefix), null);
  await installStaged({ version: '1.2.3', prefix, staged }, '1.2.2');
  // Someone else may now write beside the package (its .old, its marker): the agent no longer acts on those names.
  await chmod(dirname(prefix), 0o777);
  t.regex((await parentProblem(prefix))!, /may be written by other users/);
  for (let start = 1; start <= 4; start++) t.is((await startupCheck(prefix)).state, 'none');
  t.is(await readFile(join(prefix, 'gsm-agent.mjs'), 'utf8'), 'new', 'the package in place was left as it is');
});

test('staging folders an interrupted upgrade left are removed at startup; nothing else that looks like one', async (t) => {
  const { prefix } = await installedLayout(t);
  const parent = dirname(prefix);
  // What stageUpgrade leaves when the agent stops while it unpacks: mkdtemp's folder, partly filled.
  const left = await mkdtemp(`${prefix}.staging.`);
  await writeFile(join(left, 'gsm-agent.mjs'), 'half');
  const another = await mkdtemp(`${prefix}.staging.`);
  // The install script's own folder (`<prefix>.new.<pid>`, six digits for many a pid), maybe being filled right now.
  await mkdir(`${prefix}.new.123456`);
  // Not the agent's: a link of the same shape, a plain file, a folder of another user, other names (the layout's own
  // gsm-agent.new.1 among them).
  const outside = await mkdtemp(join(tmpdir(), 'gsm-outside-'));
  t.teardown(() => rm(outside, { recursive: true, force: true }));
  await writeFile(join(outside, 'keep'), 'keep');
  await symlink(outside, `${prefix}.staging.LINK01`);
  await writeFile(`${prefix}.staging.FILE01`, 'file');
  await mkdir(`${prefix}.staging.USER01`);
  await chown(`${prefix}.staging.USER01`, 65534, 65534);
  await mkdir(`${prefix}.staging.toolong`);
  await mkdir(join(parent, 'other.staging.ABCDEF'));

  const check = await startupCheck(prefix);
  t.is(check.state, 'none');
  t.deepEqual(check.swept?.sort(), [basename(left), basename(another)].sort());
  t.false(existsSync(left));
  t.false(existsSync(another));
  t.deepEqual((await readdir(parent)).sort(), [
    'gsm-agent',
    'gsm-agent.new.1',
    'gsm-agent.new.123456',
    'gsm-agent.staging.FILE01',
    'gsm-agent.staging.LINK01',
    'gsm-agent.staging.USER01',
    'gsm-agent.staging.toolong',
    'other.staging.ABCDEF',
  ]);
  t.is(await readFile(join(outside, 'keep'), 'utf8'), 'keep', 'a link is never followed');
  t.is(await readFile(join(prefix, 'gsm-agent.mjs'), 'utf8'), 'old');
  t.is((await startupCheck(prefix)).swept, undefined, 'nothing left to remove');

  // In a folder others may write, nothing is removed (the names there are not the agent's).
  const later = await mkdtemp(`${prefix}.staging.`);
  await chmod(parent, 0o777);
  t.is((await startupCheck(prefix)).swept, undefined);
  t.true(existsSync(later));
});

test('a staging folder that cannot be removed does not turn off the check of the last upgrade', async (t) => {
  const { prefix, staged } = await installedLayout(t);
  await installStaged({ version: '1.2.3', prefix, staged }, '1.2.2');
  // A leftover even root cannot remove (immutable): its removal fails.
  const stuck = await mkdtemp(`${prefix}.staging.`);
  await writeFile(join(stuck, 'gsm-agent.mjs'), 'half');
  await execFileAsync('chattr', ['+i', stuck]);
  t.teardown(() => execFileAsync('chattr', ['-i', stuck]).then(() => undefined));
  const check = await startupCheck(prefix);
  t.is(check.state, 'pending', 'the new agent is still on probation');
  t.truthy(check.sweepError);
  t.true(existsSync(stuck));
});
