/**
 * Programs a template's install steps may need on a machine (docs/templates.md#tools): the agent reports which of
 * these it finds on its PATH with its host facts; an egg's install script is scanned for the same names.
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
