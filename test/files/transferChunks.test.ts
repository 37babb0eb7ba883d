import test from 'ava';
import { randomBytes } from 'node:crypto';
import { TRANSFER_CHUNK, transferChunks } from '../../orchestrator/files/serverFiles.ts';

async function collect(source: AsyncIterable<Buffer> | Iterable<Buffer>, check: (received: number) => void = () => undefined, keep?: { failed: boolean }) {
  const chunks: Buffer[] = [];
  let error: unknown;
  try {
    for await (const chunk of transferChunks(source, check, keep)) chunks.push(chunk);
  } catch (caught) {
    error = caught;
  }
  return { chunks, error };
}

test('a body in pieces of any size comes out in chunks of TRANSFER_CHUNK bytes (the last shorter), the same bytes in order', async (t) => {
  const body = randomBytes(3 * TRANSFER_CHUNK + 12_345);
  for (const size of [65_536, 1, 7_777, TRANSFER_CHUNK, 500_000, body.length]) {
    const pieces: Buffer[] = [];
    for (let at = 0; at < body.length; at += size) pieces.push(body.subarray(at, at + size));
    const { chunks, error } = await collect(size === 1 ? pieces.slice(0, 1000).concat(Buffer.concat(pieces.slice(1000))) : pieces);
    t.is(error, undefined);
    t.deepEqual(
      chunks.map((chunk) => chunk.length),
      [TRANSFER_CHUNK, TRANSFER_CHUNK, TRANSFER_CHUNK, 12_345],
      `pieces of ${size}`,
    );
    t.true(Buffer.concat(chunks).equals(body), `pieces of ${size}`);
  }
});

test('a piece that fills a chunk by itself is passed on as a view of it, not copied', async (t) => {
  const piece = randomBytes(2 * TRANSFER_CHUNK);
  const { chunks } = await collect([piece]);
  t.is(chunks.length, 2);
  for (const [index, chunk] of chunks.entries()) {
    t.is(chunk.buffer, piece.buffer);
    t.is(chunk.byteOffset, piece.byteOffset + index * TRANSFER_CHUNK);
  }
});

test('a body cut short: with `keep`, what arrived is handed on as a last, shorter chunk (flagged before it), then the error; without, only the error', async (t) => {
  async function* cut() {
    yield Buffer.alloc(TRANSFER_CHUNK + 100, 1);
    yield Buffer.alloc(50, 2);
    throw new Error('the client went away');
  }
  const keep = { failed: false };
  const flagged: boolean[] = [];
  let error: unknown;
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of transferChunks(cut(), () => undefined, keep)) {
      chunks.push(chunk);
      flagged.push(keep.failed);
    }
  } catch (caught) {
    error = caught;
  }
  t.deepEqual(
    chunks.map((chunk) => chunk.length),
    [TRANSFER_CHUNK, 150],
  );
  t.deepEqual(flagged, [false, true], 'the last chunk is known to be what was kept of a failed body');
  t.is(chunks[1]![149], 2);
  t.is((error as Error).message, 'the client went away');
  const without = await collect(cut());
  t.deepEqual(
    without.chunks.map((chunk) => chunk.length),
    [TRANSFER_CHUNK],
  );
  t.is((without.error as Error).message, 'the client went away');
});

test('a body trickling in tiny pieces is copied into one buffer per chunk, not held as thousands of views', async (t) => {
  const body = randomBytes(TRANSFER_CHUNK + 5_000);
  const pieces = Array.from({ length: body.length }, (_, i) => body.subarray(i, i + 1));
  const { chunks } = await collect(pieces);
  t.deepEqual(
    chunks.map((chunk) => chunk.length),
    [TRANSFER_CHUNK, 5_000],
  );
  t.true(Buffer.concat(chunks).equals(body));
  t.not(chunks[0]!.buffer, body.buffer, 'a chunk of its own');
  t.is(chunks[0]!.buffer.byteLength, TRANSFER_CHUNK);
});

test('a check that refuses a piece (a size limit) keeps that piece out: what came before it is handed on, then the refusal', async (t) => {
  const limit = TRANSFER_CHUNK + 1_000;
  const seen: number[] = [];
  const { chunks, error } = await collect(
    [Buffer.alloc(TRANSFER_CHUNK - 10), Buffer.alloc(900), Buffer.alloc(200), Buffer.alloc(5)],
    (received) => {
      seen.push(received);
      if (received > limit) throw new Error('too large');
    },
    { failed: false },
  );
  t.deepEqual(seen, [TRANSFER_CHUNK - 10, TRANSFER_CHUNK + 890, TRANSFER_CHUNK + 1_090]);
  t.deepEqual(
    chunks.map((chunk) => chunk.length),
    [TRANSFER_CHUNK, 890],
  );
  t.is((error as Error).message, 'too large');
});

test('a consumer that stops early stops the source: nothing more is read', async (t) => {
  let read = 0;
  function* endless() {
    for (;;) {
      read++;
      yield Buffer.alloc(65_536);
    }
  }
  for await (const chunk of transferChunks(endless(), () => undefined)) {
    t.is(chunk.length, TRANSFER_CHUNK);
    break;
  }
  t.is(read, Math.ceil(TRANSFER_CHUNK / 65_536), 'the pieces of one chunk, no more');
});
