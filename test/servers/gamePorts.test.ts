/**
 * One source for a game's named ports: the plan of each game type's built-in template is the template's own ports
 * (no second list of extras in code), with the seed's game, query and rcon always held and apart; the table of
 * docs/servers.md says the same.
 */
import test from 'ava';
import { readFile } from 'node:fs/promises';
import { portPlanOf, templatePortPlan } from '../../schema/gamePorts.ts';
import type { GameType } from '../../schema/games.ts';
import { builtInCatalogue, GAME_TYPE_TEMPLATES } from '../../orchestrator/templates/catalogue.ts';

const describe = (gameType: GameType) => {
  const template = builtInCatalogue().byGameType.get(gameType)!;
  const plan = templatePortPlan(gameType, template);
  return { template, plan, offsets: Object.fromEntries(plan.ports.map((port) => [port.name, `${port.protocol} ${port.offset}`])) };
};

test('each game type’s plan is its built-in template’s ports: the seed’s three apart, the extras only those it declares', (t) => {
  for (const gameType of Object.keys(GAME_TYPE_TEMPLATES) as GameType[]) {
    const { template, plan } = describe(gameType);
    const names = plan.ports.map((port) => port.name);
    t.deepEqual(names.slice(0, 3), ['game', 'query', 'rcon'], gameType);
    t.deepEqual(
      names.slice(3).sort(),
      template.ports
        .map((port) => port.name)
        .filter((name) => !['game', 'query', 'rcon'].includes(name))
        .sort(),
      gameType,
    );
    const seeds = plan.ports.slice(0, 3).map((port) => port.offset);
    t.is(new Set(seeds).size, 3, `${gameType}: the seed's three ports differ`);
  }
  t.deepEqual(describe('RUST').offsets, { game: 'UDP 0', query: 'UDP 2', rcon: 'TCP 1', app: 'TCP 67' });
  t.deepEqual(describe('ARK_SURVIVAL_EVOLVED').offsets, { game: 'UDP 0', query: 'UDP 19238', rcon: 'TCP 19243', 'raw-udp': 'UDP 1' });
  t.deepEqual(describe('MINECRAFT').offsets, { game: 'TCP 0', query: 'UDP 1', rcon: 'TCP 10' });
  // CS2 answers A2S and RCON on its game port: the seed's query and rcon take the next free offsets.
  t.deepEqual(describe('CS2').offsets, { game: 'BOTH 0', query: 'UDP 1', rcon: 'TCP 2' });
  t.deepEqual(describe('VALHEIM').offsets, { game: 'UDP 0', query: 'UDP 1', rcon: 'TCP 2' });
  t.deepEqual(
    portPlanOf('CUSTOM').ports.map((port) => `${port.name} ${port.protocol} ${port.offset}`),
    ['game BOTH 0', 'query BOTH 1', 'rcon TCP 2'],
  );
  // A template that leaves the seed's ports out, or stacks them, still gets three distinct ones around its extras.
  const stacked = templatePortPlan('CUSTOM', {
    ports: [
      { name: 'game', protocol: 'udp' },
      { name: 'query', protocol: 'udp', offset: 0 },
      { name: 'voice', protocol: 'udp', offset: 1 },
    ],
  });
  t.deepEqual(
    stacked.ports.map((port) => `${port.name} ${port.offset}`),
    ['game 0', 'query 2', 'rcon 3', 'voice 1'],
  );
});

test('docs/servers.md’s table of the built-in plans matches the templates', async (t) => {
  const docs = await readFile(new URL('../../docs/servers.md', import.meta.url), 'utf8');
  const label = { TCP: 'TCP', UDP: 'UDP', BOTH: 'TCP+UDP' } as const;
  for (const gameType of Object.keys(GAME_TYPE_TEMPLATES) as GameType[]) {
    const { plan } = describe(gameType);
    const row = docs.split('\n').find((line) => line.startsWith(`| \`${gameType}\` (`));
    t.truthy(row, gameType);
    const cells = row!.split('|').map((cell) => cell.trim());
    for (const [index, name] of ['game', 'query', 'rcon'].entries()) {
      const port = plan.ports.find((entry) => entry.name === name)!;
      t.true(cells[index + 2]!.startsWith(`${label[port.protocol]}, +${port.offset}`), `${gameType} ${name}: ${cells[index + 2]}`);
    }
    const extras = plan.ports.slice(3).map((port) => `\`${port.name}\` ${label[port.protocol]} +${port.offset}`);
    t.is(cells[5], extras.join(', '), `${gameType} extras`);
  }
});
