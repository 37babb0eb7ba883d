/**
 * `gsm files ls|get|put|rm|edit` as a user runs it (child processes) against the real service and agent: an upload
 * left unfinished by an earlier run is resumed (same upload, the rest of the bytes), a download resumes its part file
 * with Range, `edit` saves through $EDITOR with If-Match and refuses to overwrite a change made meanwhile.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile, mkdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { body, json } from '../support/app.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { startGatewayApp, type GatewayApp } from '../support/gateway.ts';
import { registerMachine, type AgentProcess } from '../support/agentProcess.ts';
import { startFilesAgent } from '../support/serverAccounts.ts';

const GSM = fileURLToPath(new URL('../../api/clients/typescript/bin/gsm.ts', import.meta.url));
let app: GatewayApp;
let owner: TestUser;
let agent: AgentProcess;
let home: string;
let serverId: string;
let serverDir: string;

test.before(async () => {
  app = await startGatewayApp({ heartbeatSeconds: 1 });
  owner = await signUp(app);
  home = await mkdtemp(join(tmpdir(), 'gsm-cli-files-'));
  const { clusterId, machineId, token } = await registerMachine(app, owner);
  ({ agent, serverId, serverDir } = await startFilesAgent(app, owner, { clusterId, machineId, token }));
});
test.after.always(async () => {
  await agent?.stop();
  await app?.close();
  await rm(home, { recursive: true, force: true });
});

function gsm(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  const child = spawn(process.execPath, [GSM, ...args], {
    cwd: home,
    env: { PATH: process.env.PATH, XDG_CONFIG_HOME: home, GSM_URL: app.url, GSM_TOKEN: owner.accessToken, ...env },
  });
  child.stdin.end();
  const out: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const timer = setTimeout(() => child.kill(), 60_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr });
    }),
  );
}

const files = (suffix = '') => `/api/v1/servers/${serverId}/files${suffix}`;

test.serial('put resumes an upload left unfinished; ls lists it; get downloads it', async (t) => {
  const bytes = randomBytes(3 * 1024 * 1024 + 17);
  const local = join(home, 'world.bin');
  await writeFile(local, bytes);
  const info = await stat(local);
  // An earlier run sent the first MiB and broke: its upload is remembered in the config directory.
  await app.request(files('/directories'), json({ path: '/world' }, { headers: owner.auth }));
  const started = await body(await app.request(files('/uploads'), json({ path: '/world/world.bin', size: bytes.length }, { headers: owner.auth })));
  const first = await app.request(files(`/uploads/${started.id}`), {
    method: 'PATCH',
    headers: { ...owner.auth, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: bytes.subarray(0, 1024 * 1024),
  });
  t.is((await body(first)).offset, 1024 * 1024);
  await mkdir(join(home, 'gsm'), { recursive: true });
  await writeFile(join(home, 'gsm', 'uploads.json'), JSON.stringify({ [`${serverId}:/world/world.bin:${local}:${info.size}:${info.mtimeMs}`]: started.id }));

  const put = await gsm(['files', 'put', serverId, local, '/world/world.bin', '--json']);
  t.is(put.code, 0, put.stderr);
  const done = JSON.parse(put.stdout.toString());
  t.is(done.id, started.id, 'the same upload went on');
  t.true(done.complete);
  t.true((await readFile(join(serverDir, 'world', 'world.bin'))).equals(bytes));
  t.deepEqual(JSON.parse(await readFile(join(home, 'gsm', 'uploads.json'), 'utf8')), {}, 'a finished upload is forgotten');

  // A new file uploads from the start.
  await writeFile(join(home, 'small.txt'), 'hello\n');
  const small = await gsm(['files', 'put', serverId, join(home, 'small.txt'), 'small.txt']);
  t.is(small.code, 0, small.stderr);
  t.regex(small.stdout.toString(), /uploaded 6 bytes to \/small\.txt/);

  const listed = await gsm(['files', 'ls', serverId, '/world']);
  t.is(listed.code, 0, listed.stderr);
  t.regex(listed.stdout.toString(), new RegExp(`^-0644\\s+${bytes.length}\\s+\\S+\\s+world\\.bin$`, 'm'));
  const root = JSON.parse((await gsm(['files', 'ls', serverId, '--json'])).stdout.toString()) as { name: string; type: string }[];
  t.like(
    root.find((entry) => entry.name === 'world'),
    { type: 'directory' },
  );

  const got = await gsm(['files', 'get', serverId, '/world/world.bin', 'copy.bin']);
  t.is(got.code, 0, got.stderr);
  t.true((await readFile(join(home, 'copy.bin'))).equals(bytes));
  const piped = await gsm(['files', 'get', serverId, 'small.txt', '-']);
  t.is(piped.stdout.toString(), 'hello\n');
});

test.serial('get resumes its part file with Range', async (t) => {
  const bytes = randomBytes(2 * 1024 * 1024);
  await writeFile(join(serverDir, 'big.bin'), bytes);
  const entry = await body(await app.request(`${files('/stat')}?path=/big.bin`, { headers: owner.auth }));
  const version = createHash('sha256').update(entry.etag).digest('hex').slice(0, 12);
  // An earlier run got the first 700,000 bytes (marked here, so that the test sees they were kept, not fetched again).
  const kept = Buffer.alloc(700_000, 0x58);
  await writeFile(join(home, `.resumed.bin.${version}.gsm-part`), kept);
  const got = await gsm(['files', 'get', serverId, 'big.bin', 'resumed.bin']);
  t.is(got.code, 0, got.stderr);
  const result = await readFile(join(home, 'resumed.bin'));
  t.is(result.length, bytes.length);
  t.true(result.subarray(0, kept.length).equals(kept), 'the part already there was kept');
  t.true(result.subarray(kept.length).equals(bytes.subarray(kept.length)), 'the rest came with Range');
});

test.serial('edit saves with If-Match; a change made meanwhile is not overwritten; rm', async (t) => {
  await writeFile(join(serverDir, 'server.properties'), 'motd=one\nmax-players=10\n');
  const editor = join(home, 'editor.sh');
  await writeFile(editor, 'sed -i "s/one/two/" "$1"\n');
  const edited = await gsm(['files', 'edit', serverId, 'server.properties'], { EDITOR: `sh ${editor}` });
  t.is(edited.code, 0, edited.stderr);
  t.regex(edited.stdout.toString(), /saved server\.properties/);
  t.is(await readFile(join(serverDir, 'server.properties'), 'utf8'), 'motd=two\nmax-players=10\n');
  const versions = await body(await app.request(`${files('/versions')}?path=/server.properties`, { headers: owner.auth }));
  t.is(versions.data.length, 1, 'kept in the config history');

  // Someone saves through the API while the editor is open.
  const racing = join(home, 'racing.sh');
  await writeFile(
    racing,
    `curl -s -o /dev/null -X PUT -H "authorization: Bearer $GSM_TOKEN" --data-binary 'motd=theirs' "$GSM_URL${files('/content')}?path=/server.properties"\n` +
      'sed -i "s/two/mine/" "$1"\n',
  );
  const refused = await gsm(['files', 'edit', serverId, 'server.properties'], { EDITOR: `sh ${racing}` });
  t.is(refused.code, 1);
  t.regex(refused.stderr, /changed on the server while you edited it; nothing was saved\. Your version is in (\S+)/);
  const kept = /Your version is in (\S+)/.exec(refused.stderr)![1]!;
  t.is(await readFile(kept, 'utf8'), 'motd=mine\nmax-players=10\n');
  t.is(await readFile(join(serverDir, 'server.properties'), 'utf8'), 'motd=theirs');

  const unchanged = await gsm(['files', 'edit', serverId, 'server.properties'], { EDITOR: 'true' });
  t.regex(unchanged.stdout.toString(), /no changes/);
  await app.request(files('/directories'), json({ path: '/config' }, { headers: owner.auth }));
  const created = await gsm(['files', 'edit', serverId, 'config/new.yml'], { EDITOR: `sh -c 'echo "a: 1" > "$0"'` });
  t.is(created.code, 0, created.stderr);
  t.is(await readFile(join(serverDir, 'config', 'new.yml'), 'utf8'), 'a: 1\n');

  t.is((await gsm(['files', 'rm', serverId, 'world'])).code, 1, 'a directory that is not empty needs --recursive');
  const removed = await gsm(['files', 'rm', serverId, 'world', '--recursive']);
  t.is(removed.code, 0, removed.stderr);
  await t.throwsAsync(stat(join(serverDir, 'world')));
  t.is((await gsm(['files', 'frobnicate', serverId])).code, 2);
});
