/**
 * Before a server starts as its own account (docs/agent.md#least-privilege), the files its command line names are
 * checked as that account: the program must be executable and every existing file or directory it names readable.
 * A game that cannot read its script fails later with a misleading message (`Cannot find module …`); this says
 * which account and which path instead.
 */
import { execFile } from 'node:child_process';
import { lstat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { Account } from './accounts.ts';

/** Checks each `<x|r>:<path>` argument with test(1), as the account; prints the ones that fail. */
const CHECK_SCRIPT = 'for entry; do path=${entry#?:}; case $entry in x:*) [ -x "$path" ] || echo "$entry";; *) [ -r "$path" ] || echo "$entry";; esac; done';
/** Arguments longer than this are not paths worth checking (a JSON blob, a long option). */
const MAX_PATH_CHARS = 4096;

/** What a path argument would be resolved against by the game: its working directory, the server's directory. */
const pathOf = (cwd: string, argument: string) => (isAbsolute(argument) ? argument : resolve(cwd, argument));
const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );

/**
 * The first problem `account` would have running `launch` in `cwd`, as a sentence naming the account and the path;
 * undefined when it can read and run everything. A program found through PATH (`java`) is the system's and is not checked.
 */
export async function launchAccessProblem(launch: { command: string; args: string[] }, cwd: string, account: Account): Promise<string | undefined> {
  const checks: string[] = [];
  if (launch.command.includes('/')) {
    const program = pathOf(cwd, launch.command);
    if (await exists(program)) checks.push(`x:${program}`);
  }
  for (const argument of launch.args) {
    if (argument === '' || argument.length > MAX_PATH_CHARS || argument.startsWith('-') || argument.includes('\0')) continue;
    // Only what exists as a file is a path: `+map de_dust2` or `nogui` are not (checked by root, who sees everything).
    const path = pathOf(cwd, argument);
    if ((argument.includes('/') || argument.includes('.')) && (await exists(path))) checks.push(`r:${path}`);
  }
  if (checks.length === 0) return undefined;
  const failed = await new Promise<string>((done, fail) => {
    execFile('/bin/sh', ['-c', CHECK_SCRIPT, 'gsm-access', ...checks], { uid: account.uid, gid: account.gid, cwd: '/' }, (error, stdout) =>
      error ? fail(error) : done(stdout),
    );
  });
  const first = failed.split('\n').find((line) => line !== '');
  if (!first) return undefined;
  const path = first.slice(2);
  const what = first.startsWith('x:') ? 'run' : 'read';
  return `the server runs as the account ${account.name}, which cannot ${what} ${path} (permission denied): give that account access, or move the file into the server's directory`;
}
