import test from 'ava';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { encodeFrame, FrameReader, MAX_FRAME, writeFrame } from '../../agent/files/protocol.ts';

const frames = [
  { id: 1, json: { op: 'stat', path: 'a' } },
  { id: 2, json: { op: 'write', handle: 3, position: 0 }, data: randomBytes(300_000) },
  { id: 3, json: { ok: true } },
  { id: 4, json: { ok: true, size: 1 }, data: randomBytes(1) },
];
const stream = Buffer.concat(frames.map((frame) => encodeFrame(frame.id, frame.json, frame.data)));

function read(pieces: Buffer[]) {
  const reader = new FrameReader();
  return pieces.flatMap((piece) => reader.push(piece));
}

function same(t: import('ava').ExecutionContext, got: ReturnType<typeof read>) {
  t.is(got.length, frames.length);
  got.forEach((frame, i) => {
    t.is(frame.id, frames[i]!.id);
    t.deepEqual(frame.json, frames[i]!.json);
    t.true(frames[i]!.data ? Buffer.compare(frame.data!, frames[i]!.data!) === 0 : frame.data === undefined);
  });
}

test('frames come out whole and in order however the stream is cut', (t) => {
  same(t, read([stream]));
  // Pipe-sized pieces, odd pieces, and pieces that cut a length prefix in two.
  for (const size of [65_536, 4_099, 3, 1]) {
    const pieces: Buffer[] = [];
    for (let at = 0; at < stream.length; at += size) pieces.push(stream.subarray(at, at + size));
    if (size === 1) same(t, read(pieces.slice(0, 40_000).concat([Buffer.concat(pieces.slice(40_000))])));
    else same(t, read(pieces));
  }
});

test('a frame announcing more than the largest frame, or a JSON longer than its frame, is refused', (t) => {
  const big = Buffer.alloc(12);
  big.writeUInt32BE(MAX_FRAME + 1, 0);
  t.throws(() => new FrameReader().push(big), { message: /bad frame length/ });
  const tiny = Buffer.alloc(4);
  tiny.writeUInt32BE(4, 0);
  t.throws(() => new FrameReader().push(tiny), { message: /bad frame length/ });
  const lying = Buffer.alloc(16);
  lying.writeUInt32BE(12, 0);
  lying.writeUInt32BE(1, 4);
  lying.writeUInt32BE(9, 8);
  t.throws(() => new FrameReader().push(lying), { message: /bad frame JSON length/ });
});

test('writeFrame writes the same bytes as encodeFrame; the frames of one turn go out in one writev, their bytes the caller’s buffers (not copies)', async (t) => {
  const writes: Buffer[][] = [];
  const sink = new Writable({
    writev(chunks, callback) {
      writes.push(chunks.map(({ chunk }) => chunk as Buffer));
      callback();
    },
    write(chunk: Buffer, _encoding, callback) {
      writes.push([chunk]);
      callback();
    },
  });
  for (const frame of frames) writeFrame(sink, frame.id, frame.json, frame.data);
  t.is(writes.length, 0, 'nothing is written before the turn ends');
  await new Promise((resolve) => process.nextTick(resolve));
  t.is(writes.length, 1, 'the four frames go out in one writev');
  t.deepEqual(Buffer.concat(writes.flat()), stream);
  t.is(writes[0]!.length, 6, 'two pieces for each frame with bytes, one for each without');
  t.is(writes[0]![2] as Buffer, frames[1]!.data as Buffer, 'the bytes written are the buffer given, not a copy');
  // A later turn is a writev of its own.
  writeFrame(sink, 9, { ok: true });
  await new Promise((resolve) => setImmediate(resolve));
  t.is(writes.length, 2);
  t.deepEqual(writes[1]!.length === 1 ? writes[1]![0] : Buffer.concat(writes[1]!), encodeFrame(9, { ok: true }));
});
