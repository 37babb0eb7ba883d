/**
 * A transfer and a START accepted at the same moment (docs/transfers.md#meanwhile): never both. The transfer's
 * transaction locks and updates the server's row; a START that arrives while it is open waits for it and is then
 * refused with 409 naming the transfer, though the transfer did not exist when the START's statement began. And in
 * many rounds of a transfer among concurrent STARTs, either the transfer is refused (a START came first) or every
 * START is.
 */
import test from 'ava';
import { sql } from 'slonik';
import { z } from 'zod';
import { body, json, startTestApp, type TestApp } from '../support/app.ts';
import { signUp, type TestUser } from '../support/identity.ts';
import { until } from '../support/wait.ts';
import { createFakeServer, freePorts, registerMachine } from '../support/agentProcess.ts';
import { startTransfer } from '../../orchestrator/transfers/store.ts';
import { transferBody } from '../../schema/transfers.ts';
import { SYSTEM_ORIGIN } from '../../schema/origin.ts';

let app: TestApp;
let owner: TestUser;
test.before(async () => {
  app = await startTestApp();
  owner = await signUp(app);
});
test.after.always(async () => {
  await app?.close();
});

const post = (path: string, payload: unknown = {}) => app.request(path, json(payload, { method: 'POST', headers: owner.auth }));

async function twoMachinesAndAServer() {
  const first = await registerMachine(app, owner);
  const second = await body(await post(`/api/v1/clusters/${first.clusterId}/machines`, { name: 'target' }));
  const server = await createFakeServer(app, owner, first.clusterId, first.machineId);
  return { clusterId: first.clusterId, serverId: server.id, targetId: second.id as string };
}

test.serial('a START that waited for a transfer’s transaction is refused with 409 naming the transfer', async (t) => {
  const { clusterId, serverId, targetId } = await twoMachinesAndAServer();
  const [game, query, rcon] = await freePorts(3);
  // The transfer's transaction stays open until the START waits for it (its queries are the transaction's own; the
  // test looks at the database from outside it).
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let opened: (pid: number) => void = () => {};
  const pidOf = new Promise<number>((resolve) => (opened = resolve));
  const transaction = app.pool.transaction(async (tx) => {
    const accepted = await startTransfer(tx, SYSTEM_ORIGIN, {
      clusterId,
      serverId,
      body: transferBody.parse({ machineId: targetId, allocations: { game, query, rcon } }),
    });
    opened(await tx.oneFirst(sql.type(z.object({ pid: z.number() }))`SELECT pg_backend_pid() AS pid`));
    await held;
    return accepted;
  });
  const pid = await pidOf;
  // The START's statement begins while the transfer is not committed, and waits for its lock on the server's row.
  const start = post(`/api/v1/servers/${serverId}/start`);
  await until(
    async () =>
      (await app.pool.oneFirst(sql.type(z.object({ waiting: z.number() }))`
        SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE ${pid}::int = ANY (pg_blocking_pids(pid))`)) > 0,
    'the START waiting for the transfer',
  );
  release();
  const job = await transaction;
  const answer = await start;
  const refused = await body(answer);
  t.is(answer.status, 409, JSON.stringify(refused));
  t.is(refused.code, 'TRANSFER_IN_PROGRESS');
  t.is(refused.jobId, job.id);
  const starts = await app.pool.oneFirst(sql.type(z.object({ count: z.number() }))`
    SELECT count(*)::int AS count FROM jobs WHERE server_id = ${serverId} AND type = 'START'`);
  t.is(starts, 0, 'no START job was written beside the transfer');
});

test.serial('a transfer among many concurrent STARTs: never both accepted', async (t) => {
  for (let round = 0; round < 6; round++) {
    const { serverId, targetId } = await twoMachinesAndAServer();
    const [game, query, rcon] = await freePorts(3);
    const starts = Array.from({ length: 12 }, () => post(`/api/v1/servers/${serverId}/start`));
    const transfer = post(`/api/v1/servers/${serverId}/transfer`, { machineId: targetId, allocations: { game, query, rcon } });
    const startAnswers = await Promise.all(starts);
    const transferAnswer = await transfer;
    const acceptedStarts = startAnswers.filter((answer) => answer.status === 202).length;
    for (const answer of startAnswers) t.true([202, 409].includes(answer.status), `START answered ${answer.status}`);
    const transferred = await body(transferAnswer);
    if (transferAnswer.status === 202) t.is(acceptedStarts, 0, `round ${round}: the transfer and ${acceptedStarts} START(s) were both accepted`);
    else {
      t.is(transferAnswer.status, 409, JSON.stringify(transferred));
      t.is(transferred.code, 'JOB_IN_PROGRESS');
      t.true(acceptedStarts > 0);
    }
    // What the database holds agrees: a transfer under way and a START job of the server never both.
    const both = await app.pool.oneFirst(sql.type(z.object({ both: z.boolean() }))`
      SELECT EXISTS (SELECT 1 FROM transfers WHERE server_id = ${serverId}) AND EXISTS (SELECT 1 FROM jobs WHERE server_id = ${serverId} AND type = 'START') AS both`);
    t.false(both);
  }
});
