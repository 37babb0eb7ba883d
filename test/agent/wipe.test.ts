/**
 * WIPE on the agent: the adapter's wipe paths are deleted inside the server directory and nowhere else.
 */
import test from 'ava';
import { mkdir, mkdtemp, readdir, symlink, writeFile, access } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wipe, WipeError } from '../../agent/servers/wipe.ts';
import { rust } from '../../agent/games/sourceRconGames.ts';
import { minecraft } from '../../agent/games/minecraft.ts';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function tree(files: string[]): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'gsm-wipe-'));
  for (const file of files) {
    await mkdir(join(root, file, '..'), { recursive: true });
    await writeFile(join(root, file), 'x');
  }
  return root;
}

test('RUST: map, save and blueprint files go; config and other files stay', async (t) => {
  const dir = await tree([
    'server/main/proceduralmap.4000.123.map',
    'server/main/proceduralmap.4000.123.sav',
    'server/main/player.blueprints.5.db',
    'server/main/cfg/server.cfg',
    'server/main/player.deaths.5.db',
    'RustDedicated',
  ]);
  const deleted = await wipe(dir, rust.wipePaths);
  t.deepEqual(deleted.sort(), ['server/main/player.blueprints.5.db', 'server/main/proceduralmap.4000.123.map', 'server/main/proceduralmap.4000.123.sav']);
  t.deepEqual((await readdir(join(dir, 'server/main'))).sort(), ['cfg', 'player.deaths.5.db']);
  t.true(await exists(join(dir, 'RustDedicated')));
});

test('MINECRAFT: the world directories go, server.properties stays', async (t) => {
  const dir = await tree(['world/level.dat', 'world/region/r.0.0.mca', 'world_nether/level.dat', 'server.properties', 'server.jar']);
  t.deepEqual((await wipe(dir, minecraft.wipePaths)).sort(), ['world', 'world_nether']);
  t.deepEqual((await readdir(dir)).sort(), ['server.jar', 'server.properties']);
});

test('never reaches outside: links are removed, not followed, and linked directories are not entered', async (t) => {
  const outside = await tree(['precious.map', 'world/level.dat']);
  const dir = await tree(['keep.txt']);
  await symlink(outside, join(dir, 'server')); // server -> outside: server/*/*.map must not walk into it
  await symlink(join(outside, 'world'), join(dir, 'world')); // world -> outside/world: the link goes, the target stays
  await mkdir(join(outside, 'main'));
  await writeFile(join(outside, 'main', 'x.map'), 'x');
  t.deepEqual(await wipe(dir, [...rust.wipePaths, ...minecraft.wipePaths]), ['world']);
  t.true(await exists(join(outside, 'main', 'x.map')));
  t.true(await exists(join(outside, 'world', 'level.dat')));
  t.true(await exists(join(outside, 'precious.map')));
  t.true(await exists(join(dir, 'keep.txt')));
});

test('patterns that are absolute or climb out are refused before anything is deleted', async (t) => {
  const dir = await tree(['world/level.dat']);
  for (const pattern of ['/etc', '../x', 'world/../../x', '']) {
    await t.throwsAsync(wipe(dir, ['world', pattern]), { instanceOf: WipeError });
  }
  t.true(await exists(join(dir, 'world', 'level.dat')));
});
