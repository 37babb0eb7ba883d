/**
 * When a task runs: five-field cron expressions evaluated in an IANA time zone (cron-parser 5), as pure functions of
 * an instant, so that every rule here is tested with fixed clocks.
 *
 * Daylight saving, as cron does it:
 * - spring forward: a wall time that does not exist that day (02:30 in New York on the second Sunday of March) runs
 *   once, shifted forward by the gap (03:30 local);
 * - fall back: a fixed wall time that happens twice (01:30 in New York on the first Sunday of November) runs once, at
 *   its first pass. Expressions that fire every hour keep firing every (real) hour.
 *
 * cron-parser gets the fall-back rule right when it counts from before the repeated hour, but counting from an
 * instant inside the second pass (an edit at 01:10 EST, after 01:30 EDT has run) it answers the repeated 01:30 again.
 * `nextRunAfter` skips such a second-pass occurrence for expressions that do not fire every hour, so the answer does
 * not depend on when it is asked.
 */
import { CronExpressionParser, type CronExpression } from 'cron-parser';

/** cron-parser's hashed values (`H`) would make the schedule random; Quartz-style seconds are not cron. */
const HASHED = /(^|[^a-z])h([^a-z]|$)/i;
/** How far back a daylight-saving change is looked for (real changes are at most 2 hours). */
const DST_LOOKBACK_MS = 3 * 3600_000;

export class ScheduleError extends Error {}

function parse(schedule: string, timezone: string, from: Date): CronExpression {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5) throw new ScheduleError('expected a 5-field cron expression: minute hour day-of-month month day-of-week');
  if (HASHED.test(schedule)) throw new ScheduleError('hashed values (H) are not supported');
  try {
    return CronExpressionParser.parse(fields.join(' '), { tz: timezone, currentDate: from });
  } catch (error) {
    throw new ScheduleError((error as Error).message);
  }
}

/**
 * An IANA time zone name as stored: the zone's own spelling when given in another case (`europe/berlin` →
 * `Europe/Berlin`), a valid alias as given (`Europe/Kyiv` stays, though the ICU data may call it `Europe/Kiev`);
 * null when there is no such zone.
 */
export function canonicalTimezone(name: string): string | null {
  if (!/^[A-Za-z0-9_+\-/]{1,64}$/.test(name)) return null;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
  } catch {
    return null;
  }
}

/** Minutes east of UTC in `timezone` at `at`. */
function offsetMinutes(timezone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(at));
  const part = (type: string) => Number(parts.find((candidate) => candidate.type === type)!.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return Math.round((wall - (at - (at % 1000))) / 60_000);
}

/** Whether `at` is the second pass of a wall time that the clocks went back over (the same local time came before). */
function isRepeatedWallTime(timezone: string, at: number): boolean {
  const before = offsetMinutes(timezone, at - DST_LOOKBACK_MS);
  const now = offsetMinutes(timezone, at);
  if (before <= now) return false;
  const shift = (before - now) * 60_000;
  return offsetMinutes(timezone, at - shift) === before;
}

const firesEveryHour = (expression: CronExpression) => expression.fields.hour.values.length === 24;

/** Throws ScheduleError when `schedule` is not a valid 5-field cron expression that ever fires in `timezone`. */
export function checkSchedule(schedule: string, timezone: string, now: Date = new Date()): void {
  nextRunAfter(schedule, timezone, now);
}

/** The first occurrence strictly after `after`. */
export function nextRunAfter(schedule: string, timezone: string, after: Date): Date {
  const expression = parse(schedule, timezone, after);
  const everyHour = firesEveryHour(expression);
  for (;;) {
    let next: Date;
    try {
      next = expression.next().toDate();
    } catch (error) {
      throw new ScheduleError(`the schedule never fires (${(error as Error).message})`);
    }
    if (everyHour || !isRepeatedWallTime(timezone, next.getTime())) return next;
  }
}

export type Occurrence = { decision: 'RUN' | 'MISSED'; next: Date };

/**
 * What to do with the occurrence `scheduledAt` when it is handled at `now` (normally at once; later when the service
 * was down): run it if it is less than one period late (the time to the occurrence after it), otherwise it is missed.
 * Either way, `next` is the first occurrence after both `scheduledAt` and `now`, so missed occurrences are not
 * caught up one by one.
 */
export function handleOccurrence(schedule: string, timezone: string, scheduledAt: Date, now: Date): Occurrence {
  const following = nextRunAfter(schedule, timezone, scheduledAt);
  const period = following.getTime() - scheduledAt.getTime();
  const late = now.getTime() - scheduledAt.getTime();
  const next = following.getTime() > now.getTime() ? following : nextRunAfter(schedule, timezone, now);
  return { decision: late < period ? 'RUN' : 'MISSED', next };
}
