import { readFileSync } from 'node:fs';

/** The agent package's version (agent/package.json; beside the bundle once packed). Always the service's version. */
export const AGENT_VERSION: string = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).version;
