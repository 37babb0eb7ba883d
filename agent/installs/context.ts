/**
 * What an install recipe is given (installer.ts runs them): where the agent downloads from, the server's directory and
 * account, the version asked for, and where progress and output go.
 */
import type { Account } from '../servers/accounts.ts';

export type InstallSettings = {
  dataDir: string;
  manifestUrl: string;
  steamcmdUrl: string;
  /** Download and SteamCMD attempts after the first (default 3 and 2), and the first back-off. */
  retries?: number;
  backoffMs?: number;
};

/** What a recipe needs: where, as whom, which version, and where its progress and output go. */
export type InstallContext = InstallSettings & {
  serverId: string;
  dir: string;
  /** `<data-dir>/staging/<serverId>`: downloads wait here, where the game's account cannot reach them, until checked. */
  stagingDir: string;
  account: Account | undefined;
  version: string | null;
  acceptEula: boolean;
  /** `{{MEMORY_MB}}` in a template's steps (the service fills every other placeholder; `{{SERVER_DIR}}` is `dir`). */
  memoryMb?: number;
  signal: AbortSignal;
  progress: (percent: number | null, message: string) => void;
  line: (text: string) => void;
};
