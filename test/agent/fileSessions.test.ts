/**
 * The agent's file helpers when a server's deny list changes (agent/files/fileSessions.ts, docs/agent.md#server-files):
 * the helpers are given the new list, so the next operations are checked against it (a session's own helper, as SFTP
 * has, included), while work under way finishes: an upload whose file is open, an extract checked at its start. Real
 * helpers running as a real account (a test prefix, removed afterwards) when root.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { FileOpError, type FileHelper } from '../../agent/files/fileHelper.ts';
import { FileSessions } from '../../agent/files/fileSessions.ts';
import { ustarBlock } from '../../agent/files/archiveFormats.ts';
import { Accounts } from '../../agent/servers/accounts.ts';
import { accountPrefix, isRoot, removeTestAccounts } from '../support/serverAccounts.ts';

const prefix = accountPrefix();
const SERVER_ID = randomUUID();
/** Entries of the archive extracted while the list changes: enough that the change lands while it runs. */
const ENTRIES = 2_000;

let dataDir: string;
let sessions: FileSessions;
/** The server's deny list, as the agent's configuration has it (changed by the tests, as a sync would). */
let deny: string[] = [];
const own: FileHelper[] = [];

test.before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gsm-file-sessions-'));
  await chmod(dataDir, 0o711);
  await mkdir(join(dataDir, 'servers'), { mode: 0o711 });
  sessions = new FileSessions({
    dataDir,
    accounts: new Accounts({ user: prefix, enabled: isRoot, dataDir }),
    denyListOf: (serverId) => (serverId === SERVER_ID ? deny : undefined),
  });
});

test.after.always(async () => {
  for (const helper of own) await helper.stop().catch(() => undefined);
  await sessions?.stopAll();
  await rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
  removeTestAccounts(prefix);
});

const text = async function* (value: string) {
  yield Buffer.from(value);
};

async function code(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => (error instanceof FileOpError ? error.code : String(error)),
  );
}

test.serial(
  'a new deny list applies to the next operations of the shared helper and of a session’s own; a file open meanwhile is written to its end',
  async (t) => {
    deny = [];
    const shared = await sessions.helperFor(SERVER_ID);
    const session = await sessions.sessionHelper(SERVER_ID);
    own.push(session);
    await shared.writeAtomic('/config.key', text('old\n'));
    t.is((await session.stat('/config.key')).size, 4);
    // An upload under way (the API's or SFTP's): its file is open and half written.
    const { handle } = await session.open('/upload.key', { write: true, create: true, truncate: true, atomic: true });
    await session.write(handle, 0, Buffer.from('first half, '));

    deny = ['*.key'];
    await sessions.denyListsChanged();

    t.is(await code(session.stat('/config.key')), 'DENIED', 'the session’s helper refuses the new list’s paths');
    t.is(await code(shared.stat('/config.key')), 'DENIED', 'the shared helper too');
    t.is(await code((await sessions.helperFor(SERVER_ID)).stat('/config.key')), 'DENIED');
    t.is(await sessions.helperFor(SERVER_ID), shared, 'the shared helper was kept, not replaced');
    t.true(shared.alive && session.alive);
    // The upload carries on and lands whole.
    await session.write(handle, 12, Buffer.from('second half\n'));
    await session.close(handle, { commit: true });
    t.is(await readFile(join(dataDir, 'servers', SERVER_ID, 'upload.key'), 'utf8'), 'first half, second half\n');

    deny = [];
    await sessions.denyListsChanged();
    t.is((await session.stat('/config.key')).size, 4, 'cleared: allowed again');
  },
);

test.serial('an extract under way when the list changes finishes under the list it was checked against; the next one is refused', async (t) => {
  deny = [];
  const helper = await sessions.helperFor(SERVER_ID);
  const entries: Buffer[] = [];
  for (let index = 0; index < ENTRIES; index++) {
    const data = Buffer.from(`${index}\n`);
    entries.push(ustarBlock(`data/f${index}.txt`, '0', data.length, 0o644, new Date()), data, Buffer.alloc(512 - data.length));
  }
  await helper.writeAtomic(
    '/data.tar.gz',
    (async function* () {
      yield gzipSync(Buffer.concat([...entries, Buffer.alloc(1024)]));
    })(),
  );

  let changed: Promise<void> | undefined;
  let runningWhenChanged: boolean | undefined;
  let finished = false;
  const extracted = helper
    .extract(
      '/data.tar.gz',
      '/',
      { maxBytes: 1 << 30, maxEntries: ENTRIES + 10 },
      {
        progress: () => {
          if (changed) return;
          deny = ['data/'];
          changed = sessions.denyListsChanged().then(() => {
            runningWhenChanged = !finished;
          });
        },
      },
    )
    .finally(() => (finished = true));
  const result = await extracted;
  await changed;
  t.true(runningWhenChanged, 'the list changed while the extract ran');
  t.is(result.entries, ENTRIES);
  t.is((await readdir(join(dataDir, 'servers', SERVER_ID, 'data'))).length, ENTRIES);
  t.is(await code(helper.stat('/data/f1.txt')), 'DENIED', 'what came after it is checked against the new list');
  t.is(await code(helper.extract('/data.tar.gz', '/', { maxBytes: 1 << 30, maxEntries: ENTRIES + 10 })), 'DENIED');
  t.true(helper.alive);
  deny = [];
  await sessions.denyListsChanged();
});

