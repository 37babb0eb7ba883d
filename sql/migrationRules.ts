/**
 * The expand → migrate → contract rules for migrations, checked in CI (test/sql/migrationRules.test.ts): a release's
 * migrations must not break the previous release's code running on the same database during a rolling upgrade, nor
 * hold locks that stop traffic on a big table. Every migration newer than the last released one
 * (`RELEASED_MIGRATIONS`) is linted statement by statement; a statement that breaks a rule fails the check unless the
 * reviewed allow-list (`ALLOWED`) names its file and rule with the reason, and a contract statement (one that removes
 * or changes what the previous release uses) must also be in a migration with a `-- compatible-down-to: NNNNNN`
 * header, so that older code refuses the database instead of failing on it. docs/upgrades.md.
 */

/**
 * The last migration of the previous release (main's commit 504d30d): its tables and columns are what the code still
 * running during an upgrade uses. Raise it to the release's last migration when a release is cut.
 */
export const RELEASED_MIGRATIONS = 31;

/**
 * Tables that grow with use (players and their sessions, events, jobs, audit, metrics, deliveries): a lock held while
 * such a table is scanned or rewritten stops traffic for as long, so their indexes are built `CONCURRENTLY` and their
 * constraints added `NOT VALID` (validated later without blocking writes).
 */
export const BIG_TABLES: readonly string[] = [
  'players',
  'player_sessions',
  'player_activity_days',
  'player_activity_changes',
  'player_presence',
  'events',
  'jobs',
  'audit_log',
  'server_metrics_minute',
  'server_metrics_hour',
  'machine_metrics_minute',
  'machine_metrics_hour',
  'webhook_deliveries',
  'idempotency_keys',
];

export const RULES = {
  'drop-column': 'drops a column the previous release may read or write',
  'drop-table': 'drops a table the previous release has',
  rename: 'renames a table or column the previous release uses',
  'set-not-null': 'makes an existing column NOT NULL: the previous release may insert NULL (and it scans the table under lock)',
  'alter-type': "changes a column's type: the previous release may write the old type (and the table is rewritten under lock)",
  'drop-default': "drops a column's default the previous release's inserts rely on",
  'not-null-without-default': 'adds a NOT NULL column without a DEFAULT to a table of the previous release: its inserts fail',
  'index-not-concurrently': 'builds an index on a big table without CONCURRENTLY: writes to the table wait for the whole build',
  'constraint-validated-under-lock': 'adds a constraint to a big table that scans it under lock: add it NOT VALID, then VALIDATE CONSTRAINT',
} as const;

export type RuleId = keyof typeof RULES;

/** Rules whose statement removes or changes what the previous release uses: allowed only in a contract migration. */
export const CONTRACT_RULES: ReadonlySet<RuleId> = new Set(['drop-column', 'drop-table', 'rename', 'set-not-null', 'alter-type', 'drop-default']);

/** The reviewed exceptions: a migration file, the rule it may break, and why that is safe. Keep it short. */
/**
 * An exception of ALLOWED. `previousReleaseUnaffected`: the statement breaks a contract rule in form only, because
 * something else keeps the previous release working (a trigger filling the new NOT NULL column for its inserts), so
 * the migration needs no `compatible-down-to` header; the previous release's smoke test (test/upgrade) is the proof.
 */
export type AllowedEntry = { file: string; rule: RuleId; reason: string; previousReleaseUnaffected?: true };

export const ALLOWED: readonly AllowedEntry[] = [
  {
    file: '000033_ports_query.sql',
    rule: 'set-not-null',
    reason: "server_ports.name: a BEFORE INSERT trigger (sql/functions/gsm_server_ports_name.sql) names the previous release's unnamed inserts; a small table",
    previousReleaseUnaffected: true,
  },
  {
    file: '000035_ssh_keys.sql',
    rule: 'set-not-null',
    reason: "users.handle: a BEFORE INSERT trigger (sql/functions/gsm_users_handle.sql) chooses one for the previous release's inserts; a small table",
    previousReleaseUnaffected: true,
  },
];

export type Violation = { file: string; rule: RuleId; statement: string; message: string };

