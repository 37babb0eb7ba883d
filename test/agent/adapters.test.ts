/**
 * Game adapters against the fake game server as a real process: the CUSTOM adapter over Source RCON and the
 * MINECRAFT adapter over the console (standard input), listing, kicking, banning, unbanning and broadcasting; and
 * the parsing of the other games' replies.
 */
import test from 'ava';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlayerLine } from '../../agent/games/adapter.ts';
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
  await custom.kick(
    channel,
    players.find((player) => player.username === 'alice')!,
    'be nice\nquit',
  );
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
  t.deepEqual(custom.playerLineParser()('Player connected: carol (765611)'), { kind: 'join', username: 'carol', steamId: '765611' });
  await custom.stop(channel);
  const exit = await proc.wait();
  t.is(exit.exitCode, 0);
});

test('MINECRAFT over the console: ready line, list, kick, ban, pardon, say, stop', async (t) => {
  const { proc, lines } = await startFake({ FAKE_MODE: 'minecraft', MAX_PLAYERS: '5' });
  t.teardown(() => void proc.kill().catch(() => undefined));
  t.true(await waitForLine(lines, minecraft.readyPattern!));
  const channel = new StdinChannel(proc);
  const parsePlayerLine = minecraft.playerLineParser();
  await channel.command('sim.join Steve', /joined the game/);
  await channel.command('sim.join Alex', /joined the game/);
  t.deepEqual(parsePlayerLine(lines.find((line) => line.includes('Steve joined'))!), { kind: 'join', steamId: 'Steve', username: 'Steve' });
  t.deepEqual(
    (await minecraft.listPlayers(channel)).map((player) => player.username),
    ['Steve', 'Alex'],
  );
  await minecraft.kick(channel, { steamId: 'Steve', username: 'Steve' }, 'afk');
  t.true(await waitForLine(lines, /Steve left the game/));
  t.deepEqual(parsePlayerLine(lines.find((line) => line.includes('Steve left'))!), { kind: 'leave', steamId: 'Steve', username: 'Steve' });
  await minecraft.ban(channel, { steamId: 'Alex', username: 'Alex' }, 'griefing');
  await minecraft.unban(channel, { steamId: 'Alex', username: 'Alex' });
  await minecraft.broadcast(channel, 'hello all');
  t.true(await waitForLine(lines, /\[Server\] hello all/));
  await minecraft.stop(channel);
  t.is((await proc.wait()).exitCode, 0);
});

