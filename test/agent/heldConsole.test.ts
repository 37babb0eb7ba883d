import test from 'ava';
import { HeldConsole } from '../../agent/connection/heldConsole.ts';

const frame = (serverId: string, from: number, count: number) => ({
  serverId,
  lines: Array.from({ length: count }, (_, i) => `line ${from + i}`),
  at: '2026-11-27T04:00:00.000Z',
});

test('frames held while disconnected come back in order; past the bound the newest are let go and each server is told how many', (t) => {
  const held = new HeldConsole(10);
  held.hold(frame('a', 1, 4));
  held.hold(frame('b', 1, 4));
  held.hold(frame('a', 5, 4)); // 12 > 10: let go
  held.hold(frame('b', 5, 2)); // 10: kept
  held.hold(frame('b', 7, 1)); // let go
  t.is(held.size, 10);
  const at = new Date('2026-11-27T04:00:05.000Z');
  t.deepEqual(held.drain(at), [
    frame('a', 1, 4),
    frame('b', 1, 4),
    frame('b', 5, 2),
    { serverId: 'a', lines: ['[gsm] 4 console lines dropped by the agent while it was not connected to the service'], at: at.toISOString() },
    { serverId: 'b', lines: ['[gsm] 1 console lines dropped by the agent while it was not connected to the service'], at: at.toISOString() },
  ]);
  t.is(held.size, 0);
  t.deepEqual(held.drain(), [], 'emptied');
  // Long lines are bounded by their characters too.
  const wide = new HeldConsole(100, 20);
  wide.hold({ serverId: 'a', lines: ['x'.repeat(15)], at: '2026-11-27T04:00:00.000Z' });
  wide.hold({ serverId: 'a', lines: ['y'.repeat(10)], at: '2026-11-27T04:00:00.000Z' });
  t.deepEqual(
    wide.drain(at).map((kept) => kept.lines[0]),
    ['x'.repeat(15), '[gsm] 1 console lines dropped by the agent while it was not connected to the service'],
  );
});