test.serial('a helper running a request longer than the idle time is not stopped under it', async (t) => {
  deny = [];
  const entries: Buffer[] = [];
  for (let index = 0; index < ENTRIES; index++) {
    const data = Buffer.from(`${index}\n`);
    entries.push(ustarBlock(`long/f${index}.txt`, '0', data.length, 0o644, new Date()), data, Buffer.alloc(512 - data.length));
  }
  await (
    await sessions.helperFor(SERVER_ID)
  ).writeAtomic(
    '/long.tar.gz',
    (async function* () {
      yield gzipSync(Buffer.concat([...entries, Buffer.alloc(1024)]));
    })(),
  );
  const idleMs = 300;
  const quick = new FileSessions({
    dataDir,
    accounts: new Accounts({ user: prefix, enabled: isRoot, dataDir }),
    denyListOf: (serverId) => (serverId === SERVER_ID ? deny : undefined),
    idleMs,
  });
  t.teardown(() => quick.stopAll());
  await quick.helperFor(SERVER_ID);
  // A request: the idle time starts again from here, and the extract is asked for at once.
  const helper = await quick.helperFor(SERVER_ID);
  let waited = false;
  const result = await helper.extract(
    '/long.tar.gz',
    '/',
    { maxBytes: 1 << 30, maxEntries: ENTRIES + 10 },
    {
      progress: () => {
        if (waited) return;
        waited = true;
        // The idle time passes while the extract runs (this process held up; the helper works on).
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, idleMs * 2);
      },
    },
  );
  t.true(waited);
  t.is(result.entries, ENTRIES);
  t.is((await readdir(join(dataDir, 'servers', SERVER_ID, 'long'))).length, ENTRIES);
});

test.serial('a request arriving while a measurement borrows the helper it started keeps that helper; none starts after stopAll', async (t) => {
  deny = [];
  const other = new FileSessions({
    dataDir,
    accounts: new Accounts({ user: prefix, enabled: isRoot, dataDir }),
    denyListOf: (serverId) => (serverId === SERVER_ID ? deny : undefined),
  });
  t.teardown(() => other.stopAll());
  let request: Promise<FileHelper> | undefined;
  // The measurement ends just as a request asks for the helper it started for itself.
  await other.borrow(SERVER_ID, async () => {
    request = other.helperFor(SERVER_ID);
    return 0;
  });
  const helper = await request!;
  t.true(helper.alive, 'the request took it: the measurement did not stop it');
  t.is((await helper.stat('/')).type, 'directory');
  // A session's helper still starting when the agent stops is stopped, not left serving.
  const starting = other.sessionHelper(SERVER_ID);
  await other.stopAll();
  t.is(await code(starting), 'HELPER_GONE');
});

test.serial('held for a transfer: helpers under way stop (an upload half written is never kept), none starts until released', async (t) => {
  deny = [];
  const shared = await sessions.helperFor(SERVER_ID);
  const session = await sessions.sessionHelper(SERVER_ID);
  own.push(session);
  const { handle } = await session.open('/late.key', { write: true, create: true, truncate: true, atomic: true });
  await session.write(handle, 0, Buffer.from('half'));
  await sessions.hold(SERVER_ID);
  t.true(sessions.held(SERVER_ID));
  t.false(shared.alive, 'the shared helper stopped');
  t.false(session.alive, 'the session’s own helper stopped');
  t.not(await code(session.close(handle, { commit: true })), undefined, 'the upload cannot end after the hold');
  t.false((await readdir(join(dataDir, 'servers', SERVER_ID))).includes('late.key'), 'nothing of it in place');
  t.is(await code(sessions.helperFor(SERVER_ID)), 'SERVER_BUSY');
  t.is(await code(sessions.sessionHelper(SERVER_ID)), 'SERVER_BUSY');
  t.like(await sessions.handle({ serverId: SERVER_ID, op: 'stat', path: '/' }), { error: { code: 'SERVER_BUSY' } }, 'the API’s file requests too');
  sessions.release(SERVER_ID);
  t.false(sessions.held(SERVER_ID));
  t.true((await sessions.helperFor(SERVER_ID)).alive);
});
