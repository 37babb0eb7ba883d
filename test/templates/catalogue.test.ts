/**
 * The built-in catalogue (docs/templates.md): every file validates, its samples match its patterns and its chat lines
 * match none, the seed's game types each have theirs, and a broken file stops the load naming it.
 */
import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATALOGUE_DIR, CatalogueError, GAME_TYPE_TEMPLATES, loadCatalogue } from '../../orchestrator/templates/catalogue.ts';
import { sampleProblems, templateDocument } from '../../schema/template.ts';

const catalogue = loadCatalogue();

test('every built-in template validates, and each seed game type has its own', (t) => {
  const files = readdirSync(CATALOGUE_DIR).filter((name) => name.endsWith('.json'));
  t.is(catalogue.templates.size, files.length);
  for (const [gameType, id] of Object.entries(GAME_TYPE_TEMPLATES)) t.is(catalogue.byGameType.get(gameType as never)?.id, id);
});

for (const template of loadCatalogue().templates.values()) {
  test(`${template.id}: samples match its patterns, chat matches none`, (t) => {
    t.deepEqual(sampleProblems(template), []);
    if (template.ready.mode === 'LINE') t.true((template.samples?.ready.length ?? 0) > 0, 'a LINE ready pattern has sample ready lines');
    if (template.players.join)
      t.true((template.samples?.join.length ?? 0) > 0 && (template.samples?.chat.length ?? 0) > 0, 'join patterns come with join and chat samples');
    t.true(template.sources.length > 0, 'its facts name their sources');
  });
}

test('the samples check fails when a pattern is broken: a chat line matched, a join not', (t) => {
  const minecraft = catalogue.templates.get('minecraft-vanilla')!;
  const loose = templateDocument.parse({ ...minecraft, players: { ...minecraft.players, join: '(?<name>[A-Za-z0-9_]{3,16}) joined the game' } });
  t.true(sampleProblems(loose).some((problem) => problem.startsWith('chat line matched by join')));
  const wrong = templateDocument.parse({ ...minecraft, players: { ...minecraft.players, join: '^(?<name>Steve) joined the game$' } });
  t.true(sampleProblems(wrong).some((problem) => problem.startsWith('join line not matched')));
});

test('a broken built-in stops the load, naming the file and the problem', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'gsm-catalogue-'));
  for (const file of readdirSync(CATALOGUE_DIR)) writeFileSync(join(dir, file), readFileSync(join(CATALOGUE_DIR, file)));
  const rust = JSON.parse(readFileSync(join(CATALOGUE_DIR, 'rust.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'rust.json'), JSON.stringify({ ...rust, ready: { mode: 'LINE', pattern: '(a+)+\\1' } }));
  const error = t.throws(() => loadCatalogue(dir), { instanceOf: CatalogueError });
  t.regex(error.message, /rust\.json: ready\.pattern: must run in linear time/);
  t.regex(error.message, /rust\.json: missing \(the built-in template of RUST\)/);
  writeFileSync(join(dir, 'rust.json'), JSON.stringify({ ...rust, start: { command: './RustDedicated {{NOPE}}' } }));
  t.regex(t.throws(() => loadCatalogue(dir), { instanceOf: CatalogueError }).message, /unknown placeholder \{\{NOPE\}\}/);
});
