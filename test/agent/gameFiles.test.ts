/**
 * Files the root agent touches in a game's own directory: a game's account could put a symbolic link where the agent
 * expects a file (server.properties → /etc/shadow). Reads refuse links; writes replace the name, never the link's target.
 */
import test from 'ava';
import { link, lstat, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGameFile, writeGameFile } from '../../agent/servers/gameFiles.ts';
import { writeServerProperties } from '../../agent/games/minecraft.ts';
import type { ServerConfig } from '../../schema/agentEvents.ts';

const server = { gamePort: 25565, queryPort: 25566, maxPlayers: 10 } as ServerConfig;

test('server.properties that is a symbolic link is neither read nor written through', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-gamefiles-'));
  const secret = join(dir, 'secret');
  await writeFile(secret, 'root:$6$hash:19000:0:99999:7:::\n');
  const serverDir = join(dir, 'server');
  await (await import('node:fs/promises')).mkdir(serverDir);
  await symlink(secret, join(serverDir, 'server.properties'));
  await t.throwsAsync(writeServerProperties(serverDir, server), { message: /symbolic link/ });
  t.is(await readFile(secret, 'utf8'), 'root:$6$hash:19000:0:99999:7:::\n', 'the target is untouched');
  await t.throwsAsync(readGameFile(join(serverDir, 'server.properties')), { message: /symbolic link/ });
});

test('a write replaces a link by a file of its own, leaving the target alone; a plain file keeps its other keys', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-gamefiles-'));
  const target = join(dir, 'target');
  await writeFile(target, 'untouched');
  await symlink(target, join(dir, 'link'));
  await writeGameFile(join(dir, 'link'), 'new content');
  t.false((await lstat(join(dir, 'link'))).isSymbolicLink());
  t.is(await readFile(join(dir, 'link'), 'utf8'), 'new content');
  t.is(await readFile(target, 'utf8'), 'untouched');

  await writeFile(join(dir, 'server.properties'), 'motd=hello\nserver-port=1\n');
  await writeServerProperties(dir, server);
  t.is(await readFile(join(dir, 'server.properties'), 'utf8'), 'motd=hello\nserver-port=25565\nquery.port=25566\nenable-query=true\nmax-players=10\n');
  t.is(await readGameFile(join(dir, 'missing')), undefined);
});

test('server.properties that is a hard link to another file (e.g. /etc/shadow) is neither read nor written back', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-gamefiles-'));
  const secret = join(dir, 'secret');
  await writeFile(secret, 'root:$6$hash:19000:0:99999:7:::\n');
  const serverDir = join(dir, 'server');
  await mkdir(serverDir);
  await link(secret, join(serverDir, 'server.properties'));
  await t.throwsAsync(writeServerProperties(serverDir, server), { message: /more than one hard link/ });
  await t.throwsAsync(readGameFile(join(serverDir, 'server.properties')), { message: /more than one hard link/ });
  t.is(await readFile(secret, 'utf8'), 'root:$6$hash:19000:0:99999:7:::\n', 'the other file is untouched');
});
