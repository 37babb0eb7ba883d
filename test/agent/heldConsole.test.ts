import test from 'ava';
import { HeldConsole, SentConsole } from '../../agent/connection/heldConsole.ts';

const frame = (serverId: string, from: number, count: number) => ({
  serverId,
  lines: Array.from({ length: count }, (_, i) => `line ${from + i}`),
  at: '2026-11-27T04:00:00.000Z',
});
const dropped = (count: number) => `[gsm] ${count} console lines dropped by the agent while it was not connected to the service`;

test('frames held while disconnected come back in order; past the bound the oldest are let go and each server is told how many, first', (t) => {
  const held = new HeldConsole(10);
  held.hold(frame('a', 1, 4));
  held.hold(frame('b', 1, 4));
  held.hold(frame('a', 5, 4)); // 12 > 10: a's first frame goes
  held.hold(frame('b', 5, 2)); // 10
  held.hold(frame('b', 7, 1)); // 11: b's first frame goes
  t.is(held.size, 7);
  const at = new Date('2026-11-27T04:00:05.000Z');
  t.deepEqual(held.drain(at), [
    { serverId: 'a', lines: [dropped(4)], at: at.toISOString() },
    { serverId: 'b', lines: [dropped(4)], at: at.toISOString() },
    frame('a', 5, 4),
    frame('b', 5, 2),
    frame('b', 7, 1),
  ]);
  t.is(held.size, 0);
  t.deepEqual(held.drain(), [], 'emptied');
});

test('long lines are bounded by their characters; a long outage keeps the newest lines in bounded memory', (t) => {
  const wide = new HeldConsole(100, 20);
  wide.hold({ serverId: 'a', lines: ['x'.repeat(15)], at: '2026-11-27T04:00:00.000Z' });
  wide.hold({ serverId: 'a', lines: ['y'.repeat(10)], at: '2026-11-27T04:00:00.000Z' });
  t.deepEqual(
    wide.drain().map((kept) => kept.lines[0]),
    [dropped(1), 'y'.repeat(10)],
  );
  const long = new HeldConsole(50);
  for (let i = 0; i < 100_000; i++) long.hold(frame('s', i, 1));
  const out = long.drain();
  t.is(out.length, 51);
  t.deepEqual(out[0]!.lines, [dropped(99_950)]);
  t.deepEqual(out.at(-1), frame('s', 99_999, 1));
});

test('frames sent and not confirmed go back to the hold with their numbers; those the service says arrived are not sent again', (t) => {
  const sent = new SentConsole();
  for (let n = 1; n <= 5; n++) sent.sent(frame('a', n, 1), n);
  sent.confirmed(2);
  t.is(sent.size, 3);
  // The connection ends: 3, 4 and 5 may be lost. Held with their numbers, then a line that came while away.
  const held = new HeldConsole();
  for (const { frame: unconfirmed, n } of sent.take().frames) held.hold(unconfirmed, n);
  held.hold(frame('a', 6, 1));
  t.is(sent.size, 0);
  // The next connection's mark: 4 arrived (after the last confirmation, before the end).
  t.deepEqual(
    held.drain(new Date(), 4).map((kept) => kept.lines[0]),
    ['line 5', 'line 6'],
  );
});

test('without a mark everything unconfirmed is sent again; the unconfirmed frames are bounded, oldest forgotten first', (t) => {
  const sent = new SentConsole(10);
  for (let n = 1; n <= 8; n++) sent.sent(frame('a', n, 2), n);
  t.is(sent.size, 10, 'five frames of two lines');
  sent.confirmed(100);
  t.is(sent.size, 0);
  sent.sent(frame('a', 9, 1), 9);
  const held = new HeldConsole();
  for (const { frame: unconfirmed, n } of sent.take().frames) held.hold(unconfirmed, n);
  t.deepEqual(
    held.drain().map((kept) => kept.lines[0]),
    ['line 9'],
  );
});

test('unconfirmed frames forgotten past the bound are counted per server, and said when the connection ends; a later confirmation clears the count', (t) => {
  const sent = new SentConsole(4);
  for (let n = 1; n <= 4; n++) sent.sent(frame(n % 2 ? 'a' : 'b', n, 2), n);
  // 8 lines > 4: frames 1 (a) and 2 (b) were forgotten, unconfirmed.
  sent.confirmed(2);
  t.deepEqual([...sent.take().forgotten], [], 'confirmed: they arrived after all');
  for (let n = 5; n <= 8; n++) sent.sent(frame(n % 2 ? 'a' : 'b', n, 2), n);
  const { frames, forgotten } = sent.take();
  t.deepEqual(
    [...forgotten],
    [
      ['a', 2],
      ['b', 2],
    ],
  );
  const held = new HeldConsole();
  for (const [serverId, count] of forgotten) held.unsure(serverId, count);
  for (const { frame: unconfirmed, n } of frames) held.hold(unconfirmed, n);
  const out = held.drain(new Date(), 7);
  t.deepEqual(
    out.map((kept) => `${kept.serverId} ${kept.lines[0]}`),
    [
      'a [gsm] 2 console lines sent while the connection to the service was failing may not have reached it',
      'b [gsm] 2 console lines sent while the connection to the service was failing may not have reached it',
      'b line 8',
    ],
  );
});
