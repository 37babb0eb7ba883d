/**
 * `npm run bench -- upgrade`: the rolling upgrade from the previous release under traffic
 * (test/upgrade/rollingUpgrade.roll.ts, docs/upgrades.md "The roll, tested"). It prints the roll's figures (jobs lost,
 * jobs run twice, requests failed, players disconnected, console lines lost, the roll's time) and then checks each
 * target (0), failing on any that is missed. It takes minutes and starts eight processes, so it is a benchmark run on
 * demand, not part of `npm test`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// ava's own command line, under this Node.js (24, the project's).
const cli = fileURLToPath(new URL('../../node_modules/ava/entrypoints/cli.js', import.meta.url));
const child = spawn(process.execPath, [cli, '--config', 'test/bench/ava.upgrade.config.mjs'], { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
