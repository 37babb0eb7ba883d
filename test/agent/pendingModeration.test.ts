/**
 * Bans and unbans for a server that is not running wait on disk, in order, and survive a new agent process.
 */
import test from 'ava';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PendingModeration, type PendingAction } from '../../agent/servers/pendingModeration.ts';

test('actions are applied in order; the first failure and what follows stay for next time, also in a new process', async (t) => {
  const dir = join(await mkdtemp(join(tmpdir(), 'gsm-pending-')), 'server');
  const pending = new PendingModeration(dir);
  const action = (type: 'BAN' | 'UNBAN', steamId: string): PendingAction => ({ type, steamId, username: steamId, reason: 'r' });
  await Promise.all([pending.add(action('BAN', 'a')), pending.add(action('UNBAN', 'b')), pending.add(action('BAN', 'c'))]);

  const applied: string[] = [];
  t.is(await pending.drain(async (next) => {
    if (next.steamId === 'b') throw new Error('console busy');
    applied.push(`${next.type} ${next.steamId}`);
  }), 1);
  t.deepEqual(applied, ['BAN a']);

  // What an agent restarted meanwhile finds.
  const again = new PendingModeration(dir);
  t.is(await again.drain(async (next) => void applied.push(`${next.type} ${next.steamId}`)), 2);
  t.deepEqual(applied, ['BAN a', 'UNBAN b', 'BAN c']);
  t.is(await again.drain(async () => t.fail('nothing is left')), 0);
});
