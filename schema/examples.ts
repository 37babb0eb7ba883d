/**
 * Examples of the API's records for the OpenAPI document (api/http/openapi.ts adds each to its component), one
 * consistent little world: the cluster "EU Community" with one machine, a RUST server, its jobs, players and backups.
 * A test parses every example with its record's own schema, so an example that drifts from its record fails CI.
 */
const CLUSTER = '01a20f00-0000-7000-8000-000000000001';
const USER = '01a20f00-0000-7000-8000-000000000002';
const MACHINE = '01a20f00-0000-7000-8000-000000000003';
const SERVER = '01a20f00-0000-7000-8000-000000000004';
const JOB = '01a20f00-0000-7000-8000-000000000005';
const PLAYER = '01a20f00-0000-7000-8000-000000000006';
const BAN = '01a20f00-0000-7000-8000-000000000007';
const TASK = '01a20f00-0000-7000-8000-000000000008';
const BACKUP = '01a20f00-0000-7000-8000-000000000009';
const WEBHOOK = '01a20f00-0000-7000-8000-00000000000a';
const AT = '2026-11-24T03:00:00.000Z';
const LATER = '2026-11-24T03:00:04.250Z';
const CREATED = '2026-10-01T18:30:00.000Z';

const user = {
  id: USER,
  email: 'alex@example.org',
  displayName: 'Alex',
  steamId: '76561198000000001',
  discordId: null,
  hasPassword: true,
  tier: 'FREE',
  createdAt: CREATED,
};
const token = {
  id: '01a20f00-0000-7000-8000-00000000000b',
  name: 'restart script',
  clusterIds: [CLUSTER],
  createdAt: CREATED,
  lastUsedAt: AT,
  expiresAt: null,
};
const invitation = {
  id: '01a20f00-0000-7000-8000-00000000000c',
  clusterId: CLUSTER,
  email: 'sam@example.org',
  role: 'MODERATOR',
  status: 'PENDING',
  expiresAt: '2026-12-01T03:00:00.000Z',
  invitedBy: USER,
  createdAt: AT,
};
const machine = {
  id: MACHINE,
  clusterId: CLUSTER,
  name: 'fra-1',
  status: 'ONLINE',
  hostname: 'fra-1.example.org',
  os: 'Linux 6.1.0-27-amd64',
  agentVersion: '0.1.0',
  cpuCount: 8,
  memoryBytes: 34359738368,
  metrics: { cpuPercent: 23.5, memoryUsedBytes: 12884901888, diskUsedBytes: 107374182400, at: AT },
  lastSeenAt: AT,
  createdAt: CREATED,
  updatedAt: AT,
};
const connect = { url: 'https://panel.example.org', path: '/ws' };
const agentToken = 'gsm_agent_0123456789abcdefghijABCDEFGHIJklmnopqrstuvw';
const install = {
  command: `command -v sha256sum >/dev/null 2>&1 || { echo 'gsm-agent: error: sha256sum is required (GNU coreutils) to check what this line downloads; nothing was run' >&2; false; } && printf '%s\\n' 'gsm_install_0123456789abcdefghijABCDEFGHIJklmnopqrstuvw' | $([ "$(id -u)" = 0 ] || echo sudo) sh -c 'D="$(mktemp -d /tmp/gsm.XXXXXX)" || exit 1; trap "rm -rf $D" EXIT; trap "exit 1" HUP INT TERM; curl --proto =https --proto-redir =https -fsSL "$1/agent/install.sh" -o "$D/install.sh" || exit 1; if [ "$(sha256sum < "$D/install.sh" | cut -d" " -f1)" != "$2" ]; then echo "gsm-agent: error: the downloaded install script does not match the SHA-256 in this line; nothing was run" >&2; exit 1; fi; sh "$D/install.sh" --url "$1" --package-sha256 "$3"' gsm-install 'https://panel.example.org' '3f1d0c5e8a9b7c6d5e4f30211a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d' '9c2e4b6a8d0f1e3c5a7b9d1f3e5c7a9b1d3f5e7c9a1b3d5f7e9c1a3b5d7f9e1c'`,
  upgradeCommand: `command -v sha256sum >/dev/null 2>&1 || { echo 'gsm-agent: error: sha256sum is required (GNU coreutils) to check what this line downloads; nothing was run' >&2; false; } && $([ "$(id -u)" = 0 ] || echo sudo) sh -c 'D="$(mktemp -d /tmp/gsm.XXXXXX)" || exit 1; trap "rm -rf $D" EXIT; trap "exit 1" HUP INT TERM; curl --proto =https --proto-redir =https -fsSL "$1/agent/install.sh" -o "$D/install.sh" || exit 1; if [ "$(sha256sum < "$D/install.sh" | cut -d" " -f1)" != "$2" ]; then echo "gsm-agent: error: the downloaded install script does not match the SHA-256 in this line; nothing was run" >&2; exit 1; fi; sh "$D/install.sh" --url "$1" --package-sha256 "$3" --upgrade' gsm-install 'https://panel.example.org' '3f1d0c5e8a9b7c6d5e4f30211a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d' '9c2e4b6a8d0f1e3c5a7b9d1f3e5c7a9b1d3f5e7c9a1b3d5f7e9c1a3b5d7f9e1c' </dev/null`,
  expiresAt: '2026-10-01T19:30:00.000Z',
};
const stats = { cpuPercent: 37.5, memoryBytes: 6442450944, at: AT };
const server = {
  id: SERVER,
  clusterId: CLUSTER,
  machineId: MACHINE,
  name: 'EU Main',
  gameType: 'RUST',
  gamePort: 28015,
  queryPort: 28016,
  rconPort: 28017,
  maxPlayers: 100,
  status: 'ONLINE',
  desiredStatus: 'RUNNING',
  playersOnline: 42,
  autoRestart: true,
  startCommand: null,
  env: null,
  memoryLimitMb: 12288,
  cpuLimitPercent: 400,
  lastStatusAt: AT,
  statusReason: null,
  lastExitCode: null,
  stats,
  version: null,
  installedVersion: null,
  installedAt: CREATED,
  osUser: 'gsm-5d41402abc4b',
  acceptEula: false,
  installCommand: null,
  backupRetention: 5,
  ready: null,
  consoleMode: null,
  stop: null,
  createdAt: CREATED,
  updatedAt: AT,
};
const job = {
  id: JOB,
  clusterId: CLUSTER,
  serverId: SERVER,
  machineId: MACHINE,
  playerId: null,
  taskId: null,
  type: 'RESTART',
  status: 'SUCCEEDED',
  params: {},
  result: { message: 'restarted' },
  error: null,
  progress: null,
  attempts: 1,
  createdBy: { kind: 'USER', id: USER },
  idempotencyKey: null,
  createdAt: AT,
  dispatchedAt: AT,
  startedAt: AT,
  finishedAt: LATER,
  expiresAt: '2026-11-24T03:10:00.000Z',
};
const ban = {
  id: BAN,
  playerId: PLAYER,
  clusterId: CLUSTER,
  serverId: null,
  reason: 'Cheating (aimbot)',
  clusterWide: true,
  expiresAt: null,
  createdBy: USER,
  createdAt: AT,
  revokedAt: null,
  active: true,
  player: { id: PLAYER, username: 'RustLord', steamId: '76561198000000042' },
  serverName: null,
};
const session = { id: '01a20f00-0000-7000-8000-00000000000d', serverId: SERVER, serverName: 'EU Main', joinedAt: AT, leftAt: null, duration: 1800 };
const purchase = { id: '01a20f00-0000-7000-8000-00000000000e', productName: 'VIP (30 days)', amount: 9.99, currency: 'EUR', createdAt: CREATED };
const note = { id: '01a20f00-0000-7000-8000-00000000000f', content: 'Warned for spamming chat.', createdBy: USER, createdAt: AT };
const player = {
  id: PLAYER,
  username: 'RustLord',
  steamId: '76561198000000042',
  uuid: null,
  playtime: 86400,
  firstSeen: CREATED,
  lastSeen: AT,
  online: true,
  currentServer: { id: SERVER, name: 'EU Main' },
  flags: ['vip'],
};
const onlinePlayer = { id: PLAYER, username: 'RustLord', steamId: '76561198000000042', joinedAt: AT, ping: 38 };
const step = { type: 'BROADCAST', message: 'Restart in 5 minutes', delaySeconds: 0, continueOnFailure: false };
const webhook = {
  id: WEBHOOK,
  clusterId: CLUSTER,
  url: 'https://discord.com/api/webhooks/123/abc',
  events: ['server.status', 'ban.created'],
  format: 'DISCORD',
  description: 'Crashes and bans to #staff',
  enabled: true,
  disabledReason: null,
  createdAt: CREATED,
  updatedAt: AT,
};
const range = { step: '1h', from: '2026-11-23T03:00:00.000Z', to: AT };

