/**
 * One V8 setting for every process that moves bulk bytes (the service, the agent, its file helpers): files, transfers,
 * backups and console output pass through them as Buffers of tens to hundreds of KiB that live for a moment.
 *
 * From V8 13.6 (Node 24.0) the young-generation trigger for such buffers' memory moved above the fixed 64 MB soft
 * limit on external memory, so they are reclaimed by full mark-compacts of the whole heap instead of cheap scavenges
 * (nodejs/node#61967, #63863; V8 commit 789b37d5db1f). Measured here on a file download through the service: seven
 * mark-compacts a second, a quarter of a core, 5.2 ms of service CPU per MiB; with this setting 3.2 ms. The setting
 * counts external memory in V8's global heap limit instead, which is what V8 itself now does by default (not yet in a
 * Node release). Earlier V8s (Node 20, 22) do not have the regression, nor, in 20, the flag: nothing is set there.
 * A process started with the flag either way (`--no-external-memory-accounted-in-global-limit`) keeps its own choice.
 * When a Node release ships a V8 that made this the default and dropped the flag, V8 would print "unrecognized flag"
 * on standard error at every start: the check below must then stop at that version.
 */
import { setFlagsFromString } from 'node:v8';

const FLAG = '--external-memory-accounted-in-global-limit';

/** Whether this process's V8 has the regression (13.6 or later). */
export function hasExternalMemoryRegression(v8Version = process.versions.v8): boolean {
  const [major = 0, minor = 0] = v8Version.split('.').map(Number);
  return major > 13 || (major === 13 && minor >= 6);
}

let tuned = false;

/** Whether the process was started with the flag, either way (`--[no-]external-memory-accounted-in-global-limit`). */
const chosenAtStart = (execArgv = process.execArgv) => execArgv.some((arg) => /^--(no-)?external[-_]memory[-_]accounted[-_]in[-_]global[-_]limit/.test(arg));

/** Sets the flag once per process where it is needed (and not chosen at start); answers whether this set it. */
export function tuneGarbageCollector(): boolean {
  if (!tuned && hasExternalMemoryRegression() && !chosenAtStart()) {
    setFlagsFromString(FLAG);
    tuned = true;
  }
  return tuned;
}
