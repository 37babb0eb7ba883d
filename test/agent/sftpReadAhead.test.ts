import test from 'ava';
import { randomBytes } from 'node:crypto';
import { BLOCK_BYTES, FRESH_MS, ReadAheadSession, SESSION_BLOCKS } from '../../agent/sftp/readAhead.ts';

const READ = 32 * 1024;

/** A file held in memory, read as the helper reads (short at the end, empty past it), counting its reads. */
function fileOf(initial: Buffer) {
  const file = { bytes: initial, reads: 0, fail: false };
  const readBytes = async (position: number, length: number) => {
    file.reads++;
    await new Promise((resolve) => setImmediate(resolve));
    if (file.fail) throw Object.assign(new Error('the kernel refused'), { code: 'PERMISSION' });
    return Buffer.from(file.bytes.subarray(position, position + length));
  };
  return { file, readBytes };
}

/**
 * OpenSSH's `get`: READs of 32 KiB at increasing offsets up to the size it was told (`size`), `window` of them in
 * flight, until one answers nothing.
 */
async function get(read: (position: number, length: number) => Promise<Buffer>, size: number, window = 64): Promise<Buffer> {
  const pieces = new Map<number, Buffer>();
  let next = 0;
  let ended = false;
  const worker = async () => {
    while (!ended && next <= size) {
      const position = next;
      next += READ;
      const data = await read(position, READ);
      if (data.length === 0) ended = true;
      else pieces.set(position, data);
    }
  };
  await Promise.all(Array.from({ length: window }, worker));
  return Buffer.concat([...pieces.keys()].sort((a, b) => a - b).map((position) => pieces.get(position)!));
}

test('a sequential reader gets the same bytes with one helper read per block instead of one per READ', async (t) => {
  const { file, readBytes } = fileOf(randomBytes(4 * BLOCK_BYTES + 100));
  const reader = new ReadAheadSession().reader('/f', readBytes);
  const size = file.bytes.length;
  const got = await get((position, length) => reader.read(position, length), size);
  t.true(got.equals(file.bytes));
  const reads = file.reads;
  // Four full blocks and the short fifth, whose 100 bytes answer the last READ.
  t.is(reads, 4 + 1);
  // Without read-ahead: one per READ.
  const direct = fileOf(file.bytes);
  t.true((await get(direct.readBytes, size)).equals(file.bytes));
  t.is(direct.file.reads, 33);
  t.log(`helper reads: ${reads} with read-ahead, ${direct.file.reads} without`);
  // One at a time: 4 blocks, the short fifth, then direct reads beyond what it saw.
  const one = fileOf(file.bytes);
  const single = new ReadAheadSession().reader('/f', one.readBytes);
  t.true((await get((position, length) => single.read(position, length), size, 1)).equals(file.bytes));
  t.is(one.file.reads, 4 + 1);
  // A file of 100 bytes: one read, as without read-ahead (whose second READ, past the end, both make).
  const small = fileOf(randomBytes(100));
  const smallReader = new ReadAheadSession().reader('/s', small.readBytes);
  t.true((await get((position, length) => smallReader.read(position, length), 100, 1)).equals(small.file.bytes));
  t.is(small.file.reads, 1);
});

test('READs out of order, or spanning two blocks, are read directly', async (t) => {
  const { file, readBytes } = fileOf(randomBytes(2 * BLOCK_BYTES));
  const reader = new ReadAheadSession().reader('/f', readBytes);
  t.true((await reader.read(BLOCK_BYTES, READ)).equals(file.bytes.subarray(BLOCK_BYTES, BLOCK_BYTES + READ)));
  t.true((await reader.read(5000, READ)).equals(file.bytes.subarray(5000, 5000 + READ)));
  t.true((await reader.read(BLOCK_BYTES - 10, READ)).equals(file.bytes.subarray(BLOCK_BYTES - 10, BLOCK_BYTES - 10 + READ)));
  t.is(file.reads, 3);
  t.is(reader.helperReads, 3);
});

test('a block is used for FRESH_MS at most, a WRITE to its path drops it (not one to another path), and a file that grew is read as it is now', async (t) => {
  let now = 0;
  const { file, readBytes } = fileOf(Buffer.alloc(BLOCK_BYTES, 1));
  const session = new ReadAheadSession();
  const reader = session.reader('/f', readBytes, () => now);
  t.is((await reader.read(0, READ))[0], 1);
  file.bytes = Buffer.alloc(BLOCK_BYTES, 2);
  t.is((await reader.read(READ, READ))[0], 1, 'within FRESH_MS the block answers');
  now += FRESH_MS + 1;
  t.is((await reader.read(2 * READ, READ))[0], 2, 'an old block is read again');
  file.bytes = Buffer.alloc(BLOCK_BYTES, 3);
  session.changed('/other');
  t.is((await reader.read(3 * READ, READ))[0], 2, 'a WRITE to another path keeps the blocks');
  session.changed('/f');
  t.is((await reader.read(4 * READ, READ))[0], 3, 'a WRITE to the path drops them');
  // A short block (the file ended there), then the file grows: READs beyond what the block saw read the file now.
  const growing = fileOf(Buffer.alloc(100, 4));
  const tail = session.reader('/g', growing.readBytes, () => now);
  t.is((await tail.read(0, READ)).length, 100);
  growing.file.bytes = Buffer.concat([growing.file.bytes, Buffer.alloc(READ, 5)]);
  const more = await tail.read(READ, READ);
  t.is(more.length, 100);
  t.is(more[0], 5);
});

test('a session holds at most SESSION_BLOCKS blocks across its handles; beyond, READs are read directly', async (t) => {
  const { file, readBytes } = fileOf(randomBytes(BLOCK_BYTES));
  const session = new ReadAheadSession();
  const readers = Array.from({ length: SESSION_BLOCKS + 4 }, () => session.reader('/f', readBytes));
  for (const reader of readers) t.true((await reader.read(0, READ)).equals(file.bytes.subarray(0, READ)));
  t.is(session.held, SESSION_BLOCKS);
  for (const reader of readers.slice(0, 4)) session.forget(reader);
  t.is(session.held, SESSION_BLOCKS - 4);
  session.clear();
  t.is(session.held, 0);
});

test('a block that fails is dropped and the READ read directly, answering the helper’s error', async (t) => {
  const { file, readBytes } = fileOf(randomBytes(BLOCK_BYTES));
  const session = new ReadAheadSession();
  const reader = session.reader('/f', readBytes);
  file.fail = true;
  await t.throwsAsync(reader.read(0, READ), { message: 'the kernel refused' });
  t.is(session.held, 0);
  file.fail = false;
  t.true((await reader.read(READ, READ)).equals(file.bytes.subarray(READ, 2 * READ)));
});

test('a reader whose handle was closed reads directly and takes no block: READs arriving after the CLOSE leak nothing', async (t) => {
  const { file, readBytes } = fileOf(randomBytes(BLOCK_BYTES));
  const session = new ReadAheadSession();
  for (let i = 0; i < SESSION_BLOCKS + 4; i++) {
    const reader = session.reader('/f', readBytes);
    const pending = reader.read(0, READ);
    session.forget(reader);
    t.true((await pending).equals(file.bytes.subarray(0, READ)));
    const late = reader.read(READ, READ);
    t.true((await late).equals(file.bytes.subarray(READ, 2 * READ)));
  }
  t.is(session.held, 0);
  const fresh = session.reader('/f', readBytes);
  await fresh.read(0, READ);
  t.is(session.held, 1, 'the session still reads ahead');
});
