/**
 * When tasks run, with fixed clocks: cron in IANA time zones across daylight-saving changes, missed occurrences, and
 * what a schedule may be.
 */
import test from 'ava';
import { canonicalTimezone, checkSchedule, handleOccurrence, nextRunAfter, ScheduleError } from '../../schema/schedule.ts';

/** Every occurrence in [from, to), counting from `from` as the scheduler does (each from the previous one). */
function occurrences(schedule: string, timezone: string, from: string, to: string): string[] {
  const found: string[] = [];
  let at = new Date(from);
  for (;;) {
    at = nextRunAfter(schedule, timezone, at);
    if (at.getTime() >= Date.parse(to)) return found;
    found.push(at.toISOString());
  }
}

test('a plain daily schedule in UTC and in a zone east and west of it', (t) => {
  t.is(nextRunAfter('0 4 * * *', 'UTC', new Date('2026-06-01T03:59:59.000Z')).toISOString(), '2026-06-01T04:00:00.000Z');
  t.is(nextRunAfter('0 4 * * *', 'UTC', new Date('2026-06-01T04:00:00.000Z')).toISOString(), '2026-06-02T04:00:00.000Z', 'strictly after');
  t.is(nextRunAfter('0 4 * * *', 'Europe/Berlin', new Date('2026-06-01T00:00:00.000Z')).toISOString(), '2026-06-01T02:00:00.000Z', 'CEST is UTC+2');
  t.is(nextRunAfter('0 4 * * *', 'America/New_York', new Date('2026-01-10T00:00:00.000Z')).toISOString(), '2026-01-10T09:00:00.000Z', 'EST is UTC-5');
  t.is(
    nextRunAfter('30 20 * * mon', 'Asia/Kolkata', new Date('2026-06-01T00:00:00.000Z')).toISOString(),
    '2026-06-01T15:00:00.000Z',
    'half-hour offset, day names',
  );
});

test('New York spring forward: 02:30 does not exist on 8 March 2026 and runs once, at 03:30 EDT', (t) => {
  const runs = occurrences('30 2 * * *', 'America/New_York', '2026-03-07T00:00:00Z', '2026-03-10T00:00:00Z');
  t.deepEqual(runs, ['2026-03-07T07:30:00.000Z', '2026-03-08T07:30:00.000Z', '2026-03-09T06:30:00.000Z']);
});

test('Berlin spring forward: 02:30 does not exist on 29 March 2026 and runs once, at 03:30 CEST', (t) => {
  const runs = occurrences('30 2 * * *', 'Europe/Berlin', '2026-03-28T00:00:00Z', '2026-03-31T00:00:00Z');
  t.deepEqual(runs, ['2026-03-28T01:30:00.000Z', '2026-03-29T01:30:00.000Z', '2026-03-30T00:30:00.000Z']);
});

