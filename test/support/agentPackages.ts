/** Agent packages for upgrade tests: the service's own package (api/agentPackage.ts) as another version. */
import { createHash } from 'node:crypto';
import { buildAgentPackage, tarGz } from '../../api/agentPackage.ts';
import { readPackageArchive } from '../../schema/packageArchive.ts';

/** The service's own package with another version in its package.json. */
export async function packageOfVersion(version: string): Promise<Buffer> {
  const pkg = await buildAgentPackage();
  const entries = readPackageArchive(pkg.tgz).map((entry) => {
    if (entry.name !== 'package.json') return { name: `package/${entry.name}`, content: entry.content, mode: entry.mode };
    const manifest = JSON.parse(entry.content.toString('utf8')) as Record<string, unknown>;
    return { name: 'package/package.json', content: Buffer.from(JSON.stringify({ ...manifest, version }, null, 2)), mode: entry.mode };
  });
  return tarGz(entries);
}

export const sha256Of = (content: Buffer) => createHash('sha256').update(content).digest('hex');
