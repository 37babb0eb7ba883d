/**
 * A server's `templateVersion` as its agent reports it (docs/templates.md#versions): stored only when the report names
 * the server's own template and a version no later than that template's latest, and only from the agent of the
 * machine the server is on (a machine it was transferred away from must not write it).
 */
import test from 'ava';
import { sql } from 'slonik';
import { z } from 'zod';
import { body, json, useTestApp } from '../support/app.ts';
import { createCluster, signUp } from '../support/identity.ts';
import { createMachineStore } from '../../orchestrator/gateway/machineStore.ts';
import { builtInVersions } from '../../orchestrator/templates/catalogue.ts';

const app = useTestApp(test);

test("a reported template version is stored only for the server's template, up to its latest, from its machine", async (t) => {
  const owner = await signUp(app());
  const clusterId = await createCluster(app(), owner);
  const machine = async (name: string) =>
    ((await body(await app().request(`/api/v1/clusters/${clusterId}/machines`, json({ name }, { headers: owner.auth })))) as { id: string }).id;
  const [here, elsewhere] = [await machine('here'), await machine('elsewhere')];
  const created = await app().request(
    `/api/v1/clusters/${clusterId}/servers`,
    json(
      { name: 'mc', machineId: here, gameType: 'MINECRAFT', gamePort: 34001, queryPort: 34002, rconPort: 34003, autoInstall: false },
      { headers: owner.auth },
    ),
  );
  t.is(created.status, 201);
  const server = (await body(created)) as { id: string; templateId: string; templateVersion: number };
  const latest = builtInVersions()[server.templateId]!;
  t.true(latest >= 2, 'the built-in has had more than one version');
  t.is(server.templateVersion, latest);

  const store = createMachineStore(app().pool);
  const stored = () => app().pool.oneFirst(sql.type(z.object({ v: z.number().nullable() }))`SELECT template_version AS v FROM servers WHERE id = ${server.id}`);
  const report = (machineId: string, fields: { templateId?: string; templateVersion?: number }) =>
    store.recordServerStatus(machineId, { serverId: server.id, status: 'ONLINE', at: new Date().toISOString(), ...fields }, 1);

  t.true(await report(here, { templateId: 'minecraft-vanilla', templateVersion: 1 }));
  t.is(await stored(), 1, 'an older version of its own template: what runs');
  await report(here, { templateId: 'rust', templateVersion: latest });
  t.is(await stored(), 1, "another template's version is not this one's");
  await report(here, { templateId: 'minecraft-vanilla', templateVersion: latest + 1 });
  t.is(await stored(), 1, 'a version the template never had');
  await report(here, { templateVersion: latest });
  t.is(await stored(), 1, 'a version without the template it is of');
  t.false(await report(elsewhere, { templateId: 'minecraft-vanilla', templateVersion: latest }), 'not on that machine');
  t.is(await stored(), 1, "another machine's agent does not write it");
  await report(here, { templateId: 'minecraft-vanilla', templateVersion: latest });
  t.is(await stored(), latest);
});
