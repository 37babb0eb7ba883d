/**
 * The fake game server the agent tests run (test/fixtures/fakeGameServer.ts), driven over its standard input the way
 * the agent drives a vanilla Minecraft server: its console lines, players, exit codes and signals.
 */
import test from 'ava';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFake } from '../support/fakeGame.ts';

const TEST_TIMEOUT_MS = 30_000;
/** A console line of the fake's vanilla logger: its time, thread and level, then exactly `message`. */
const info = (message: string) => new RegExp(`^\\[\\d{2}:\\d{2}:\\d{2}\\] \\[Server thread/INFO\\]: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
const MINECRAFT_READY = info('Done (1.234s)! For help, type "help"');

test('minecraft mode: ready line, joins, list, kick, ban, pardon, say and stop, honouring server.properties', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const dir = await mkdtemp(join(tmpdir(), 'gsm-fake-mc-'));
  await writeFile(join(dir, 'server.properties'), '#Minecraft server properties\nmotd=hello\nserver-port=25599\nmax-players=5\n');
  const fake = startFake(t, { FAKE_MODE: 'minecraft', GAME_PORT: '1', MAX_PLAYERS: '99' }, dir);
  await fake.line(info(`Starting Minecraft server on *:25599`));
  await fake.line(MINECRAFT_READY);

  fake.send('list');
  await fake.line(info(`There are 0 of a max of 5 players online: `));
  fake.send('sim.join Steve');
  await fake.line(info(`Steve joined the game`));
  fake.send('sim.join Alex');
  await fake.line(info(`Alex joined the game`));
  fake.send('list');
  await fake.line(info(`There are 2 of a max of 5 players online: Steve, Alex`));

  fake.send('kick Steve griefing');
  await fake.line(info(`Steve left the game`));
  await fake.line(info(`Kicked Steve: griefing`));
  fake.send('ban Alex cheating');
  await fake.line(info(`Alex left the game`));
  await fake.line(info(`Banned Alex: cheating`));
  fake.send('sim.join Alex');
  fake.send('list');
  await fake.line(info(`There are 0 of a max of 5 players online: `));
  fake.send('pardon Alex');
  await fake.line(info(`Unbanned Alex`));
  fake.send('sim.join Alex');
  await fake.line(info(`Alex joined the game`));
  fake.send('sim.leave Alex');
  await fake.line(info(`Alex left the game`));

  fake.send('say back in 5');
  await fake.line(info(`[Server] back in 5`));
  fake.send('stop');
  await fake.line(info(`Stopping the server`));
  t.is(await fake.exited, 0);
});

test('minecraft mode without server.properties: MAX_PLAYERS, and FAKE_PLAYERS online at ready time', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const dir = await mkdtemp(join(tmpdir(), 'gsm-fake-mc-'));
  const fake = startFake(t, { FAKE_MODE: 'minecraft', GAME_PORT: '25610', MAX_PLAYERS: '7', FAKE_PLAYERS: 'Notch,x:jeb_' }, dir);
  await fake.line(info(`Starting Minecraft server on *:25610`));
  await fake.line(MINECRAFT_READY);
  fake.send('list');
  t.regex(await fake.line(/There are/), info('There are 2 of a max of 7 players online: Notch, jeb_'));
  fake.send('help me');
  t.regex(await fake.line(/Unknown/), info('Unknown or incomplete command, see below for error'));
});

for (const mode of ['source', 'minecraft']) {
  test(`${mode} mode: sim.crash exits with code 3`, async (t) => {
    t.timeout(TEST_TIMEOUT_MS);
    const fake = startFake(t, { FAKE_MODE: mode }, await mkdtemp(join(tmpdir(), 'gsm-fake-')));
    await fake.line(mode === 'source' ? 'Server ready' : MINECRAFT_READY);
    fake.send('sim.crash');
    await fake.line('Segmentation fault');
    t.is(await fake.exited, 3);
  });
}

test('source mode over stdin: players, say, and SIGTERM stops gracefully', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const fake = startFake(t, { MAX_PLAYERS: '4' });
  await fake.line('Server ready');
  fake.send('sim.join 76561198000000003 Carol Ann');
  await fake.line('Player connected: Carol Ann (76561198000000003)');
  fake.send('players');
  await fake.line('players : 1 (max 4)');
  await fake.line(/^76561198000000003 Carol Ann \d+$/);
  fake.send('say hi all');
  await fake.line('[Chat] hi all');
  fake.child.kill('SIGTERM');
  await fake.line('Shutting down');
  t.is(await fake.exited, 0);
});

test('sim.hang: SIGTERM and stdin are ignored until SIGKILL', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const fake = startFake(t, {});
  await fake.line('Server ready');
  fake.send('sim.hang');
  await fake.line('hanging');
  fake.child.kill('SIGTERM');
  fake.child.kill('SIGINT');
  fake.send('quit');
  await sleep(500);
  t.is(fake.child.exitCode, null);
  fake.child.kill('SIGKILL');
  t.is(await fake.exited, null);
  t.is(fake.child.signalCode, 'SIGKILL');
});