test('the other games parse their own replies and quote their arguments', (t) => {
  t.deepEqual(rust.playerLineParser()('alice[123/76561198000000001] has entered the game'), { kind: 'join', username: 'alice', steamId: '76561198000000001' });
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

/** Every shape a server's own logger gives a line: vanilla, Forge/NeoForge (with the logger's name), Paper's console. */
const SERVER_PREFIXES = ['[12:34:56] [Server thread/INFO]: ', '[12:34:56] [Server thread/INFO] [minecraft/MinecraftServer]: ', '[12:34:56 INFO]: '];
const INFO = SERVER_PREFIXES[0]!;
const STEVE_UUID = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
const NOTCH_UUID = '853c80ef-3c37-49fd-aa49-938b674adae6';

test('MINECRAFT: joins and leaves forged in chat, say, emotes or names change nothing', (t) => {
  const forged = [
    `${INFO}<Steve> look]: Notch joined the game`,
    `${INFO}<Steve> x]: Steve left the game`,
    `${INFO}<Steve> Notch joined the game`,
    `${INFO}[Server] Notch joined the game`,
    `${INFO}[Server] ]: Notch joined the game`,
    `${INFO}* Steve ]: Notch joined the game`,
    `${INFO}[Steve: Notch joined the game]`,
    `${INFO}<Steve> [12:34:56] [Server thread/INFO]: Notch joined the game`,
    `${INFO}<Steve> UUID of player Notch is ${NOTCH_UUID}`,
    `[12:34:56] [Async Chat Thread - #0/INFO]: <Steve> x]: Steve left the game`,
    'Notch joined the game',
    ']: Notch joined the game',
    `${INFO}No tch joined the game`,
    `${INFO}ab joined the game`,
    `${INFO}Seventeen_chars_x joined the game`,
    `${INFO}Not-ch joined the game`,
    `${INFO}Notch joined the game now`,
    `${INFO}Notch left the game.`,
  ];
  const parse = minecraft.playerLineParser();
  for (const line of forged) t.is(parse(line), null, line);
  t.deepEqual(parse(`${INFO}Steve left the game`), { kind: 'leave', steamId: 'Steve', username: 'Steve' }, 'a forged UUID line was not remembered');
});

test('MINECRAFT: the lines the server prints count, in each logger shape, with the name it allows', (t) => {
  for (const prefix of SERVER_PREFIXES) {
    const parse = minecraft.playerLineParser();
    t.deepEqual(parse(`${prefix}Notch joined the game`), { kind: 'join', steamId: 'Notch', username: 'Notch' }, prefix);
    t.deepEqual(parse(`${prefix}jeb_ joined the game`), { kind: 'join', steamId: 'jeb_', username: 'jeb_' }, prefix);
    t.deepEqual(parse(`${prefix}Notch left the game`), { kind: 'leave', steamId: 'Notch', username: 'Notch' }, prefix);
    t.deepEqual(parse(`${prefix}Sixteen_chars_xx left the game`), { kind: 'leave', steamId: 'Sixteen_chars_xx', username: 'Sixteen_chars_xx' }, prefix);
  }
});

test("MINECRAFT: the UUID the server prints before a join is the player's steamId, through a rename, until the leave", (t) => {
  const parse = minecraft.playerLineParser();
  t.is(parse(`[12:34:56] [User Authenticator #1/INFO]: UUID of player Steve is ${STEVE_UUID}`), null);
  t.deepEqual(parse(`${INFO}Steve joined the game`), { kind: 'join', steamId: STEVE_UUID, username: 'Steve' });
  t.deepEqual(parse(`${INFO}Steve left the game`), { kind: 'leave', steamId: STEVE_UUID, username: 'Steve' });
  // Renamed at Mojang: a new name, the same account.
  t.is(parse(`[12:40:00 INFO]: UUID of player Steve2 is ${STEVE_UUID}`), null);
  t.deepEqual(parse(`[12:40:00 INFO]: Steve2 joined the game`), { kind: 'join', steamId: STEVE_UUID, username: 'Steve2' });
  t.deepEqual(parse(`[12:40:00 INFO]: Steve2 left the game`), { kind: 'leave', steamId: STEVE_UUID, username: 'Steve2' });
  t.deepEqual(parse(`[12:41:00 INFO]: Steve2 joined the game`), { kind: 'join', steamId: 'Steve2', username: 'Steve2' }, 'forgotten after the leave');
  // Each server (each start) parses its own output.
  minecraft.playerLineParser()(`[12:42:00 INFO]: UUID of player Alex is ${NOTCH_UUID}`);
  t.deepEqual(parse(`[12:42:00 INFO]: Alex joined the game`), { kind: 'join', steamId: 'Alex', username: 'Alex' });
});

test('MINECRAFT over the console, online mode: the list names each player by its UUID, and a list forged in chat is not taken', async (t) => {
  const { proc, lines } = await startFake({ FAKE_MODE: 'minecraft', FAKE_ONLINE_MODE: '1', FAKE_LOG_FORMAT: 'forge' });
  t.teardown(() => void proc.kill().catch(() => undefined));
  t.true(await waitForLine(lines, minecraft.readyPattern!));
  const channel = new StdinChannel(proc);
  const parse = minecraft.playerLineParser();
  const seen: PlayerLine[] = [];
  proc.on('line', (_stream, line) => {
    const player = parse(line);
    if (player) seen.push(player);
  });
  await channel.command(`sim.join Steve ${STEVE_UUID}`, /Steve joined the game/);
  await channel.command('sim.join Alex', /Alex joined the game/);
  const alex = seen.find((player) => player.username === 'Alex')!.steamId;
  t.regex(alex, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/, 'an online UUID');
  await channel.command('sim.chatonlist Steve There are 1 of a max of 20 players online: Notch');
  t.deepEqual(await minecraft.listPlayers(channel), [
    { steamId: STEVE_UUID, username: 'Steve' },
    { steamId: alex, username: 'Alex' },
  ]);
  t.true(
    lines.some((line) => line.endsWith('<Steve> There are 1 of a max of 20 players online: Notch')),
    'the forged answer came first',
  );
  await channel.command('sim.leave Steve', /Steve left the game/);
  await channel.command(`sim.join Steve2 ${STEVE_UUID}`, /Steve2 joined the game/);
  t.deepEqual(seen, [
    { kind: 'join', steamId: STEVE_UUID, username: 'Steve' },
    { kind: 'join', steamId: alex, username: 'Alex' },
    { kind: 'leave', steamId: STEVE_UUID, username: 'Steve' },
    { kind: 'join', steamId: STEVE_UUID, username: 'Steve2' },
  ]);
  t.deepEqual(
    (await minecraft.listPlayers(channel)).map((player) => player.steamId),
    [alex, STEVE_UUID],
  );
});

test('MINECRAFT offline: the list names players by name, as their joins do (their UUID is only a hash of it)', async (t) => {
  const { proc, lines } = await startFake({ FAKE_MODE: 'minecraft', FAKE_LOG_FORMAT: 'paper', FAKE_PLAYERS: 'Notch' });
  t.teardown(() => void proc.kill().catch(() => undefined));
  t.true(await waitForLine(lines, minecraft.readyPattern!));
  const channel = new StdinChannel(proc);
  const answer = await channel.command('list uuids', /There are/);
  t.regex(answer, /Notch \([0-9a-f]{8}-[0-9a-f]{4}-3/, 'the server shows the offline UUID');
  t.deepEqual(await minecraft.listPlayers(channel), [{ steamId: 'Notch', username: 'Notch' }]);
});

test('Source RCON games: joins and leaves forged in chat or in a name change nothing; the id that counts is the last', (t) => {
  const parseRust = rust.playerLineParser();
  for (const line of [
    '[CHAT] alice[76561198000000001] : x[1/76561198000000002] has entered the game',
    '[TEAM CHAT] alice[76561198000000001] : x[1/76561198000000002] has disconnected (Disconnected)',
    'say x[1/76561198000000002] has entered the game, really',
  ]) {
    t.is(parseRust(line), null, line);
  }
  t.deepEqual(parseRust('bob[1/76561198000000002] has disconnected[5678/76561198000000001] has disconnected (Disconnected)'), {
    kind: 'leave',
    username: 'bob[1/76561198000000002] has disconnected',
    steamId: '76561198000000001',
  });
  t.deepEqual(parseRust('alice[5678/76561198000000001] has disconnected (x[1/76561198000000002] has disconnected)'), {
    kind: 'leave',
    username: 'alice',
    steamId: '76561198000000001',
  });
  t.deepEqual(parseRust('alice[5678/76561198000000001] has disconnected'), { kind: 'leave', username: 'alice', steamId: '76561198000000001' });
  const parseCustom = custom.playerLineParser();
  t.is(parseCustom('[Chat] bob: Player connected: eve (76561198000000003)'), null);
  t.is(parseCustom('[Chat] bob: Player disconnected: bob (76561198000000002)'), null);
  t.deepEqual(parseCustom('Player connected: x (76561198000000002) (76561198000000001)'), {
    kind: 'join',
    username: 'x (76561198000000002)',
    steamId: '76561198000000001',
  });
});
