/**
 * The programs an agent reports in its host facts are stored with its machine and shown in its record; an INSTALL of a
 * server whose template needs one the machine lacks is refused at once (409 naming each), before any job exists; so is
 * the creation of a server that would be installed at once.
 */
import test from 'ava';
import { sql } from 'slonik';
import { z } from 'zod';
import { body, json, useTestApp } from '../support/app.ts';
import { createCluster, signUp } from '../support/identity.ts';
import { createMachineStore } from '../../orchestrator/gateway/machineStore.ts';

const app = useTestApp(test);

const document = {
  id: 'needs-tools',
  name: 'Needs tools',
  start: { command: './game' },
  ready: { mode: 'IMMEDIATE' },
  stop: { mode: 'SIGNAL', signal: 'SIGINT' },
  console: { mode: 'NONE' },
  ports: [{ name: 'game', protocol: 'udp' }],
  install: { steps: [{ type: 'script', script: 'true' }], tools: ['curl', 'jq', 'unzip', 'wine64'] },
};

test("the agent's tools are stored with the machine, shown, and an INSTALL needing a missing one is a 409 naming it", async (t) => {
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const machine = (await body(await app().request(`/api/v1/clusters/${clusterId}/machines`, json({ name: 'm' }, { headers: owner.auth })))) as {
    id: string;
    tools?: string[] | null;
  };
  t.is(machine.tools, null, 'not reported yet');
  const template = (await body(await app().request(`/api/v1/clusters/${clusterId}/templates`, json(document, { headers: owner.auth })))) as { id: string };
  const created = await app().request(
    `/api/v1/clusters/${clusterId}/servers`,
    json(
      { name: 's', machineId: machine.id, gameType: 'CUSTOM', templateId: template.id, gamePort: 33001, queryPort: 33002, rconPort: 33003, autoInstall: false },
      { headers: owner.auth },
    ),
  );
  t.is(created.status, 201, JSON.stringify(await body(created.clone())));
  const server = (await body(created)) as { id: string };
  const install = () => app().request(`/api/v1/servers/${server.id}/install`, { method: 'POST', headers: owner.auth });

  // Not reported: the service does not judge (the agent checks before the first step).
  const first = await install();
  t.is(first.status, 202, JSON.stringify(await body(first.clone())));
  await app().request(`/api/v1/jobs/${((await body(first)) as { id: string }).id}/cancel`, { method: 'POST', headers: owner.auth });

  const store = createMachineStore(app().pool);
  await store.recordHeartbeat(machine.id, {
    metrics: { cpuPercent: 1, memoryUsedBytes: 1, diskUsedBytes: 1 },
    uptime: 1,
    host: { hostname: 'h', os: 'Linux', cpuCount: 2, memoryBytes: 1024, tools: ['unzip', 'curl', 'tar'] },
  });
  const shown = (await body(await app().request(`/api/v1/machines/${machine.id}`, { headers: owner.auth }))) as { tools: string[] };
  t.deepEqual(shown.tools, ['curl', 'tar', 'unzip']);
  // A heartbeat without host facts keeps them.
  await store.recordHeartbeat(machine.id, { metrics: { cpuPercent: 1, memoryUsedBytes: 1, diskUsedBytes: 1 }, uptime: 2 });
  t.deepEqual(((await body(await app().request(`/api/v1/machines/${machine.id}`, { headers: owner.auth }))) as { tools: string[] }).tools, [
    'curl',
    'tar',
    'unzip',
  ]);

  const refused = await install();
  t.is(refused.status, 409);
  const message = ((await body(refused)) as { message: string }).message;
  t.regex(message, /lacks what the template's install needs: jq\./);
  // wine64 is not a program agents report: its absence from the report says nothing, so it is not named (the agent
  // looks for it before the first step).
  t.notRegex(message, /wine64/);

  // A server created to be installed at once meets the same refusal, and is not created.
  const count = () => app().pool.oneFirst(sql.type(z.object({ count: z.number() }))`SELECT count(*)::int AS count FROM servers`);
  const before = await count();
  for (const autoInstall of [true, undefined]) {
    const create = await app().request(
      `/api/v1/clusters/${clusterId}/servers`,
      json(
        { name: 'auto', machineId: machine.id, gameType: 'CUSTOM', templateId: template.id, gamePort: 33011, queryPort: 33012, rconPort: 33013, autoInstall },
        { headers: owner.auth },
      ),
    );
    t.is(create.status, 409, `autoInstall ${autoInstall}`);
    t.regex(((await body(create)) as { message: string }).message, /lacks what the template's install needs: jq\. .*autoInstall: false/);
  }
  t.is(await count(), before, 'no server was made');

  // The seed's gameType-only create: Minecraft's install only downloads its jar, so a machine without java (it needs it
  // to start, not to install) still gets the server, installed at once.
  const minecraft = await app().request(
    `/api/v1/clusters/${clusterId}/servers`,
    json({ name: 'mc', machineId: machine.id, gameType: 'MINECRAFT', gamePort: 33021, queryPort: 33022, rconPort: 33023 }, { headers: owner.auth }),
  );
  t.is(minecraft.status, 201, JSON.stringify(await body(minecraft.clone())));
});
