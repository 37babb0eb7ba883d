/**
 * Spending a rate-limit burst against the real clock. Tokens come back while the requests are being made (one every
 * 60 000 / perMinute ms), so on a loaded machine a request or two more than the burst may pass before the first
 * refusal. `spendBurst` sends until refused and says how many tokens the elapsed time can have brought back;
 * `assertBurst` then holds exactly (the burst, then 429) when nothing came back, and within that many otherwise. A
 * limit that is not enforced, or enforced per process instead of shared, still fails: far more would pass.
 */
import type { ExecutionContext } from 'ava';

export type Budget = { burst: number; perMinute: number };

/** docs/access.md budgets, written out (not imported from the limiter) so that the tests pin them. */
export const DOCUMENTED_BUDGETS = {
  FREE: { burst: 10, perMinute: 60 },
  SESSION: { burst: 20, perMinute: 100 },
  SIGN_IN: { burst: 10, perMinute: 10 },
  /** Failed authentications per client address. */
  AUTH_FAILURE: { burst: 30, perMinute: 30 },
  /** A FREE user's ceiling across all their API tokens: twice the tier. */
  FREE_USER: { burst: 20, perMinute: 120 },
} as const satisfies Record<string, Budget>;
export type Burst<T> = { answers: T[]; passed: number; refilled: number };

/** Sends `send(0)`, `send(1)`, … one at a time until `refusals` answers are 429 (or far past the burst). */
export async function spendBurst<T extends { status: number }>(send: (index: number) => Promise<T>, budget: Budget, refusals = 1): Promise<Burst<T>> {
  const answers: T[] = [];
  const started = performance.now();
  for (let index = 0; index < budget.burst * 3 + 10 && answers.filter((answer) => answer.status === 429).length < refusals; index++) {
    answers.push(await send(index));
  }
  const refilled = Math.floor((performance.now() - started) / (60_000 / budget.perMinute));
  return { answers, passed: answers.filter((answer) => answer.status !== 429).length, refilled };
}

/** The burst passed (no refusal before it), then refusals, with at most `refilled` more passes in all. */
export function assertBurst(t: ExecutionContext, spent: Burst<{ status: number }>, budget: Budget): void {
  const firstRefusal = spent.answers.findIndex((answer) => answer.status === 429);
  t.true(firstRefusal >= budget.burst, `the first refusal is answer ${firstRefusal}; the burst is ${budget.burst}`);
  t.is(spent.answers.at(-1)?.status, 429, 'refused in the end');
  t.true(
    spent.passed <= budget.burst + spent.refilled,
    `${spent.passed} passed: more than the burst of ${budget.burst} and the ${spent.refilled} tokens that came back meanwhile`,
  );
}

/** `X-RateLimit-Remaining` after the i-th pass: burst - 1 - i, plus at most the tokens that came back. */
export function assertRemaining(t: ExecutionContext, remaining: (string | null)[], spent: Burst<unknown>, budget: Budget): void {
  remaining.forEach((value, index) => {
    const floor = Math.max(0, budget.burst - 1 - index);
    t.true(Number(value) >= floor && Number(value) <= floor + spent.refilled, `remaining after answer ${index}: ${value}`);
  });
}
