/**
 * `npm run bench -- <name>`: runs bench/<name>.ts. Each benchmark measures our code side by side with its baseline in
 * one run and prints both with their ratio. Figures depend on the machine; they are not pass/fail tests.
 */
import { readdir } from 'node:fs/promises';

const name = process.argv[2];
const available = (await readdir(new URL('.', import.meta.url)))
  .filter((file) => file.endsWith('.ts') && file !== 'run.ts')
  .map((file) => file.replace(/\.ts$/, ''));
if (!name || !available.includes(name)) {
  process.stderr.write(`usage: npm run bench -- <${available.join('|')}>\n`);
  process.exit(2);
}
await import(`./${name}.ts`);
