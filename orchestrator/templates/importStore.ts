/**
 * An egg imported into a cluster (docs/templates.md#importing-eggs): mapped (./eggImport.ts), then created as a cluster
 * template in the caller's transaction, audited as `template.create` and `template.import`.
 */
import type { CommonQueryMethods } from 'slonik';
import type { Origin } from '../../schema/origin.ts';
import { recordAudit } from '../audit.ts';
import type { EggImport } from './eggImport.ts';
import { createClusterTemplate, type FoundTemplate } from './store.ts';

export async function createImportedTemplate(
  tx: CommonQueryMethods,
  origin: Origin,
  clusterId: string,
  imported: EggImport,
): Promise<{ template: FoundTemplate } & Omit<EggImport, 'template'>> {
  const template = await createClusterTemplate(tx, origin, clusterId, imported.template);
  await recordAudit(tx, origin, { clusterId, action: 'template.import', target: { type: 'template', id: template.id } });
  const { template: _mapped, ...report } = imported;
  return { template, ...report };
}
