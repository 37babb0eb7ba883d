/**
 * CI's check of the expand → migrate → contract rules (sql/migrationRules.ts): every migration newer than the last
 * released one passes, or is excused by the reviewed allow-list, whose entries each still excuse something; and each
 * rule is proven on scratch SQL, both what it refuses and what it lets through.
 */
import { readFile } from 'node:fs/promises';
import test from 'ava';
import { listMigrations, MIGRATIONS_DIR } from '../../sql/migrate.ts';
import { ALLOWED, BIG_TABLES, lintMigration, lintNewMigrations, RELEASED_MIGRATIONS, RULES, tablesCreated, type RuleId } from '../../sql/migrationRules.ts';

async function realMigrations() {
  return Promise.all(
    (await listMigrations()).map(async (migration) => ({ ...migration, text: await readFile(new URL(migration.file, MIGRATIONS_DIR), 'utf8') })),
  );
}

test('every migration newer than the last release keeps the previous release working, or is in the reviewed allow-list', async (t) => {
  const migrations = await realMigrations();
  t.true(migrations.length >= RELEASED_MIGRATIONS, 'the recorded baseline is a migration that exists');
  const result = lintNewMigrations(migrations);
  t.deepEqual(
    result.violations.map((violation) => violation.message),
    [],
  );
  t.deepEqual(result.stale, [], 'every allow-list entry still excuses a statement');
  for (const entry of ALLOWED) t.true(entry.reason.length >= 20, `${entry.file}: the allow-list says why`);
  t.log(`linted ${result.linted.length} migrations newer than ${RELEASED_MIGRATIONS}: ${result.linted.join(', ') || 'none yet'}`);
});

test('the previous release has the tables the rules protect, and the big tables exist', async (t) => {
  const migrations = await realMigrations();
  const released = tablesCreated(migrations.filter((migration) => migration.id <= RELEASED_MIGRATIONS).map((migration) => migration.text));
  for (const table of ['clusters', 'servers', 'jobs', 'players', 'player_sessions']) t.true(released.has(table), table);
  for (const table of BIG_TABLES) t.true(released.has(table), `${table} is a table`);
});

const released = new Set(['clusters', 'servers', 'jobs', 'players', 'player_sessions', 'events']);
const rulesOf = (sql: string) => lintMigration('000099_scratch.sql', sql, released).map((violation) => violation.rule);

test('proofs: each rule refuses its statement', (t) => {
  const refused: [string, RuleId[]][] = [
    ['ALTER TABLE clusters DROP COLUMN description;', ['drop-column']],
    ['ALTER TABLE public.clusters DROP description, ADD COLUMN note text;', ['drop-column']],
    ['alter table if exists "clusters" drop column if exists description cascade;', ['drop-column']],
    ['DROP TABLE servers;', ['drop-table']],
    ['DROP TABLE IF EXISTS scratch_new, jobs CASCADE;', ['drop-table']],
    ['ALTER TABLE servers RENAME COLUMN name TO title;', ['rename']],
    ['ALTER TABLE servers RENAME TO game_servers;', ['rename']],
    ['ALTER TABLE servers ALTER COLUMN name SET NOT NULL;', ['set-not-null']],
    ['ALTER TABLE servers ALTER name TYPE varchar(40);', ['alter-type']],
    ['ALTER TABLE servers ALTER COLUMN name SET DATA TYPE text;', ['alter-type']],
    ['ALTER TABLE servers ALTER COLUMN name DROP DEFAULT;', ['drop-default']],
    ['ALTER TABLE servers ADD COLUMN region text NOT NULL;', ['not-null-without-default']],
    ['ALTER TABLE servers ADD COLUMN IF NOT EXISTS a int, ADD COLUMN b int NOT NULL;', ['not-null-without-default']],
    ['CREATE INDEX players_name_idx ON players (name);', ['index-not-concurrently']],
    ['CREATE UNIQUE INDEX IF NOT EXISTS x ON ONLY public.player_sessions (id);', ['index-not-concurrently']],
    ['ALTER TABLE jobs ADD CONSTRAINT jobs_positive CHECK (attempts >= 0);', ['constraint-validated-under-lock']],
    ['ALTER TABLE players ADD COLUMN owner uuid REFERENCES users (id);', ['constraint-validated-under-lock']],
    [
      'ALTER TABLE servers\n  DROP COLUMN a, -- a comment; with a semicolon\n  RENAME COLUMN b TO c;\nCREATE INDEX ON events (at);',
      ['drop-column', 'rename', 'index-not-concurrently'],
    ],
  ];
  for (const [sql, rules] of refused) t.deepEqual(rulesOf(sql), rules, sql);
  // Each rule has a proof above.
  t.deepEqual(new Set(refused.flatMap(([, rules]) => rules)), new Set(Object.keys(RULES)));
});

