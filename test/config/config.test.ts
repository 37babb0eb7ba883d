import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../schema/config.ts';
import { generatePasetoKey, loadSecrets } from '../../api/identity/secrets.ts';

test('defaults apply when nothing is set', (t) => {
  const config = loadConfig({});
  t.is(config.PORT, 3000);
  t.is(config.HOST, '0.0.0.0');
  t.is(config.ROLE, 'all');
  t.is(config.DATA_DIR, './data');
  t.is(config.DATABASE_URL, undefined);
  t.is(config.LOG_LEVEL, 'info');
  t.is(config.publicUrl, 'http://localhost:3000');
});

test('values are parsed and empty variables count as unset', (t) => {
  const config = loadConfig({ PORT: '8080', TRUST_PROXY: 'true', PUBLIC_URL: 'https://games.example.org/', DATABASE_URL: '', DATABASE_POOL_SIZE: '25' });
  t.is(config.PORT, 8080);
  t.true(config.TRUST_PROXY);
  t.is(config.publicUrl, 'https://games.example.org');
  t.is(config.DATABASE_URL, undefined);
  t.is(config.DATABASE_POOL_SIZE, 25);
});

test('an invalid value is an error naming every bad variable', (t) => {
  const error = t.throws(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', ROLE: 'boss', PASETO_KEY: 'short' }), { instanceOf: ConfigError });
  for (const name of ['PORT', 'DATABASE_URL', 'ROLE', 'PASETO_KEY']) t.regex(error!.message, new RegExp(`\\b${name}\\b`));
  t.throws(() => loadConfig({ PORT: '70000' }), { message: /PORT/ });
  t.throws(() => loadConfig({ TRUST_PROXY: 'maybe' }), { message: /TRUST_PROXY/ });
  t.throws(() => loadConfig({ SMTP_URL: 'http://mail.example.com' }), { message: /SMTP_URL: expected an smtp:\/\/ or smtps:\/\/ URL/ });
  t.is(loadConfig({ SMTP_URL: 'smtps://user:pass@mail.example.com:465' }).SMTP_URL, 'smtps://user:pass@mail.example.com:465');
});

test('the service refuses to start on an invalid setting, naming the variable', (t) => {
  const result = spawnSync(process.execPath, ['main.ts'], { env: { ...process.env, PORT: 'not-a-port', DATABASE_URL: '' }, encoding: 'utf8', timeout: 30_000 });
  t.is(result.status, 1);
  t.regex(result.stderr, /PORT: expected a port number/);
});

test('the PASETO key is generated once, kept under DATA_DIR with mode 0600, and reused', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-secrets-'));
  const first = await loadSecrets({ dataDir });
  t.regex(first.pasetoKey, /^k4\.local\.[A-Za-z0-9_-]{43}$/);
  const file = join(dataDir, 'secrets', 'paseto-key');
  t.is((await stat(file)).mode & 0o777, 0o600);
  t.is((await stat(join(dataDir, 'secrets'))).mode & 0o777, 0o700);
  t.is((await readFile(file, 'utf8')).trim(), first.pasetoKey);
  t.deepEqual(await loadSecrets({ dataDir }), first);
  // Given in the environment, it wins and nothing is written.
  const given = generatePasetoKey();
  t.is((await loadSecrets({ dataDir: join(dataDir, 'other'), pasetoKey: given })).pasetoKey, given);
});

test('processes starting at once agree on one generated key', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'gsm-secrets-'));
  const keys = await Promise.all(Array.from({ length: 8 }, () => loadSecrets({ dataDir })));
  t.is(new Set(keys.map((secrets) => secrets.pasetoKey)).size, 1);
});
