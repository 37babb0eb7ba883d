/**
 * Which agent versions a service accepts (docs/agent.md#versions): versions are `major.minor.patch` (a pre-release or
 * build suffix is ignored). An agent is accepted when it is of the service's major version and not older than the
 * minimum, which is `MIN_AGENT_VERSION` when set and otherwise the previous minor version of the service
 * (`major.(minor - 1).0`; `major.0.0` for a `.0` minor): a service takes the agents of its own and of the previous
 * minor release, and newer agents of its major version.
 */

/** The numbers of `major.minor.patch` (missing or unreadable parts are 0). */
const partsOf = (version: string): [number, number, number] => {
  const parts = version
    .split(/[.+-]/)
    .slice(0, 3)
    .map((part) => Number.parseInt(part, 10) || 0);
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
};

/** Negative when `a` is older than `b`, 0 when the same release, positive when newer. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [partsOf(a), partsOf(b)];
  for (let index = 0; index < 3; index++) if (x[index] !== y[index]) return x[index]! - y[index]!;
  return 0;
}

export const majorOf = (version: string): number => partsOf(version)[0];

/** The oldest agent a service of `serviceVersion` accepts: `configured` when set, else its previous minor version. */
export function minimumAgentVersion(serviceVersion: string, configured?: string): string {
  if (configured) return configured;
  const [major, minor] = partsOf(serviceVersion);
  return `${major}.${Math.max(minor - 1, 0)}.0`;
}

/** Why an agent of `version` is refused (the `UNSUPPORTED_VERSION` message), or null when it is accepted. */
export function agentVersionRefusal(version: string, policy: { serviceVersion: string; minVersion: string }): string | null {
  if (compareVersions(version, policy.minVersion) < 0) {
    return `agent ${version} is older than the minimum ${policy.minVersion}; upgrade the agent (run the machine's install.upgradeCommand, or install the service's own agent package)`;
  }
  const [agentMajor, serviceMajor] = [majorOf(version), majorOf(policy.serviceVersion)];
  if (agentMajor !== serviceMajor) {
    return `agent ${version} is of major version ${agentMajor}; this service (${policy.serviceVersion}) accepts agents of major version ${serviceMajor}; install the service's own agent package`;
  }
  return null;
}

/** Whether a machine whose agent reported `agentVersion` runs an older agent than the service's package. */
export const upgradeAvailable = (agentVersion: string | null, packageVersion: string): boolean =>
  agentVersion !== null && compareVersions(agentVersion, packageVersion) < 0;
