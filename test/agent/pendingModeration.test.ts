/**
 * Bans and unbans for a server that is not running wait on disk, in order, and survive a new agent process; a failed
 * write-back never rejects (the drain runs unawaited) and loses nothing.
 */
import test from 'ava';
import { mkdir, mkdtemp, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PendingModeration, type PendingAction } from '../../agent/servers/pendingModeration.ts';

test('actions are applied in order; the first failure and what follows stay for next time, also in a new process', async (t) => {
  const dir = join(await mkdtemp(join(tmpdir(), 'gsm-pending-')), 'server');
  const pending = new PendingModeration(dir);
  const action = (type: 'BAN' | 'UNBAN', steamId: string): PendingAction => ({ type, steamId, username: steamId, reason: 'r' });
  await Promise.all([pending.add(action('BAN', 'a')), pending.add(action('UNBAN', 'b')), pending.add(action('BAN', 'c'))]);

  const applied: string[] = [];
  t.is(
    await pending.drain(async (next) => {
      if (next.steamId === 'b') throw new Error('console busy');
      applied.push(`${next.type} ${next.steamId}`);
    }),
    1,
  );
  t.deepEqual(applied, ['BAN a']);

  // What an agent restarted meanwhile finds.
  const again = new PendingModeration(dir);
  t.is(await again.drain(async (next) => void applied.push(`${next.type} ${next.steamId}`)), 2);
  t.deepEqual(applied, ['BAN a', 'UNBAN b', 'BAN c']);
  t.is(await again.drain(async () => t.fail('nothing is left')), 0);
});

test('when what is left cannot be written back, drain still answers and keeps every action for next time', async (t) => {
  const dir = join(await mkdtemp(join(tmpdir(), 'gsm-pending-')), 'server');
  const pending = new PendingModeration(dir);
  await pending.add({ type: 'BAN', steamId: 'a', username: 'a', reason: 'r' });
  await pending.add({ type: 'BAN', steamId: 'b', username: 'b', reason: 'r' });
  // The temporary file it writes is in the way (as a full disk would be): writing back what is left fails.
  await mkdir(join(dir, '.gsm-pending-moderation.json.tmp'));
  const applied: string[] = [];
  const applyUnlessB = async (next: PendingAction) => {
    if (next.steamId === 'b') throw new Error('console busy');
    applied.push(next.steamId);
  };
  t.is(await pending.drain(applyUnlessB), 1);
  await rmdir(join(dir, '.gsm-pending-moderation.json.tmp'));
  t.is(await pending.drain(async (next) => void applied.push(next.steamId)), 2, 'a again (a no-op for the ban list), then b');
  t.deepEqual(applied, ['a', 'a', 'b']);
  t.is(await pending.drain(async () => t.fail('nothing is left')), 0);
});