test('New York fall back: 01:30 happens twice on 1 November 2026 and runs once, at the first (EDT)', (t) => {
  const runs = occurrences('30 1 * * *', 'America/New_York', '2026-10-31T00:00:00Z', '2026-11-03T00:00:00Z');
  t.deepEqual(runs, ['2026-10-31T05:30:00.000Z', '2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
});

test('Berlin fall back: 02:30 happens twice on 25 October 2026 and runs once, at the first (CEST)', (t) => {
  const runs = occurrences('30 2 * * *', 'Europe/Berlin', '2026-10-24T00:00:00Z', '2026-10-27T00:00:00Z');
  t.deepEqual(runs, ['2026-10-24T00:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
});

test('fall back, counted from inside the repeated hour (an edit at 01:10 EST): the 01:30 that already ran is not run again (cron-parser alone would)', (t) => {
  // 06:10Z is 01:10 EST, after 01:30 EDT (05:30Z) has run.
  t.is(nextRunAfter('30 1 * * *', 'America/New_York', new Date('2026-11-01T06:10:00Z')).toISOString(), '2026-11-02T06:30:00.000Z');
  t.is(nextRunAfter('30 2 * * *', 'Europe/Berlin', new Date('2026-10-25T01:10:00Z')).toISOString(), '2026-10-26T01:30:00.000Z');
  // Lord Howe Island goes back by half an hour.
  t.is(nextRunAfter('45 1 * * *', 'Australia/Lord_Howe', new Date('2026-04-04T15:00:00Z')).toISOString(), '2026-04-05T15:15:00.000Z');
});

test('hourly schedules keep firing every real hour through both changes', (t) => {
  const fallBack = occurrences('30 * * * *', 'America/New_York', '2026-11-01T04:00:00Z', '2026-11-01T08:00:00Z');
  t.deepEqual(
    fallBack,
    ['2026-11-01T04:30:00.000Z', '2026-11-01T05:30:00.000Z', '2026-11-01T06:30:00.000Z', '2026-11-01T07:30:00.000Z'],
    '01:30 EDT and 01:30 EST are two hours',
  );
  const springForward = occurrences('0 * * * *', 'Europe/Berlin', '2026-03-28T23:30:00Z', '2026-03-29T03:00:00Z');
  t.deepEqual(springForward, ['2026-03-29T00:00:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z']);
});

test('an occurrence handled on time, or less than one period late, runs; later it is missed; the next is in the future', (t) => {
  const scheduledAt = new Date('2026-06-01T04:00:00Z');
  t.like(handleOccurrence('0 4 * * *', 'UTC', scheduledAt, new Date('2026-06-01T04:00:01Z')), { decision: 'RUN', next: new Date('2026-06-02T04:00:00Z') });
  t.like(
    handleOccurrence('0 4 * * *', 'UTC', scheduledAt, new Date('2026-06-02T03:59:00Z')),
    { decision: 'RUN', next: new Date('2026-06-02T04:00:00Z') },
    '23 h 59 min late',
  );
  const missed = handleOccurrence('*/5 * * * *', 'UTC', scheduledAt, new Date('2026-06-01T04:12:00Z'));
  t.is(missed.decision, 'MISSED', 'twelve minutes late for a five-minute period');
  t.is(missed.next.toISOString(), '2026-06-01T04:15:00.000Z', 'not caught up one by one');
  t.is(handleOccurrence('*/5 * * * *', 'UTC', scheduledAt, new Date('2026-06-01T04:04:59Z')).decision, 'RUN');
  // The period is the one after this occurrence: a 02:30 run on the spring-forward day is 23 h before the next.
  t.is(handleOccurrence('30 2 * * *', 'America/New_York', new Date('2026-03-08T07:30:00Z'), new Date('2026-03-09T06:29:00Z')).decision, 'RUN');
  t.is(handleOccurrence('30 2 * * *', 'America/New_York', new Date('2026-03-08T07:30:00Z'), new Date('2026-03-09T06:31:00Z')).decision, 'MISSED');
});

test('schedules: five fields, in range, able to fire; time zones: IANA names in any case', (t) => {
  for (const bad of ['', '* * * *', '0 0 * * * *', '61 * * * *', '* 24 * * *', '0 0 30 2 *', 'H 4 * * *', '0 4 * * funday', '@daily']) {
    t.throws(() => checkSchedule(bad, 'UTC'), { instanceOf: ScheduleError }, bad);
  }
  for (const good of ['*/5 * * * *', '0 4 * * 1-5', '0 0 1 jan *', '15 3 * * sun', '0 0 L * *', '0 6,18 * * *'])
    t.notThrows(() => checkSchedule(good, 'UTC'), good);
  t.is(canonicalTimezone('europe/berlin'), 'Europe/Berlin');
  t.is(canonicalTimezone('UTC'), 'UTC');
  t.is(canonicalTimezone('utc'), 'UTC');
  t.is(canonicalTimezone('Europe/Kyiv'), 'Europe/Kyiv', 'an alias stays as given');
  t.is(nextRunAfter('0 4 * * *', 'Europe/Kyiv', new Date('2026-06-01T00:00:00Z')).toISOString(), '2026-06-01T01:00:00.000Z', 'and works (EEST is UTC+3)');
  t.is(canonicalTimezone('Mars/Olympus_Mons'), null);
  t.is(canonicalTimezone('../etc/passwd'), null);
});
