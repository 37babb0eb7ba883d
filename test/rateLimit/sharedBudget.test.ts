import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { REDIS_URL, useTestRedis } from '../support/redis.ts';
import { assertBurst, assertRemaining, spendBurst, DOCUMENTED_BUDGETS } from '../support/burst.ts';

const { FREE } = DOCUMENTED_BUDGETS;

const redis = useTestRedis(test);

const SERVER_SCRIPT = fileURLToPath(new URL('../support/rateLimitServer.ts', import.meta.url));
const START_TIMEOUT_MS = 10_000;
/** The test is about the shared budget, not the deadline: a generous one keeps it independent of the machine's load. */
const COMMAND_TIMEOUT_MS = 5_000;

type Node = { child: ChildProcess; url: string };

/** One API node: its own process, its own Redis connection, the same key prefix as the other. */
async function startNode(): Promise<Node> {
  const child = spawn(process.execPath, [SERVER_SCRIPT, REDIS_URL, redis.prefix, String(COMMAND_TIMEOUT_MS)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const lines = createInterface({ input: child.stdout! });
  const timeout = AbortSignal.timeout(START_TIMEOUT_MS);
  try {
    const [line] = (await once(lines, 'line', { signal: timeout })) as [string];
    return { child, url: `http://127.0.0.1:${Number(line)}` };
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`rate-limit server did not start: ${stderr}`, { cause: error });
  }
}

async function stopNode({ child }: Node): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

const nodes: Node[] = [];
test.before(async () => {
  nodes.push(...(await Promise.all([startNode(), startNode()])));
});
test.after.always(async () => {
  await Promise.all(nodes.map(stopNode));
});

test('two API processes on one Redis share one budget: FREE burst 10 across both, then 429 from either', async (t) => {
  const spent = await spendBurst(
    async (i) => {
      const response = await fetch(`${nodes[i % 2]!.url}/ok`, { headers: { 'X-Client': 'alternating' } });
      await response.body?.cancel();
      return { node: i % 2, status: response.status, remaining: response.headers.get('x-ratelimit-remaining') };
    },
    FREE,
    2,
  );
  // One bucket, not two: ten passes across both nodes (two buckets would pass twenty), and each node sees the count
  // the other left.
  assertBurst(t, spent, FREE);
  assertRemaining(
    t,
    spent.answers.map((answer) => answer.remaining),
    spent,
    FREE,
  );
  const refusals = spent.answers.filter((answer) => answer.status === 429);
  t.is(refusals.length, 2);
  if (spent.refilled === 0) t.deepEqual(new Set(refusals.map((answer) => answer.node)), new Set([0, 1]), 'refused by either node');
});

test('another key has its own budget on both nodes', async (t) => {
  const first = await fetch(`${nodes[0]!.url}/ok`, { headers: { 'X-Client': 'someone-else' } });
  const second = await fetch(`${nodes[1]!.url}/ok`, { headers: { 'X-Client': 'someone-else', 'X-Bucket': 'PRO' } });
  t.is(first.status, 200);
  t.is(first.headers.get('x-ratelimit-remaining'), '9');
  t.is(second.status, 200);
  t.is(second.headers.get('x-ratelimit-limit'), '300');
  t.is(second.headers.get('x-ratelimit-remaining'), '49');
});
