/**
 * The Source RCON client against the fake game server running as a real child process (test/fixtures/fakeGameServer.ts),
 * which speaks the server side the way srcds does: an empty RESPONSE_VALUE before AUTH_RESPONSE, long output split
 * over several packets, the sentinel mirrored.
 */
import test, { type ExecutionContext } from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { RconAuthError, RconConnectionError, RconError, RconTimeoutError, SourceRconClient } from '../../agent/rcon/sourceRcon.ts';
import { startFake, type Fake } from '../support/fakeGame.ts';
import { freePort } from '../support/ports.ts';

const PASSWORD = 'correct horse';
const TEST_TIMEOUT_MS = 30_000;

/** The fake server with RCON on a free port (or RCON_PORT), ready. */
async function startRconFake(t: ExecutionContext, env: Record<string, string> = {}): Promise<Fake & { rconPort: number }> {
  const rconPort = env.RCON_PORT ? Number(env.RCON_PORT) : await freePort();
  const fake = startFake(t, { RCON_PASSWORD: PASSWORD, ...env, RCON_PORT: String(rconPort) });
  await fake.line(/^Server ready$/);
  return { ...fake, rconPort };
}

function clientFor(t: ExecutionContext, port: number, options: Partial<ConstructorParameters<typeof SourceRconClient>[0]> = {}) {
  const client = new SourceRconClient({ host: '127.0.0.1', port, password: PASSWORD, ...options });
  t.teardown(() => client.close());
  return client;
}

test('connects, authenticates and answers a command', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const fake = await startRconFake(t);
  const client = clientFor(t, fake.rconPort);
  await client.connect();
  t.is(await client.command('echo hello world'), 'hello world');
  t.is(await client.command('echo héllo ✓'), 'héllo ✓');
  t.is(await client.command('say nothing to answer'), '');
  t.regex(await client.command('nonsense'), /Unknown command "nonsense"/);
});

test('a reply split over several packets comes back whole and in order', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const fake = await startRconFake(t);
  const client = clientFor(t, fake.rconPort);
  const reply = await client.command('bigreply 20000');
  t.is(reply.length, 20_000);
  t.is(reply, Array.from({ length: 20_000 }, (_, index) => String(index % 10)).join(''));
  t.is(await client.command('echo after'), 'after', 'the connection is still in step');
});

test('packets cut into tiny TCP writes are reassembled', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const fake = await startRconFake(t, { FAKE_RCON_CHUNK_BYTES: '3' });
  const client = clientFor(t, fake.rconPort);
  t.is(await client.command('echo fragmented ✓'), 'fragmented ✓');
  t.is((await client.command('bigreply 9000')).length, 9_000);
});

test('a wrong password is an RconAuthError that says so', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const fake = await startRconFake(t);
  const client = clientFor(t, fake.rconPort, { password: 'wrong' });
  await t.throwsAsync(client.connect(), { instanceOf: RconAuthError, message: 'wrong RCON password' });
  await t.throwsAsync(client.command('echo x'), { instanceOf: RconAuthError, message: 'wrong RCON password' });
  const error = await t.throwsAsync(client.command('echo x'));
  t.true(error instanceof RconError, 'every failure shares the base class');
});

test('a hung server times the command out, and the client recovers once the server is replaced', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const fake = await startRconFake(t);
  const client = clientFor(t, fake.rconPort, { commandTimeoutMs: 500, connectTimeoutMs: 500 });
  t.is(await client.command('sim.hang'), 'hanging');

  const started = Date.now();
  await t.throwsAsync(client.command('echo anyone there'), {
    instanceOf: RconTimeoutError,
    message: 'RCON command "echo anyone there" timed out after 500 ms',
  });
  const elapsed = Date.now() - started;
  t.true(elapsed >= 450 && elapsed < 5_000, `timed out after ${elapsed} ms`);

  // A hung server ignores SIGTERM, and the next connection does not get past authentication.
  fake.child.kill('SIGTERM');
  await t.throwsAsync(client.command('echo again'), { instanceOf: RconTimeoutError, message: /authentication .* timed out/ });
  t.is(fake.child.exitCode, null);

  fake.child.kill('SIGKILL');
  await fake.exited;
  await startRconFake(t, { RCON_PORT: String(fake.rconPort) });
  // The same client, without being re-created: its 500 ms time-outs may run out once on a loaded machine while the new
  // server warms up, so it gets a few tries.
  let answer: string | undefined;
  for (let attempt = 0; attempt < 5 && answer === undefined; attempt++) {
    answer = await client.command('echo back').catch((error: unknown) => {
      if (!(error instanceof RconTimeoutError)) throw error;
      return undefined;
    });
  }
  t.is(answer, 'back');
});

