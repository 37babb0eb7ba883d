/**
 * Programs a template's install steps may need on a machine (docs/templates.md#tools): the agent reports which of
 * these it finds on its PATH with its host facts, and an INSTALL or UPDATE whose template needs one the machine lacks
 * fails at once, naming every one missing.
 */

/** The programs looked for on an agent's PATH (an egg's install script is scanned for the same names). */
export const KNOWN_TOOLS = [
  '7z',
  'awk',
  'bash',
  'bzip2',
  'curl',
  'dotnet',
  'file',
  'git',
  'gunzip',
  'gzip',
  'java',
  'jq',
  'md5sum',
  'mono',
  'node',
  'npm',
  'perl',
  'php',
  'pip',
  'pip3',
  'python',
  'python3',
  'rsync',
  'sed',
  'sh',
  'sha1sum',
  'sha256sum',
  'tar',
  'unrar',
  'unzip',
  'wget',
  'xmlstarlet',
  'xz',
  'zip',
] as const;

/** The tool names a template may declare (and an agent report): a program's file name. */
export const TOOL_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

/** The tools of `needed` not in `found`, in the order needed; none when the machine never reported its tools. */
export function missingTools(needed: readonly string[] | undefined, found: readonly string[] | null | undefined): string[] {
  if (!needed || !found) return [];
  const have = new Set(found);
  return [...new Set(needed)].filter((tool) => !have.has(tool));
}

/** The sentence a refused INSTALL or UPDATE says. */
export const missingToolsMessage = (missing: readonly string[]) =>
  `this machine lacks ${missing.length === 1 ? 'a program' : 'programs'} the install needs: ${missing.join(', ')} (install ${missing.length === 1 ? 'it' : 'them'} on the machine, then try again)`;
