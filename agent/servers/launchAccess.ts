/**
 * Before a server starts as its own account (docs/agent.md#least-privilege), the files its command line names are
 * checked as that account: the program must be executable and every existing file or directory it names readable.
 * A game that cannot read its script fails later with a misleading message (`Cannot find module …`); this says
 * which account and which path instead. Everything is looked at by the account itself, in a helper with a minimal
 * environment (not the agent's token or keys): root tells nothing about paths the account cannot see itself.
 */
import { isAbsolute, resolve } from 'node:path';
import { runAs, type Account } from './accounts.ts';

/**
 * For each `<x|r>:<path>` argument, as the account: a path it sees that is not executable (x) or readable (r) prints
 * `<n> <x|r>`; a path it does not see prints `<n> s <dir>` when the nearest directory above it that it sees is one it
 * may not enter (so the path may exist, behind it). `n` counts the arguments from 0.
 */
const CHECK_SCRIPT = [
  'n=0',
  'for entry; do',
  '  path=${entry#?:}',
  '  if [ -e "$path" ]; then',
  '    case $entry in x:*) [ -x "$path" ] || echo "$n x";; *) [ -r "$path" ] || echo "$n r";; esac',
  '  else',
  '    dir=${path%/*}',
  '    while [ -n "$dir" ] && [ ! -e "$dir" ]; do dir=${dir%/*}; done',
  '    [ -n "$dir" ] && [ -d "$dir" ] && [ ! -x "$dir" ] && echo "$n s $dir"',
  '  fi',
  '  n=$((n + 1))',
  'done',
  'exit 0',
].join('\n');
/** Arguments longer than this are not paths worth checking (a JSON blob, a long option). */
const MAX_PATH_CHARS = 4096;

/** How long the check as the account may take. */
const ACCESS_CHECK_TIMEOUT_MS = 10_000;

/** What a path argument would be resolved against by the game: its working directory, the server's directory. */
const pathOf = (cwd: string, argument: string) => (isAbsolute(argument) ? argument : resolve(cwd, argument));

/**
 * The first problem `account` would have running `launch` in `cwd`, as a sentence naming the account and the path;
 * undefined when it can read and run everything. A program found through PATH (`java`) is the system's and is not checked.
 */
export async function launchAccessProblem(launch: { command: string; args: string[] }, cwd: string, account: Account): Promise<string | undefined> {
  const checks: string[] = [];
  if (launch.command.includes('/')) checks.push(`x:${pathOf(cwd, launch.command)}`);
  for (const argument of launch.args) {
    if (argument === '' || argument.length > MAX_PATH_CHARS || argument.startsWith('-') || argument.includes('\0')) continue;
    // What may name a file (`server.js`, `./cfg`, `/srv/x`); `+map` or `nogui` do not. Whether it exists, the account says.
    if (argument.includes('/') || argument.includes('.')) checks.push(`r:${pathOf(cwd, argument)}`);
  }
  if (checks.length === 0) return undefined;
  // Bounded (runAs's time-out): a process of the account still running could stop this shell; the start must not wait.
  const checked = await runAs(account, '/bin/sh', ['-c', CHECK_SCRIPT, 'gsm-access', ...checks], { output: true, timeoutMs: ACCESS_CHECK_TIMEOUT_MS });
  if (checked.error || checked.code !== 0)
    throw checked.error ?? new Error(`the access check as ${account.name} failed: ${checked.stderr || `exit ${checked.code}`}`);
  const failed = checked.stdout;
  const first = failed.split('\n').find((line) => line !== '');
  if (!first) return undefined;
  const [index, kind, ...rest] = first.split(' ');
  const entry = checks[Number(index)]!;
  const path = entry.slice(2);
  const what = entry.startsWith('x:') ? 'run' : 'read';
  const why = kind === 's' ? `permission denied: it may not enter ${rest.join(' ')}` : 'permission denied';
  return `the server runs as the account ${account.name}, which cannot ${what} ${path} (${why}): give that account access, or move the file into the server's directory`;
}