test('a server killed mid-command fails it with RconConnectionError', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const fake = await startRconFake(t);
  const client = clientFor(t, fake.rconPort);
  t.is(await client.command('echo warm'), 'warm');
  const started = Date.now();
  const pending = client.command('sleep 10000');
  await sleep(100);
  fake.child.kill('SIGKILL');
  await t.throwsAsync(pending, { instanceOf: RconConnectionError });
  t.true(Date.now() - started < 3_000);
  await fake.exited;
  await t.throwsAsync(client.command('echo gone'), { instanceOf: RconConnectionError, message: /ECONNREFUSED/ });
});

test('commands issued together are answered in order with their own replies', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const fake = await startRconFake(t);
  const client = clientFor(t, fake.rconPort);
  const commands = Array.from({ length: 30 }, (_, index) =>
    index % 10 === 5 ? `bigreply ${5_000 + index}` : index % 7 === 3 ? 'sleep 30' : `echo reply ${index}`,
  );
  const expected = commands.map((command) =>
    command.startsWith('bigreply') ? Number(command.split(' ')[1]) : command === 'sleep 30' ? 'slept 30' : command.slice(5),
  );
  const order: number[] = [];
  const replies = await Promise.all(
    commands.map((command, index) =>
      client.command(command).then((reply) => {
        order.push(index);
        return command.startsWith('bigreply') ? reply.length : reply;
      }),
    ),
  );
  t.deepEqual(replies, expected);
  t.deepEqual(
    order,
    commands.map((_, index) => index),
  );
});

test('players join, are listed, kicked, banned and unbanned', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const fake = await startRconFake(t, { FAKE_PLAYERS: '76561198000000001:Alice', MAX_PLAYERS: '8' });
  const client = clientFor(t, fake.rconPort);
  const online = async () => {
    const [header, ...rows] = (await client.command('players')).split('\n');
    return { header, players: rows.map((row) => row.split(' ')).map(([steamId, name, ping]) => ({ steamId, name, ping: Number(ping) })) };
  };

  t.is(await client.command('sim.join 76561198000000002 Bob'), '');
  await fake.line(/^Player connected: Bob \(76561198000000002\)$/);
  const listed = await online();
  t.is(listed.header, 'players : 2 (max 8)');
  t.deepEqual(
    listed.players.map(({ steamId, name }) => `${steamId} ${name}`),
    ['76561198000000001 Alice', '76561198000000002 Bob'],
  );
  t.true(listed.players.every(({ ping }) => ping > 0));
  t.is(await client.command('status'), await client.command('players'));

  t.is(await client.command('kick 76561198000000002 being rude'), 'Kicked Bob: being rude');
  await fake.line(/^Player disconnected: Bob \(76561198000000002\)$/);
  t.deepEqual(
    (await online()).players.map(({ name }) => name),
    ['Alice'],
  );
  t.is(await client.command('kick 76561198000000002 again'), 'No player 76561198000000002');

  t.is(await client.command('ban 76561198000000001 cheating'), 'Banned Alice: cheating');
  await fake.line(/^Player disconnected: Alice \(76561198000000001\)$/);
  t.is(await client.command('sim.join 76561198000000001 Alice'), 'Alice is banned');
  t.is(await client.command('unban 76561198000000001'), 'Unbanned 76561198000000001');
  t.is(await client.command('sim.join 76561198000000001 Alice'), '');
  t.is((await online()).header, 'players : 1 (max 8)');

  await client.command('say server restarts in 5 minutes');
  await fake.line(/^\[Chat\] server restarts in 5 minutes$/);
});

test('an oversized packet is a protocol error, and the next command reconnects', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const fake = await startRconFake(t);
  const client = clientFor(t, fake.rconPort);
  const error = await t.throwsAsync(client.command('sim.badpacket'), { instanceOf: RconError, message: /protocol error.*100000/ });
  t.false(error instanceof RconConnectionError || error instanceof RconTimeoutError || error instanceof RconAuthError);
  t.is(await client.command('echo fine'), 'fine');
  await t.throwsAsync(client.command(`echo ${'x'.repeat(5_000)}`), { instanceOf: RconError, message: /too long/ });
});

test('close fails the command in flight and every later one', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const fake = await startRconFake(t);
  const client = clientFor(t, fake.rconPort);
  t.is(await client.command('echo open'), 'open');
  const pending = client.command('sleep 5000');
  const queued = client.command('echo queued');
  await sleep(100);
  await client.close();
  await t.throwsAsync(pending, { instanceOf: RconConnectionError, message: 'RCON client closed' });
  await t.throwsAsync(queued, { instanceOf: RconConnectionError, message: 'RCON client is closed' });
  await t.throwsAsync(client.connect(), { instanceOf: RconConnectionError });
});

test('nobody listening is an RconConnectionError', async (t) => {
  t.timeout(TEST_TIMEOUT_MS);
  const client = clientFor(t, await freePort());
  await t.throwsAsync(client.command('echo x'), { instanceOf: RconConnectionError, message: /ECONNREFUSED/ });
});