const fileEntry = { name: 'server.properties', type: 'file', size: 1184, mode: 0o644, modifiedAt: AT, etag: '"7qz1-wg-1a2b3c4d5e6f"' };
const fileVersion = {
  id: '01a20f00-0000-7000-8000-000000000020',
  path: 'server.properties',
  size: 1184,
  sha256: 'b5bb9d8014a0f9b1d61e21e796d78dccdf1352f23cd32812f4850b878ae4944c',
  via: 'api',
  actor: { kind: 'USER', id: USER, name: 'Alex' },
  createdAt: AT,
};

export const EXAMPLES: Record<string, unknown> = {
  FileEntry: fileEntry,
  FileList: {
    path: '/',
    entries: [fileEntry, { name: 'world', type: 'directory', size: 4096, mode: 0o755, modifiedAt: AT }],
    total: 2,
    next: null,
  },
  FileText: { path: '/server.properties', content: 'motd=Welcome\nmax-players=20\n', size: 29, etag: '"7qz1-t-1a2b3c4d5e6f"', modifiedAt: AT },
  FileWriteResult: { entry: fileEntry, size: 1184, versionId: fileVersion.id },
  FileSearchResult: {
    matches: [{ path: '/server.properties', type: 'file', size: 1184, line: 12, text: 'motd=Welcome' }],
    scannedFiles: 214,
    scannedBytes: 1048576,
    stoppedEarly: null,
  },
  FileVersion: fileVersion,
  FileVersionContent: { ...fileVersion, content: 'motd=Welcome\nmax-players=20\n' },
  FileDiff: { from: fileVersion.id, to: 'current', diff: '--- a/server.properties\n+++ b/server.properties\n@@ -1,1 +1,1 @@\n-motd=Hi\n+motd=Welcome\n' },
  Error: { statusCode: 404, message: 'Server not found', error: 'Not Found' },
  User: user,
  TokenPair: { accessToken: 'v4.local.eyJzdWIi…', refreshToken: 'gsm_refresh_…', tokenType: 'Bearer', expiresIn: 900 },
  OAuthStart: { url: 'https://steamcommunity.com/openid/login?openid.mode=checkid_setup&…' },
  TokenListItem: token,
  TokenCreated: { ...token, lastUsedAt: null, token: 'gsm_live_0123456789abcdefghijABCDEFGHIJklmnopqrstuvw', userId: USER },
  Cluster: {
    id: CLUSTER,
    name: 'EU Community',
    description: 'Our European servers',
    role: 'OWNER',
    counts: { machines: 1, servers: 3, members: 4 },
    createdAt: CREATED,
    updatedAt: AT,
  },
  Member: { userId: USER, email: 'alex@example.org', displayName: 'Alex', role: 'OWNER', joinedAt: CREATED },
  Invitation: invitation,
  InvitationCreated: { ...invitation, token: 'gsm_invite_…', link: 'https://panel.example.org/invite#gsm_invite_…', emailed: true },
  InvitationPreview: {
    email: 'sam@example.org',
    role: 'MODERATOR',
    clusterName: 'EU Community',
    clusterId: CLUSTER,
    status: 'PENDING',
    expiresAt: '2026-12-01T03:00:00.000Z',
  },
  AuditEntry: {
    id: '01a20f00-0000-7000-8000-000000000010',
    clusterId: CLUSTER,
    actor: { kind: 'USER', id: USER, name: 'Alex' },
    action: 'server.restart',
    target: { type: 'server', id: SERVER, name: 'EU Main' },
    ip: '203.0.113.7',
    requestId: 'b7c9e2a4-5f0d-4a51-9c1e-2f3a4b5c6d7e',
    at: AT,
  },
  Machine: machine,
  MachineRegistered: {
    ...machine,
    status: 'OFFLINE',
    hostname: null,
    os: null,
    agentVersion: null,
    cpuCount: null,
    memoryBytes: null,
    metrics: null,
    lastSeenAt: null,
    agentToken,
    connect,
    install,
  },
  AgentTokenRotated: { agentToken, connect, install },
  MachineInstallCode: { connect, install },
  InstallCodeExchanged: { machineId: MACHINE, agentToken, connect },
  Server: server,
  ServerStats: stats,
  Console: { serverId: SERVER, lines: [{ at: AT, line: 'Saving complete' }] },
  ConsoleLine: { at: AT, line: 'Saving complete' },
  Webhook: webhook,
  WebhookCreated: { ...webhook, secret: 'whsec_0123456789abcdefghijABCDEFGHIJklmnopqrstuvw' },
  WebhookDelivery: {
    id: '01a20f00-0000-7000-8000-000000000011',
    webhookId: WEBHOOK,
    eventId: '0000000000001234',
    eventType: 'server.status',
    status: 'SUCCEEDED',
    attempts: 1,
    lastStatusCode: 204,
    lastError: null,
    durationMs: 143,
    nextAttemptAt: null,
    createdAt: AT,
    deliveredAt: LATER,
  },
  Job: job,
  RconAnswer: { success: true, output: 'players : 42 (max 100)', jobId: JOB, status: 'SUCCEEDED' },
  Backup: {
    id: BACKUP,
    serverId: SERVER,
    clusterId: CLUSTER,
    jobId: JOB,
    name: 'nightly backup 2026-11-24 03:00 UTC',
    status: 'COMPLETED',
    sizeBytes: 2147483648,
    sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    consistent: true,
    location: 'LOCAL',
    error: null,
    createdAt: AT,
    completedAt: LATER,
  },
  Task: {
    id: TASK,
    clusterId: CLUSTER,
    name: 'Nightly restart',
    description: null,
    schedule: '0 4 * * *',
    timezone: 'Europe/Berlin',
    serverIds: [SERVER],
    steps: [step, { type: 'RESTART', delaySeconds: 300, continueOnFailure: false }],
    onlyWhenOnline: false,
    enabled: true,
    nextRunAt: '2026-11-25T03:00:00.000Z',
    lastRunAt: AT,
    lastRunStatus: 'SUCCEEDED',
    createdAt: CREATED,
    updatedAt: CREATED,
  },
  TaskStep: step,
  SchedulePreview: {
    schedule: '0 4 * * *',
    timezone: 'Europe/Berlin',
    runs: ['2026-11-25T03:00:00.000Z', '2026-11-26T03:00:00.000Z', '2026-11-27T03:00:00.000Z', '2026-11-28T03:00:00.000Z', '2026-11-29T03:00:00.000Z'],
  },
  ServerMetrics: {
    ...range,
    points: [
      {
        at: '2026-11-24T02:00:00.000Z',
        cpuPercent: { avg: 35.2, max: 61.0 },
        memoryBytes: { avg: 6190000000, max: 6442450944 },
        playersOnline: { avg: 38.4, max: 44 },
      },
    ],
  },
  MachineMetricsHistory: {
    ...range,
    points: [
      {
        at: '2026-11-24T02:00:00.000Z',
        cpuPercent: { avg: 21.7, max: 48.3 },
        memoryBytes: { avg: 12500000000, max: 13000000000 },
        diskUsedBytes: { avg: 107374182400, max: 107374182400 },
      },
    ],
  },
  ClusterPlayersOnline: { ...range, points: [{ at: '2026-11-24T02:00:00.000Z', playersOnline: { avg: 96.5, max: 112 } }] },
  Player: player,
  PlayerStats: {
    total: 5230,
    active: { today: 410, week: 1320, month: 2650 },
    new: { today: 35, week: 240, month: 810 },
    topPlayers: [{ id: PLAYER, username: 'RustLord', playtime: 86400 }],
    retention: { day1: 0.42, day7: 0.21, day30: 0.09 },
  },
  PlayerDetail: { ...player, clusterId: CLUSTER, discordId: null, sessions: [session], purchases: [purchase], notes: [note] },
  Session: session,
  Purchase: purchase,
  Note: note,
  ServerPlayers: { online: 1, max: 100, players: [onlinePlayer] },
  OnlinePlayer: onlinePlayer,
  KickAnswer: { success: true, message: 'Kick sent', jobId: JOB, status: 'QUEUED' },
  BanAnswer: { success: true, ban, jobIds: [JOB] },
  UnbanAnswer: { success: true, message: 'Removed 1 ban', bans: [{ ...ban, revokedAt: LATER, active: false }], jobIds: [JOB] },
  Ban: ban,
  Event: {
    id: '0000000000001234',
    type: 'server.status',
    clusterId: CLUSTER,
    at: AT,
    data: { serverId: SERVER, status: 'CRASHED', previous: 'ONLINE', reason: 'exited with code 1', exitCode: 1 },
  },
};
