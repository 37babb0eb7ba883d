/**
 * Game adapters against the fake game server as a real process: the CUSTOM adapter over Source RCON and the
 * MINECRAFT adapter over the console (standard input), listing, kicking, banning, unbanning and broadcasting; and
 * the parsing of the other games' replies.
 */
import test from 'ava';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { custom, rust, ark, cs2 } from '../../agent/games/sourceRconGames.ts';
import { minecraft } from '../../agent/games/minecraft.ts';
import { SourceRconClient } from '../../agent/rcon/sourceRcon.ts';
import { ProcessRuntime, type RunningProcess } from '../../agent/runtime/processRuntime.ts';
import { StdinChannel } from '../../agent/servers/stdinChannel.ts';
import { FAKE_SERVER, freePorts } from '../support/agentProcess.ts';

async function startFake(env: Record<string, string>): Promise<{ proc: RunningProcess; lines: string[] }> {
  const proc = await new ProcessRuntime().start({
    command: process.execPath,
    args: [FAKE_SERVER],
    cwd: await mkdtemp(join(tmpdir(), 'gsm-fake-')),
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  const lines: string[] = [];
  proc.on('line', (_stream, line) => lines.push(line));
  return { proc, lines };
}

const waitForLine = async (lines: string[], pattern: RegExp) => {
  for (let attempt = 0; attempt < 100 && !lines.some((line) => pattern.test(line)); attempt++) await new Promise((done) => setTimeout(done, 50));
  return lines.some((line) => pattern.test(line));
};

test('CUSTOM over Source RCON: players, kick, ban, unban, broadcast, graceful stop', async (t) => {
  const [gamePort, rconPort] = await freePorts(2);
  const { proc, lines } = await startFake({
    GAME_PORT: String(gamePort),
    RCON_PORT: String(rconPort),
    RCON_PASSWORD: 'pw-123456',
    FAKE_PLAYERS: '76561198000000001:alice,76561198000000002:bob',
  });
  t.teardown(() => void proc.kill().catch(() => undefined));
  t.true(await waitForLine(lines, /Server ready/));
  const client = new SourceRconClient({ host: '127.0.0.1', port: rconPort!, password: 'pw-123456' });
  t.teardown(() => client.close());
  const channel = { command: (text: string) => client.command(text) };

  const players = await custom.listPlayers(channel);
  t.deepEqual(players.map((player) => player.username).sort(), ['alice', 'bob']);
  t.true(players.every((player) => typeof player.ping === 'number'));
  await custom.kick(channel, players.find((player) => player.username === 'alice')!, 'be nice\nquit');
  t.deepEqual(
    (await custom.listPlayers(channel)).map((player) => player.username),
    ['bob'],
    'the newline in the reason did not run a second command',
  );
  const bob = (await custom.listPlayers(channel))[0]!;
  await custom.ban(channel, bob, 'cheating');
  t.deepEqual(await custom.listPlayers(channel), []);
  await client.command(`sim.join ${bob.steamId} bob`);
  t.deepEqual(await custom.listPlayers(channel), [], 'a banned player cannot join');
  await custom.unban(channel, bob);
  await client.command(`sim.join ${bob.steamId} bob`);
  t.is((await custom.listPlayers(channel)).length, 1);
  await custom.broadcast(channel, 'restart in 5 minutes');
  t.true(await waitForLine(lines, /\[Chat\] restart in 5 minutes/));
  t.deepEqual(custom.parsePlayerLine('Player connected: carol (765611)'), { kind: 'join', username: 'carol', steamId: '765611' });
  await custom.stop(channel);
  const exit = await proc.wait();
  t.is(exit.exitCode, 0);
});

test('MINECRAFT over the console: ready line, list, kick, ban, pardon, say, stop', async (t) => {
  const { proc, lines } = await startFake({ FAKE_MODE: 'minecraft', MAX_PLAYERS: '5' });
  t.teardown(() => void proc.kill().catch(() => undefined));
  t.true(await waitForLine(lines, minecraft.readyPattern!));
  const channel = new StdinChannel(proc);
  await channel.command('sim.join Steve', /joined the game/);
  await channel.command('sim.join Alex', /joined the game/);
  t.deepEqual(minecraft.parsePlayerLine(lines.find((line) => line.includes('Steve joined'))!), { kind: 'join', steamId: 'Steve', username: 'Steve' });
  t.deepEqual(
    (await minecraft.listPlayers(channel)).map((player) => player.username),
    ['Steve', 'Alex'],
  );
  await minecraft.kick(channel, { steamId: 'Steve', username: 'Steve' }, 'afk');
  t.true(await waitForLine(lines, /Steve left the game/));
  t.deepEqual(minecraft.parsePlayerLine(lines.find((line) => line.includes('Steve left'))!), { kind: 'leave', steamId: 'Steve', username: 'Steve' });
  await minecraft.ban(channel, { steamId: 'Alex', username: 'Alex' }, 'griefing');
  await minecraft.unban(channel, { steamId: 'Alex', username: 'Alex' });
  await minecraft.broadcast(channel, 'hello all');
  t.true(await waitForLine(lines, /\[Server\] hello all/));
  await minecraft.stop(channel);
  t.is((await proc.wait()).exitCode, 0);
});

test('the other games parse their own replies and quote their arguments', (t) => {
  t.deepEqual(rust.parsePlayerLine('alice[123/76561198000000001] has entered the game'), { kind: 'join', username: 'alice', steamId: '76561198000000001' });
  const rustChannel = {
    sent: [] as string[],
    command(text: string) {
      this.sent.push(text);
      return Promise.resolve('[{"SteamID":"7656","DisplayName":"al \\"x\\"","Ping":12}]');
    },
  };
  return Promise.all([
    rust.listPlayers(rustChannel).then((players) => t.deepEqual(players, [{ steamId: '7656', username: 'al "x"', ping: 12 }])),
    rust.kick(rustChannel, { steamId: '7656', username: 'al' }, 'say "hi"').then(() => t.is(rustChannel.sent.at(-1), 'kick "7656" "say \\"hi\\""')),
    ark.listPlayers({ command: async () => '0. Alice, 76561198000000001\n1. Bob Smith, 76561198000000002' }).then((players) =>
      t.deepEqual(
        players.map((player) => player.username),
        ['Alice', 'Bob Smith'],
      ),
    ),
    cs2
      .listPlayers({
        command: async () =>
          JSON.stringify({
            server: {
              clients: [
                { steamid64: '7656', name: 'x', ping: 5 },
                { name: 'BOT', bot: true },
              ],
            },
          }),
      })
      .then((players) => t.deepEqual(players, [{ steamId: '7656', username: 'x', ping: 5 }])),
  ]);
});
