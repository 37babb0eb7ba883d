/**
 * Whether a server's machine has what its template's install needs (docs/templates.md#tools): the programs of
 * `install.tools` (an UPDATE: `update.tools`, else the install's) against those its agent reported in its host facts.
 * A machine that has not reported them (an older agent) is not judged here: its agent checks before the first step. Nor
 * is a program outside KNOWN_TOOLS: agents report only those, so its absence from the report says nothing (the agent
 * looks for it on its PATH before the first step).
 */
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';
import { conflict } from '../../schema/errors.ts';
import { KNOWN_TOOLS } from '../../schema/tools.ts';
import { findTemplate } from './store.ts';

const row = z.object({
  clusterId: z.string(),
  templateId: z.string().nullable(),
  installCommand: z.string().nullable(),
  tools: z.array(z.string()).nullable(),
});

/** 409 naming every program the machine lacks for this INSTALL or UPDATE; nothing when it has them or did not say. */
export async function requireMachineTools(
  connection: CommonQueryMethods,
  serverId: string,
  type: 'INSTALL' | 'UPDATE',
  options: { atCreate?: boolean } = {},
): Promise<void> {
  const found = await connection.maybeOne(sql.type(row)`
    SELECT s.cluster_id AS "clusterId", s.template_id AS "templateId", s.install_command AS "installCommand", m.tools
      FROM servers s JOIN machines m ON m.id = s.machine_id WHERE s.id = ${serverId}`);
  // A server's own installCommand runs instead of the template's steps.
  if (!found || found.tools === null || found.templateId === null || found.installCommand !== null) return;
  const document = (await findTemplate(connection, [found.clusterId], found.templateId))?.document;
  const needed = (type === 'UPDATE' ? (document?.update ?? document?.install) : document?.install)?.tools ?? [];
  const has = new Set(found.tools);
  const reported: ReadonlySet<string> = new Set(KNOWN_TOOLS);
  const missing = needed.filter((tool) => reported.has(tool) && !has.has(tool));
  if (missing.length > 0)
    throw conflict(
      `The machine lacks what the template's install needs: ${missing.join(', ')}. Install them on the machine (its agent reports its programs within a minute), then try again${
        options.atCreate ? ' (or create the server with autoInstall: false and install it later)' : ''
      }`,
    );
}