/** SQL text without comments and dollar-quoted bodies (a DO block is opaque), as statements in one line each. */
export function statementsOf(text: string): string[] {
  const bare = text
    .replace(/\$([a-z_]*)\$[\s\S]*?\$\1\$/gi, "''")
    .replace(/--[^\n]*/g, '')
    .replace(/\/\*[\s\S]*?\*\//g, '');
  return bare
    .split(';')
    .map((statement) => statement.replace(/\s+/g, ' ').trim())
    .filter((statement) => statement.length > 0);
}

/** `public."Players"` → `players`. */
const tableName = (name: string) =>
  name
    .replace(/"/g, '')
    .replace(/^public\./i, '')
    .toLowerCase();

/** The comma-separated actions of an ALTER TABLE, split outside parentheses. */
function actionsOf(text: string): string[] {
  const actions: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) {
      actions.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim()) actions.push(current.trim());
  return actions;
}

/** The tables the migrations create (`CREATE TABLE [IF NOT EXISTS] name`). */
export function tablesCreated(texts: readonly string[]): Set<string> {
  const tables = new Set<string>();
  for (const text of texts) {
    for (const statement of statementsOf(text)) {
      const match = /^CREATE (?:UNLOGGED )?TABLE (?:IF NOT EXISTS )?([\w."]+)/i.exec(statement);
      if (match) tables.add(tableName(match[1]!));
    }
  }
  return tables;
}

/**
 * The rules `text` (the migration `file`) breaks. `released`: the tables the previous release has (changing a table
 * the same release created is free: no running code uses it yet).
 */
export function lintMigration(file: string, text: string, released: ReadonlySet<string>): Violation[] {
  const violations: Violation[] = [];
  const flag = (rule: RuleId, statement: string, what: string) => violations.push({ file, rule, statement, message: `${file}: ${what} ${RULES[rule]}` });
  for (const statement of statementsOf(text)) {
    const alter = /^ALTER TABLE (?:IF EXISTS )?(?:ONLY )?([\w."]+) (.*)$/i.exec(statement);
    if (alter) {
      const table = tableName(alter[1]!);
      const old = released.has(table);
      const big = BIG_TABLES.includes(table);
      for (const action of actionsOf(alter[2]!)) {
        const upper = action.toUpperCase();
        if (/^RENAME\b/.test(upper)) {
          if (old && !/^RENAME CONSTRAINT\b/.test(upper)) flag('rename', statement, `"${action}" on ${table}`);
        } else if (/^DROP (?!CONSTRAINT\b)(?:COLUMN )?(?:IF EXISTS )?[\w"]+/.test(upper)) {
          if (old) flag('drop-column', statement, `"${action}" on ${table}`);
        } else if (/^ALTER (?:COLUMN )?[\w"]+ SET NOT NULL\b/.test(upper)) {
          if (old) flag('set-not-null', statement, `"${action}" on ${table}`);
        } else if (/^ALTER (?:COLUMN )?[\w"]+ (?:SET DATA )?TYPE\b/.test(upper)) {
          if (old) flag('alter-type', statement, `"${action}" on ${table}`);
        } else if (/^ALTER (?:COLUMN )?[\w"]+ DROP DEFAULT\b/.test(upper)) {
          if (old) flag('drop-default', statement, `"${action}" on ${table}`);
        } else if (/^ADD (?!CONSTRAINT\b|PRIMARY\b|UNIQUE\b|CHECK\b|FOREIGN\b|EXCLUDE\b)/.test(upper)) {
          if (old && /\bNOT NULL\b/.test(upper) && !/\bDEFAULT\b/.test(upper) && !/\bGENERATED\b/.test(upper)) {
            flag('not-null-without-default', statement, `"${action}" on ${table}`);
          }
          if (big && /\b(REFERENCES|CHECK|UNIQUE|PRIMARY KEY)\b/.test(upper)) flag('constraint-validated-under-lock', statement, `"${action}" on ${table}`);
        } else if (/^ADD\b/.test(upper)) {
          if (big && !/\bNOT VALID\b/.test(upper)) flag('constraint-validated-under-lock', statement, `"${action}" on ${table}`);
        }
      }
      continue;
    }
    const drop = /^DROP TABLE (?:IF EXISTS )?(.+?)(?: CASCADE| RESTRICT)?$/i.exec(statement);
    if (drop) {
      for (const table of drop[1]!.split(',').map((name) => tableName(name.trim()))) {
        if (released.has(table)) flag('drop-table', statement, `"DROP TABLE ${table}"`);
      }
      continue;
    }
    const index = /^CREATE (?:UNIQUE )?INDEX (CONCURRENTLY )?(?:IF NOT EXISTS )?(?:[\w"]+ )?ON (?:ONLY )?([\w."]+)/i.exec(statement);
    if (index && !index[1] && BIG_TABLES.includes(tableName(index[2]!))) {
      flag('index-not-concurrently', statement, `an index on ${tableName(index[2]!)}:`);
    }
  }
  return violations;
}

/**
 * Lints the migrations newer than the last released one. `migrations`: every migration file, in order, with its text.
 * Answers the violations the allow-list does not excuse, and the allow-list entries that excuse nothing (stale).
 */
export function lintNewMigrations(
  migrations: readonly { id: number; file: string; text: string }[],
  options: { released?: number; allowed?: readonly AllowedEntry[] } = {},
): { linted: string[]; violations: Violation[]; stale: { file: string; rule: RuleId }[] } {
  const releasedUpTo = options.released ?? RELEASED_MIGRATIONS;
  const allowed = options.allowed ?? ALLOWED;
  const released = tablesCreated(migrations.filter((migration) => migration.id <= releasedUpTo).map((migration) => migration.text));
  const fresh = migrations.filter((migration) => migration.id > releasedUpTo);
  const all = fresh.flatMap((migration) => {
    const found = lintMigration(migration.file, migration.text, released);
    const contract = /^--\s*compatible-down-to:\s*\d{6}\s*$/m.test(migration.text);
    // An allowed contract statement still needs the migration to say which code can no longer run on the database.
    return found.map((violation) =>
      CONTRACT_RULES.has(violation.rule) &&
      !contract &&
      allowed.some((entry) => entry.file === violation.file && entry.rule === violation.rule && !entry.previousReleaseUnaffected)
        ? { ...violation, message: `${violation.message}; a contract migration must start with "-- compatible-down-to: NNNNNN"`, contractHeaderMissing: true }
        : violation,
    );
  });
  const excused = (violation: Violation & { contractHeaderMissing?: boolean }) =>
    !violation.contractHeaderMissing && allowed.some((entry) => entry.file === violation.file && entry.rule === violation.rule);
  return {
    linted: fresh.map((migration) => migration.file),
    violations: all.filter((violation) => !excused(violation)).map(({ file, rule, statement, message }) => ({ file, rule, statement, message })),
    stale: allowed.filter((entry) => !all.some((violation) => violation.file === entry.file && violation.rule === entry.rule)),
  };
}