test('proofs: what the rules let through', (t) => {
  for (const sql of [
    "ALTER TABLE servers ADD COLUMN region text NOT NULL DEFAULT 'eu';",
    'ALTER TABLE servers ADD COLUMN note text;',
    'ALTER TABLE servers ADD COLUMN total int GENERATED ALWAYS AS (1) STORED NOT NULL;',
    'ALTER TABLE servers DROP CONSTRAINT servers_name_key;',
    'ALTER TABLE servers ALTER COLUMN name DROP NOT NULL;',
    "ALTER TABLE servers ALTER COLUMN name SET DEFAULT 'x';",
    'ALTER TABLE servers RENAME CONSTRAINT a TO b;',
    'CREATE INDEX CONCURRENTLY players_name_idx ON players (name);',
    'CREATE INDEX servers_name_idx ON servers (name);',
    'ALTER TABLE jobs ADD CONSTRAINT jobs_positive CHECK (attempts >= 0) NOT VALID;',
    'ALTER TABLE jobs VALIDATE CONSTRAINT jobs_positive;',
    // A table the same release created: no running code uses it yet.
    'CREATE TABLE scratch_new (id int); ALTER TABLE scratch_new DROP COLUMN id; DROP TABLE scratch_new;',
    'ALTER TABLE scratch_new RENAME TO scratch_newer; ALTER TABLE scratch_newer ADD COLUMN a int NOT NULL;',
    // Words in comments and in a DO block's body are not statements.
    '-- ALTER TABLE servers DROP COLUMN name;\n/* DROP TABLE jobs; */ SELECT 1;',
    "DO $$ BEGIN EXECUTE 'SELECT 1'; END $$;",
  ]) {
    t.deepEqual(rulesOf(sql), [], sql);
  }
});

test('proofs: the allow-list excuses a reviewed statement; a contract one only in a migration with compatible-down-to; a stale entry is named', (t) => {
  const base = [{ id: 1, file: '000001_base.sql', text: 'CREATE TABLE servers (id int, name text, legacy text);' }];
  const drop = { id: 2, file: '000002_drop_legacy.sql', text: 'ALTER TABLE servers DROP COLUMN legacy;' };
  const reason = 'no release since 000001 reads servers.legacy';
  // Not allowed: refused, naming the file and the rule's why.
  const refused = lintNewMigrations([...base, drop], { released: 1, allowed: [] });
  t.deepEqual(refused.linted, ['000002_drop_legacy.sql']);
  t.deepEqual(
    refused.violations.map((violation) => violation.message),
    ['000002_drop_legacy.sql: "DROP COLUMN legacy" on servers drops a column the previous release may read or write'],
  );
  // Allowed, but without the contract header: still refused, saying what is missing.
  const allowed = [{ file: drop.file, rule: 'drop-column' as const, reason }];
  const headerless = lintNewMigrations([...base, drop], { released: 1, allowed });
  t.regex(headerless.violations[0]!.message, /a contract migration must start with "-- compatible-down-to: NNNNNN"/);
  // Allowed, with the header: passes.
  const contract = { ...drop, text: `-- compatible-down-to: 000002\n${drop.text}` };
  t.deepEqual(lintNewMigrations([...base, contract], { released: 1, allowed }), { linted: [drop.file], violations: [], stale: [] });
  // A non-contract rule needs no header: an index on a big table, allowed with its reason.
  const index = { id: 2, file: '000002_index.sql', text: 'CREATE TABLE jobs (id int); CREATE INDEX jobs_id ON jobs (id);' };
  t.deepEqual(lintNewMigrations([base[0]!, index], { released: 1, allowed: [{ file: index.file, rule: 'index-not-concurrently', reason }] }).violations, []);
  // An entry that excuses nothing is stale.
  t.deepEqual(lintNewMigrations([...base, contract], { released: 2, allowed }).stale, allowed);
});
