"""The API's records as TypedDicts. Generated from the API document by test/clients/languageTypes.ts (npm run generate:client). Do not edit."""

from typing import Any, Dict, List, Literal, Optional, TypedDict


_ErrorDetailsItemRequired = TypedDict(
    "_ErrorDetailsItemRequired",
    {
        "field": str,
        "message": str,
    },
)


class ErrorDetailsItem(_ErrorDetailsItemRequired):
    """The ErrorDetailsItem record."""


_ErrorRequired = TypedDict(
    "_ErrorRequired",
    {
        "statusCode": int,
        "message": str,
        "error": str,
    },
)

_ErrorOptional = TypedDict(
    "_ErrorOptional",
    {
        "details": List[ErrorDetailsItem],
        "retryAfter": int,
    },
    total=False,
)


class Error(_ErrorRequired, _ErrorOptional):
    """Every error answer has this body."""


_UserRequired = TypedDict(
    "_UserRequired",
    {
        "id": str,
        "email": str,
        "displayName": str,
        "handle": str,
        "steamId": Optional[str],
        "discordId": Optional[str],
        "hasPassword": bool,
        "tier": Literal["FREE", "PRO", "ENTERPRISE"],
        "createdAt": str,
    },
)


class User(_UserRequired):
    """The User record.

    handle: Your SFTP name: sign in to a server's files as `<handle>.<server short id>` (docs/sftp.md). Chosen from your e-mail address.
    hasPassword: Whether the account has a password (one made with Steam or Discord has none until it sets one)."""


_TokenPairRequired = TypedDict(
    "_TokenPairRequired",
    {
        "accessToken": str,
        "refreshToken": str,
        "tokenType": Literal["Bearer"],
        "expiresIn": int,
    },
)


class TokenPair(_TokenPairRequired):
    """The TokenPair record.

    expiresIn: Seconds the access token is valid (86400)."""


_OAuthStartRequired = TypedDict(
    "_OAuthStartRequired",
    {
        "url": str,
    },
)


class OAuthStart(_OAuthStartRequired):
    """The OAuthStart record.

    url: The provider's sign-in page: send the browser there"""


_TokenListItemRequired = TypedDict(
    "_TokenListItemRequired",
    {
        "id": str,
        "name": str,
        "clusterIds": List[str],
        "createdAt": str,
        "lastUsedAt": Optional[str],
        "expiresAt": Optional[str],
    },
)


class TokenListItem(_TokenListItemRequired):
    """The TokenListItem record."""


_TokenCreatedRequired = TypedDict(
    "_TokenCreatedRequired",
    {
        "id": str,
        "name": str,
        "clusterIds": List[str],
        "createdAt": str,
        "lastUsedAt": Optional[str],
        "expiresAt": Optional[str],
        "token": str,
        "userId": str,
    },
)


class TokenCreated(_TokenCreatedRequired):
    """The TokenCreated record.

    token: The secret, shown only in this answer."""


_SshKeyRequired = TypedDict(
    "_SshKeyRequired",
    {
        "id": str,
        "name": str,
        "algorithm": Literal["ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521"],
        "bits": int,
        "fingerprint": str,
        "publicKey": str,
        "createdAt": str,
        "lastUsedAt": Optional[str],
    },
)


class SshKey(_SshKeyRequired):
    """The SshKey record.

    fingerprint: SHA256 fingerprint as `ssh-keygen -l` prints it.
    publicKey: The key in OpenSSH form (`<type> <base64>`), without its comment."""


_ClusterCountsRequired = TypedDict(
    "_ClusterCountsRequired",
    {
        "machines": int,
        "servers": int,
        "members": int,
    },
)


class ClusterCounts(_ClusterCountsRequired):
    """The ClusterCounts record."""


_ClusterRequired = TypedDict(
    "_ClusterRequired",
    {
        "id": str,
        "name": str,
        "description": Optional[str],
        "role": Literal["OWNER", "ADMIN", "MODERATOR", "VIEWER"],
        "counts": ClusterCounts,
        "fileDenyList": List[str],
        "createdAt": str,
        "updatedAt": str,
    },
)


class Cluster(_ClusterRequired):
    """The Cluster record.

    role: The caller's role in this cluster.
    fileDenyList: The default file deny list (gitignore-style patterns) of the cluster's servers whose template has none (docs/files.md#the-deny-list)."""


_MemberRequired = TypedDict(
    "_MemberRequired",
    {
        "userId": str,
        "email": str,
        "displayName": str,
        "role": Literal["OWNER", "ADMIN", "MODERATOR", "VIEWER"],
        "joinedAt": str,
    },
)


class Member(_MemberRequired):
    """The Member record."""


_InvitationRequired = TypedDict(
    "_InvitationRequired",
    {
        "id": str,
        "clusterId": str,
        "email": str,
        "role": Literal["OWNER", "ADMIN", "MODERATOR", "VIEWER"],
        "status": Literal["PENDING", "ACCEPTED", "REVOKED", "EXPIRED"],
        "expiresAt": str,
        "invitedBy": Optional[str],
        "createdAt": str,
    },
)


class Invitation(_InvitationRequired):
    """The Invitation record."""


_InvitationCreatedRequired = TypedDict(
    "_InvitationCreatedRequired",
    {
        "id": str,
        "clusterId": str,
        "email": str,
        "role": Literal["OWNER", "ADMIN", "MODERATOR", "VIEWER"],
        "status": Literal["PENDING", "ACCEPTED", "REVOKED", "EXPIRED"],
        "expiresAt": str,
        "invitedBy": Optional[str],
        "createdAt": str,
        "token": str,
        "link": str,
        "emailed": bool,
    },
)


class InvitationCreated(_InvitationCreatedRequired):
    """The InvitationCreated record.

    token: The secret to accept it with, shown only in this answer.
    link: The page the invitee opens to create an account (or sign in) and join; it carries the token. Shown only in this answer.
    emailed: Whether the link was e-mailed to the invitee (only with SMTP_URL set, and when the SMTP server accepted it)."""


_InvitationPreviewRequired = TypedDict(
    "_InvitationPreviewRequired",
    {
        "email": str,
        "role": Literal["OWNER", "ADMIN", "MODERATOR", "VIEWER"],
        "clusterName": str,
        "clusterId": str,
        "status": Literal["PENDING", "ACCEPTED", "REVOKED", "EXPIRED"],
        "expiresAt": str,
    },
)


class InvitationPreview(_InvitationPreviewRequired):
    """The InvitationPreview record.

    clusterId: The cluster joined (the invitation page opens it in the dashboard once joined)"""


_AuditEntryActorRequired = TypedDict(
    "_AuditEntryActorRequired",
    {
        "kind": Literal["USER", "TOKEN", "TASK", "SYSTEM", "ANONYMOUS"],
        "id": Optional[str],
        "name": Optional[str],
    },
)


class AuditEntryActor(_AuditEntryActorRequired):
    """The AuditEntryActor record."""


_AuditEntryTargetRequired = TypedDict(
    "_AuditEntryTargetRequired",
    {
        "type": str,
        "id": Optional[str],
        "name": Optional[str],
    },
)


class AuditEntryTarget(_AuditEntryTargetRequired):
    """The AuditEntryTarget record.

    name: What the target is called today (a server's, machine's, task's or backup's name, a player's username, a banned player's username, a user's display name, an invitation's e-mail, a webhook's description); null when it has none or no longer exists"""


_AuditEntryRequired = TypedDict(
    "_AuditEntryRequired",
    {
        "id": str,
        "clusterId": Optional[str],
        "actor": AuditEntryActor,
        "action": str,
        "target": AuditEntryTarget,
        "ip": Optional[str],
        "requestId": Optional[str],
        "at": str,
    },
)

_AuditEntryOptional = TypedDict(
    "_AuditEntryOptional",
    {
        "details": Dict[str, Any],
    },
    total=False,
)


class AuditEntry(_AuditEntryRequired, _AuditEntryOptional):
    """The AuditEntry record.

    details: What a change touched beyond its target: a file change its `path`, `size`, `to` …"""


_MachineMetricsRequired = TypedDict(
    "_MachineMetricsRequired",
    {
        "cpuPercent": float,
        "memoryUsedBytes": float,
        "diskUsedBytes": float,
        "at": str,
    },
)


class MachineMetrics(_MachineMetricsRequired):
    """The MachineMetrics record."""


_MachineSftpRequired = TypedDict(
    "_MachineSftpRequired",
    {
        "port": int,
        "hostKeyFingerprint": Optional[str],
    },
)


class MachineSftp(_MachineSftpRequired):
    """The SFTP service of the machine's agent (docs/sftp.md); null until the agent reported it.

    port: The agent's SFTP port (default 2022); connect with `sftp -P <port> <handle>.<server short id>@<machine address>`.
    hostKeyFingerprint: SHA256 fingerprint of the agent's ED25519 host key, to compare with what `sftp` shows on the first connection."""


_MachineRequired = TypedDict(
    "_MachineRequired",
    {
        "id": str,
        "clusterId": str,
        "name": str,
        "status": Literal["ONLINE", "OFFLINE"],
        "hostname": Optional[str],
        "os": Optional[str],
        "agentVersion": Optional[str],
        "upgradeAvailable": bool,
        "cpuCount": Optional[int],
        "memoryBytes": Optional[float],
        "metrics": Optional[MachineMetrics],
        "addresses": List[str],
        "reportedAddresses": List[str],
        "sftp": Optional[MachineSftp],
        "lastSeenAt": Optional[str],
        "createdAt": str,
        "updatedAt": str,
    },
)

_MachineOptional = TypedDict(
    "_MachineOptional",
    {
        "tools": Optional[List[str]],
    },
    total=False,
)


class Machine(_MachineRequired, _MachineOptional):
    """The Machine record.

    agentVersion: The version its agent reported when it last connected.
    upgradeAvailable: Whether its agent is older than the service's agent package (`GET /agent/package.tgz`): `POST /api/v1/clusters/{clusterId}/machines/upgrade` upgrades it.
    addresses: The addresses its operators gave it (docs/servers.md#ports-and-allocations).
    reportedAddresses: The addresses its agent reported (its network interfaces, loopback aside).
    tools: The programs its agent found on its PATH (of those templates' installs use); null: not reported yet.
    sftp: The SFTP service of the machine's agent (docs/sftp.md); null until the agent reported it."""


_MachineRegisteredMetricsRequired = TypedDict(
    "_MachineRegisteredMetricsRequired",
    {
        "cpuPercent": float,
        "memoryUsedBytes": float,
        "diskUsedBytes": float,
        "at": str,
    },
)


class MachineRegisteredMetrics(_MachineRegisteredMetricsRequired):
    """The MachineRegisteredMetrics record."""


_MachineRegisteredSftpRequired = TypedDict(
    "_MachineRegisteredSftpRequired",
    {
        "port": int,
        "hostKeyFingerprint": Optional[str],
    },
)


class MachineRegisteredSftp(_MachineRegisteredSftpRequired):
    """The SFTP service of the machine's agent (docs/sftp.md); null until the agent reported it.

    port: The agent's SFTP port (default 2022); connect with `sftp -P <port> <handle>.<server short id>@<machine address>`.
    hostKeyFingerprint: SHA256 fingerprint of the agent's ED25519 host key, to compare with what `sftp` shows on the first connection."""


_MachineRegisteredConnectRequired = TypedDict(
    "_MachineRegisteredConnectRequired",
    {
        "url": str,
        "path": str,
    },
)


class MachineRegisteredConnect(_MachineRegisteredConnectRequired):
    """The MachineRegisteredConnect record.

    url: Origin of the agent gateway.
    path: Gateway path (also served at /agent/ws and /ws/agent)."""


_MachineRegisteredInstallRequired = TypedDict(
    "_MachineRegisteredInstallRequired",
    {
        "command": str,
        "upgradeCommand": str,
        "expiresAt": str,
    },
)


class MachineRegisteredInstall(_MachineRegisteredInstallRequired):
    """The MachineRegisteredInstall record.

    command: One line to paste on the machine (Linux, Node.js 20+, `sha256sum`, as root or a sudoer): in one root shell (sudo only when not root) it downloads the install script into a fresh root-owned `mktemp -d /tmp/gsm.XXXXXX` directory, runs it only if its SHA-256 is the one in the line, and the script installs the agent package only if its SHA-256 is the one in the line too. A single-use registration code travels on standard input; the installer exchanges it for the agent token (`POST /agent/register`) before replacing anything, writes the configuration (mode 0600) and starts the agent as a systemd service. The code works once, until `expiresAt`.
    upgradeCommand: The line that upgrades an installed agent to this service's package, checked the same way (no code: it keeps the machine's token).
    expiresAt: When the line's registration code stops working (one hour after it was made)."""


_MachineRegisteredRequired = TypedDict(
    "_MachineRegisteredRequired",
    {
        "id": str,
        "clusterId": str,
        "name": str,
        "status": Literal["ONLINE", "OFFLINE"],
        "hostname": Optional[str],
        "os": Optional[str],
        "agentVersion": Optional[str],
        "upgradeAvailable": bool,
        "cpuCount": Optional[int],
        "memoryBytes": Optional[float],
        "metrics": Optional[MachineRegisteredMetrics],
        "addresses": List[str],
        "reportedAddresses": List[str],
        "sftp": Optional[MachineRegisteredSftp],
        "lastSeenAt": Optional[str],
        "createdAt": str,
        "updatedAt": str,
        "agentToken": str,
        "connect": MachineRegisteredConnect,
        "install": MachineRegisteredInstall,
    },
)

_MachineRegisteredOptional = TypedDict(
    "_MachineRegisteredOptional",
    {
        "tools": Optional[List[str]],
    },
    total=False,
)


class MachineRegistered(_MachineRegisteredRequired, _MachineRegisteredOptional):
    """The MachineRegistered record.

    agentVersion: The version its agent reported when it last connected.
    upgradeAvailable: Whether its agent is older than the service's agent package (`GET /agent/package.tgz`): `POST /api/v1/clusters/{clusterId}/machines/upgrade` upgrades it.
    addresses: The addresses its operators gave it (docs/servers.md#ports-and-allocations).
    reportedAddresses: The addresses its agent reported (its network interfaces, loopback aside).
    tools: The programs its agent found on its PATH (of those templates' installs use); null: not reported yet.
    sftp: The SFTP service of the machine's agent (docs/sftp.md); null until the agent reported it.
    agentToken: The agent token, shown only in this answer."""


_AgentTokenRotatedConnectRequired = TypedDict(
    "_AgentTokenRotatedConnectRequired",
    {
        "url": str,
        "path": str,
    },
)


class AgentTokenRotatedConnect(_AgentTokenRotatedConnectRequired):
    """The AgentTokenRotatedConnect record.

    url: Origin of the agent gateway.
    path: Gateway path (also served at /agent/ws and /ws/agent)."""


_AgentTokenRotatedInstallRequired = TypedDict(
    "_AgentTokenRotatedInstallRequired",
    {
        "command": str,
        "upgradeCommand": str,
        "expiresAt": str,
    },
)


class AgentTokenRotatedInstall(_AgentTokenRotatedInstallRequired):
    """The AgentTokenRotatedInstall record.

    command: One line to paste on the machine (Linux, Node.js 20+, `sha256sum`, as root or a sudoer): in one root shell (sudo only when not root) it downloads the install script into a fresh root-owned `mktemp -d /tmp/gsm.XXXXXX` directory, runs it only if its SHA-256 is the one in the line, and the script installs the agent package only if its SHA-256 is the one in the line too. A single-use registration code travels on standard input; the installer exchanges it for the agent token (`POST /agent/register`) before replacing anything, writes the configuration (mode 0600) and starts the agent as a systemd service. The code works once, until `expiresAt`.
    upgradeCommand: The line that upgrades an installed agent to this service's package, checked the same way (no code: it keeps the machine's token).
    expiresAt: When the line's registration code stops working (one hour after it was made)."""


_AgentTokenRotatedRequired = TypedDict(
    "_AgentTokenRotatedRequired",
    {
        "agentToken": str,
        "connect": AgentTokenRotatedConnect,
        "install": AgentTokenRotatedInstall,
    },
)


class AgentTokenRotated(_AgentTokenRotatedRequired):
    """The AgentTokenRotated record."""


_MachineInstallCodeConnectRequired = TypedDict(
    "_MachineInstallCodeConnectRequired",
    {
        "url": str,
        "path": str,
    },
)


class MachineInstallCodeConnect(_MachineInstallCodeConnectRequired):
    """The MachineInstallCodeConnect record.

    url: Origin of the agent gateway.
    path: Gateway path (also served at /agent/ws and /ws/agent)."""


_MachineInstallCodeInstallRequired = TypedDict(
    "_MachineInstallCodeInstallRequired",
    {
        "command": str,
        "upgradeCommand": str,
        "expiresAt": str,
    },
)


class MachineInstallCodeInstall(_MachineInstallCodeInstallRequired):
    """The MachineInstallCodeInstall record.

    command: One line to paste on the machine (Linux, Node.js 20+, `sha256sum`, as root or a sudoer): in one root shell (sudo only when not root) it downloads the install script into a fresh root-owned `mktemp -d /tmp/gsm.XXXXXX` directory, runs it only if its SHA-256 is the one in the line, and the script installs the agent package only if its SHA-256 is the one in the line too. A single-use registration code travels on standard input; the installer exchanges it for the agent token (`POST /agent/register`) before replacing anything, writes the configuration (mode 0600) and starts the agent as a systemd service. The code works once, until `expiresAt`.
    upgradeCommand: The line that upgrades an installed agent to this service's package, checked the same way (no code: it keeps the machine's token).
    expiresAt: When the line's registration code stops working (one hour after it was made)."""


_MachineInstallCodeRequired = TypedDict(
    "_MachineInstallCodeRequired",
    {
        "connect": MachineInstallCodeConnect,
        "install": MachineInstallCodeInstall,
    },
)


class MachineInstallCode(_MachineInstallCodeRequired):
    """The MachineInstallCode record."""


_InstallCodeExchangedConnectRequired = TypedDict(
    "_InstallCodeExchangedConnectRequired",
    {
        "url": str,
        "path": str,
    },
)


class InstallCodeExchangedConnect(_InstallCodeExchangedConnectRequired):
    """The InstallCodeExchangedConnect record.

    url: Origin of the agent gateway.
    path: Gateway path (also served at /agent/ws and /ws/agent)."""


_InstallCodeExchangedRequired = TypedDict(
    "_InstallCodeExchangedRequired",
    {
        "machineId": Any,
        "agentToken": str,
        "connect": InstallCodeExchangedConnect,
    },
)


class InstallCodeExchanged(_InstallCodeExchangedRequired):
    """The InstallCodeExchanged record.

    agentToken: The agent token (`gsm_agent_…`), answered to this one exchange only."""


_AgentUpgradeMachinesItemRequired = TypedDict(
    "_AgentUpgradeMachinesItemRequired",
    {
        "machineId": str,
        "name": str,
        "state": Literal["PENDING", "UPGRADING", "SUCCEEDED", "FAILED", "SKIPPED", "CANCELLED"],
        "fromVersion": Optional[str],
        "toVersion": Optional[str],
        "servers": int,
        "reason": Optional[str],
        "startedAt": Optional[str],
        "finishedAt": Optional[str],
    },
)


class AgentUpgradeMachinesItem(_AgentUpgradeMachinesItemRequired):
    """The AgentUpgradeMachinesItem record.

    fromVersion: The agent version it ran when its upgrade started.
    toVersion: The agent version it came back with.
    servers: Servers that were RUNNING when its upgrade started (each must be RUNNING again).
    reason: Why it failed, was skipped or cancelled."""


_AgentUpgradeRequired = TypedDict(
    "_AgentUpgradeRequired",
    {
        "id": str,
        "clusterId": str,
        "state": Literal["RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"],
        "version": str,
        "packageSha256": str,
        "batchSize": int,
        "timeoutSeconds": int,
        "reason": Optional[str],
        "createdBy": Optional[str],
        "machines": List[AgentUpgradeMachinesItem],
        "createdAt": str,
        "updatedAt": str,
        "finishedAt": Optional[str],
    },
)


class AgentUpgrade(_AgentUpgradeRequired):
    """The AgentUpgrade record.

    version: The agent version the machines are upgraded to (the service's package).
    packageSha256: The SHA-256 of the package each agent downloads and checks.
    reason: Why the roll failed or was cancelled."""


_PortRangeRequired = TypedDict(
    "_PortRangeRequired",
    {
        "id": str,
        "firstPort": int,
        "lastPort": int,
        "createdAt": str,
    },
)


class PortRange(_PortRangeRequired):
    """The PortRange record."""


_MachineAllocationRequired = TypedDict(
    "_MachineAllocationRequired",
    {
        "name": str,
        "port": int,
        "protocol": Literal["TCP", "UDP", "BOTH"],
        "serverId": str,
        "serverName": str,
    },
)


class MachineAllocation(_MachineAllocationRequired):
    """A port of the machine and the server holding it.

    name: `game`, `query`, `rcon`, or an extra its game asks for (e.g. Rust’s `app`)."""


_MachineAllocationsRequired = TypedDict(
    "_MachineAllocationsRequired",
    {
        "addresses": List[str],
        "reportedAddresses": List[str],
        "ranges": List[PortRange],
        "allocations": List[MachineAllocation],
        "freePorts": int,
    },
)


class MachineAllocations(_MachineAllocationsRequired):
    """The MachineAllocations record.

    allocations: Every port a server holds on this machine, by port.
    freePorts: Ports of the ranges no server holds (0 without ranges)."""


_ServerStatsRequired = TypedDict(
    "_ServerStatsRequired",
    {
        "cpuPercent": float,
        "memoryBytes": float,
        "at": str,
    },
)

_ServerStatsOptional = TypedDict(
    "_ServerStatsOptional",
    {
        "diskBytes": float,
    },
    total=False,
)


class ServerStats(_ServerStatsRequired, _ServerStatsOptional):
    """The ServerStats record.

    diskBytes: Bytes the server's directory takes on disk, as last measured by its agent (every 5 minutes by default; absent before the first measurement)."""


_ServerReadyRequired = TypedDict(
    "_ServerReadyRequired",
    {
        "mode": Literal["LINE", "PORT", "RCON", "IMMEDIATE"],
    },
)

_ServerReadyOptional = TypedDict(
    "_ServerReadyOptional",
    {
        "pattern": str,
        "port": int,
        "timeoutSeconds": int,
    },
    total=False,
)


class ServerReady(_ServerReadyRequired, _ServerReadyOptional):
    """CUSTOM servers: when the server counts as ONLINE. LINE: an output line matches `pattern`; PORT: `port` (default gamePort) accepts a TCP connection; RCON: RCON answers on rconPort; IMMEDIATE: as soon as the process runs. null: RCON (the CUSTOM default).

    pattern: LINE: a regular expression (JavaScript syntax, run in linear time: no backreferences, lookahead or lookbehind) that an output line (its first 1024 characters) must match, e.g. `Server started`.
    port: PORT: the TCP port on 127.0.0.1 that must accept a connection: one of the server’s own ports (default its gamePort; a UDP-only port never accepts one).
    timeoutSeconds: How long STARTING may last before the server is CRASHED (default 300, at most 420)."""


_ServerStopRequired = TypedDict(
    "_ServerStopRequired",
    {
        "mode": Literal["COMMAND", "SIGNAL"],
    },
)

_ServerStopOptional = TypedDict(
    "_ServerStopOptional",
    {
        "command": str,
        "signal": Literal["SIGINT", "SIGTERM", "SIGQUIT", "SIGHUP", "SIGUSR1", "SIGUSR2"],
        "graceSeconds": int,
    },
    total=False,
)


class ServerStop(_ServerStopRequired, _ServerStopOptional):
    """CUSTOM servers: how a STOP asks the game to exit. COMMAND: `command` on the console; SIGNAL: `signal` to the process. After `graceSeconds` it is killed. null: the RCON command `quit`, then SIGTERM, then SIGKILL.

    command: COMMAND: sent on the console, e.g. `stop`.
    graceSeconds: How long the server may take to exit before SIGTERM (default 30, at most 120); SIGKILL follows 30 s later."""


_ServerPortRequired = TypedDict(
    "_ServerPortRequired",
    {
        "name": str,
        "port": int,
        "protocol": Literal["TCP", "UDP", "BOTH"],
    },
)


class ServerPort(_ServerPortRequired):
    """The ServerPort record.

    name: `game`, `query`, `rcon`, or an extra its game asks for (e.g. Rust’s `app`)."""


_ServerQueryRequired = TypedDict(
    "_ServerQueryRequired",
    {
        "protocol": Literal["A2S", "MINECRAFT", "TCP"],
        "answering": bool,
        "players": Optional[int],
        "playerNames": Optional[List[str]],
        "maxPlayers": Optional[int],
        "map": Optional[str],
        "version": Optional[str],
        "latencyMs": Optional[float],
        "failures": int,
        "error": Optional[str],
        "checkedAt": str,
    },
)


class ServerQuery(_ServerQueryRequired):
    """The ServerQuery record.

    playerNames: Names of the players online, where the game gives them.
    failures: Failed queries in a row (0 while it answers).
    error: Why the latest query failed."""


_ServerRequired = TypedDict(
    "_ServerRequired",
    {
        "id": str,
        "clusterId": str,
        "machineId": str,
        "name": str,
        "gameType": Literal["MINECRAFT", "RUST", "ARK_SURVIVAL_EVOLVED", "CS2", "VALHEIM", "CUSTOM"],
        "gamePort": int,
        "queryPort": int,
        "rconPort": int,
        "maxPlayers": int,
        "status": Literal["INSTALLING", "INSTALL_FAILED", "OFFLINE", "STARTING", "ONLINE", "UNRESPONSIVE", "STOPPING", "RESTARTING", "CRASHED", "UNKNOWN"],
        "desiredStatus": Literal["RUNNING", "STOPPED"],
        "playersOnline": int,
        "autoRestart": bool,
        "startCommand": Optional[str],
        "env": Optional[Dict[str, str]],
        "memoryLimitMb": Optional[int],
        "cpuLimitPercent": Optional[int],
        "lastStatusAt": Optional[str],
        "statusReason": Optional[str],
        "lastExitCode": Optional[int],
        "stats": Optional[ServerStats],
        "version": Optional[str],
        "installedVersion": Optional[str],
        "installedAt": Optional[str],
        "osUser": Optional[str],
        "acceptEula": bool,
        "installCommand": Optional[str],
        "backupRetention": int,
        "ready": Optional[ServerReady],
        "consoleMode": Optional[Literal["RCON", "STDIN", "NONE"]],
        "stop": Optional[ServerStop],
        "templateId": Optional[str],
        "templateVersion": Optional[int],
        "variables": Dict[str, str],
        "secretVariables": Dict[str, bool],
        "ports": List[ServerPort],
        "queryProtocol": Optional[Literal["A2S", "MINECRAFT", "TCP", "NONE"]],
        "query": Optional[ServerQuery],
        "unresponsiveAfter": int,
        "restartWhenUnresponsive": bool,
        "createdAt": str,
        "updatedAt": str,
    },
)

_ServerOptional = TypedDict(
    "_ServerOptional",
    {
        "templateLatestVersion": Optional[int],
    },
    total=False,
)


class Server(_ServerRequired, _ServerOptional):
    """The Server record.

    memoryLimitMb: Memory limit of the game process in MiB; null: no limit.
    cpuLimitPercent: CPU limit in percent of one core (150 = one and a half cores); null: no limit.
    statusReason: Why the server is in its status, from its agent: e.g. `command not found: ./RustDedicated`, `exited with code 1`.
    lastExitCode: How its process last ended (null: never ended, or ended by a signal).
    stats: The latest CPU and memory sample, while it runs (null before the first one).
    version: The game version an INSTALL or UPDATE installs (null: the latest release).
    installedVersion: What the last successful INSTALL or UPDATE installed (null: never installed by the agent).
    osUser: The OS account the server runs as on its machine, as its agent reported it (null: not reported yet).
    acceptEula: MINECRAFT: you accept Mojang's EULA; the agent writes `eula=true` only then.
    ready: CUSTOM servers: when the server counts as ONLINE. LINE: an output line matches `pattern`; PORT: `port` (default gamePort) accepts a TCP connection; RCON: RCON answers on rconPort; IMMEDIATE: as soon as the process runs. null: RCON (the CUSTOM default).
    consoleMode: CUSTOM servers: where console commands go. RCON: Source RCON on rconPort; STDIN: the process’s standard input (the answer is the output that follows); NONE: no console (console commands are refused with 409). null: RCON.
    stop: CUSTOM servers: how a STOP asks the game to exit. COMMAND: `command` on the console; SIGNAL: `signal` to the process. After `graceSeconds` it is killed. null: the RCON command `quit`, then SIGTERM, then SIGKILL.
    templateId: Its game template (docs/templates.md): a built-in's id (`rust`) or a cluster template's id; null: none (a CUSTOM server's own command).
    templateVersion: The version of its template its running process (or its last run) was started with, as its agent reports it (a change applies at its next start).
    templateLatestVersion: The newest version of its template: its next start runs it (above templateVersion: a newer one is available).
    variables: Its values of the template's variables (secret ones are never shown: see secretVariables).
    secretVariables: The secret variables that have a value of their own, each as true (their values are never returned); one not listed has none.
    ports: The named ports the server holds on its machine (game, query, rcon, extras), by name.
    queryProtocol: The server's own query protocol (null: its game's; NONE: never queried).
    query: What the latest query found (null: never queried).
    unresponsiveAfter: Failed queries in a row (15 s apart) after which an ONLINE server is UNRESPONSIVE.
    restartWhenUnresponsive: An UNRESPONSIVE server is restarted by its crash policy."""


_ConsoleLineRequired = TypedDict(
    "_ConsoleLineRequired",
    {
        "at": str,
        "line": str,
        "seq": int,
    },
)


class ConsoleLine(_ConsoleLineRequired):
    """The ConsoleLine record.

    seq: The line’s sequence: per server, larger than every earlier line’s"""


_ConsoleRequired = TypedDict(
    "_ConsoleRequired",
    {
        "serverId": str,
        "lines": List[ConsoleLine],
        "seq": Optional[int],
        "gap": bool,
    },
)


class Console(_ConsoleRequired):
    """The Console record.

    seq: The sequence of the last line answered (null: none): resume after it (`after`, `/live` subscribe `after`)
    gap: With `after`: lines after it are no longer kept (the history holds the last 1,000), so some were missed"""


_WebhookRequired = TypedDict(
    "_WebhookRequired",
    {
        "id": str,
        "clusterId": str,
        "url": str,
        "events": List[Literal["*", "server.status", "machine.status", "job.updated", "player.joined", "player.left", "ban.created", "ban.revoked", "task.run.finished", "webhook.disabled", "server.transferred", "webhook.dropped"]],
        "format": Literal["JSON", "DISCORD"],
        "description": Optional[str],
        "enabled": bool,
        "disabledReason": Optional[str],
        "createdAt": str,
        "updatedAt": str,
    },
)


class Webhook(_WebhookRequired):
    """The Webhook record."""


_WebhookCreatedRequired = TypedDict(
    "_WebhookCreatedRequired",
    {
        "id": str,
        "clusterId": str,
        "url": str,
        "events": List[Literal["*", "server.status", "machine.status", "job.updated", "player.joined", "player.left", "ban.created", "ban.revoked", "task.run.finished", "webhook.disabled", "server.transferred", "webhook.dropped"]],
        "format": Literal["JSON", "DISCORD"],
        "description": Optional[str],
        "enabled": bool,
        "disabledReason": Optional[str],
        "createdAt": str,
        "updatedAt": str,
        "secret": str,
    },
)


class WebhookCreated(_WebhookCreatedRequired):
    """The WebhookCreated record.

    secret: Signs every delivery (GSM-Signature); shown only in this answer"""


_WebhookDeliveryRequired = TypedDict(
    "_WebhookDeliveryRequired",
    {
        "id": str,
        "webhookId": str,
        "eventId": Optional[str],
        "eventType": str,
        "status": Literal["PENDING", "SUCCEEDED", "FAILED"],
        "attempts": float,
        "lastStatusCode": Optional[float],
        "lastError": Optional[str],
        "durationMs": Optional[float],
        "nextAttemptAt": Optional[str],
        "createdAt": str,
        "deliveredAt": Optional[str],
    },
)


class WebhookDelivery(_WebhookDeliveryRequired):
    """The WebhookDelivery record.

    eventId: The event's id (its cursor); for a test delivery, the test's own id (`test_` and a UUID) that its body carries"""


_TemplateRequired = TypedDict(
    "_TemplateRequired",
    {
        "id": str,
        "clusterId": Optional[str],
        "builtIn": bool,
        "slug": str,
        "name": str,
        "version": int,
        "description": Optional[str],
        "gameType": Literal["MINECRAFT", "RUST", "ARK_SURVIVAL_EVOLVED", "CS2", "VALHEIM", "CUSTOM"],
        "tags": List[str],
        "platforms": List[Literal["linux", "windows"]],
        "createdAt": Optional[str],
        "updatedAt": Optional[str],
        "document": Dict[str, Any],
    },
)

_TemplateOptional = TypedDict(
    "_TemplateOptional",
    {
        "secretDefaults": List[str],
    },
    total=False,
)


class Template(_TemplateRequired, _TemplateOptional):
    """The Template record.

    id: A built-in's id is its slug (`rust`); a cluster template's is a uuid.
    clusterId: The cluster it belongs to; null: built in.
    document: The whole template (docs/templates.md); secret variables without their `default`.
    secretDefaults: The secret variables that have a default: never returned; a PATCH that leaves out their `default` keeps it."""


_TemplateImportRequired = TypedDict(
    "_TemplateImportRequired",
    {
        "format": Literal["PTDL_v1", "PTDL_v2", "PLCN_v1", "PLCN_v2", "PLCN_v3"],
        "unmapped": List[str],
        "tools": List[str],
        "skippedLines": List[str],
        "template": Template,
    },
)


class TemplateImport(_TemplateImportRequired):
    """The TemplateImport record.

    format: The egg’s format version.
    unmapped: Every part of the egg not carried over, or carried over with a difference, in words.
    tools: Programs the installation script runs, which the machine must have.
    skippedLines: Lines of the installation script that are not run (they install packages as root)."""


_TemplateSummaryRequired = TypedDict(
    "_TemplateSummaryRequired",
    {
        "id": str,
        "clusterId": Optional[str],
        "builtIn": bool,
        "slug": str,
        "name": str,
        "version": int,
        "description": Optional[str],
        "gameType": Literal["MINECRAFT", "RUST", "ARK_SURVIVAL_EVOLVED", "CS2", "VALHEIM", "CUSTOM"],
        "tags": List[str],
        "platforms": List[Literal["linux", "windows"]],
        "createdAt": Optional[str],
        "updatedAt": Optional[str],
    },
)


class TemplateSummary(_TemplateSummaryRequired):
    """The TemplateSummary record.

    id: A built-in's id is its slug (`rust`); a cluster template's is a uuid.
    clusterId: The cluster it belongs to; null: built in."""


_TemplateDocumentLinksItemRequired = TypedDict(
    "_TemplateDocumentLinksItemRequired",
    {
        "title": str,
        "url": str,
    },
)


class TemplateDocumentLinksItem(_TemplateDocumentLinksItemRequired):
    """The TemplateDocumentLinksItem record."""


_TemplateDocumentVariablesItemValidationOptional = TypedDict(
    "_TemplateDocumentVariablesItemValidationOptional",
    {
        "type": Literal["string", "integer", "number", "boolean"],
        "required": bool,
        "enum": List[str],
        "min": float,
        "max": float,
        "minLength": int,
        "maxLength": int,
        "regex": str,
    },
    total=False,
)


class TemplateDocumentVariablesItemValidation(_TemplateDocumentVariablesItemValidationOptional):
    """The TemplateDocumentVariablesItemValidation record.

    required: The value may not be empty.
    min: integer/number: the smallest value.
    max: integer/number: the largest value.
    regex: string: the whole value must match (anchor it yourself)."""


_TemplateDocumentVariablesItemRequired = TypedDict(
    "_TemplateDocumentVariablesItemRequired",
    {
        "name": str,
    },
)

_TemplateDocumentVariablesItemOptional = TypedDict(
    "_TemplateDocumentVariablesItemOptional",
    {
        "label": str,
        "description": str,
        "default": str,
        "validation": TemplateDocumentVariablesItemValidation,
        "userViewable": bool,
        "userEditable": bool,
        "secret": bool,
    },
    total=False,
)


class TemplateDocumentVariablesItem(_TemplateDocumentVariablesItemRequired, _TemplateDocumentVariablesItemOptional):
    """The TemplateDocumentVariablesItem record.

    userViewable: Members who are not OWNER/ADMIN see it.
    userEditable: Members with server write (not only OWNER/ADMIN) may change it.
    secret: Never returned by the API once set (shown as set / not set)."""


_TemplateDocumentStartRequired = TypedDict(
    "_TemplateDocumentStartRequired",
    {
        "command": str,
    },
)

_TemplateDocumentStartOptional = TypedDict(
    "_TemplateDocumentStartOptional",
    {
        "env": Dict[str, str],
        "workingDirectory": str,
    },
    total=False,
)


class TemplateDocumentStart(_TemplateDocumentStartRequired, _TemplateDocumentStartOptional):
    """The TemplateDocumentStart record.

    command: The command line, split like a POSIX shell line (never run through a shell), with `{{VARIABLE}}` and built-in placeholders.
    workingDirectory: Relative to the server directory (default: the server directory)."""


_TemplateDocumentConsoleRconOptional = TypedDict(
    "_TemplateDocumentConsoleRconOptional",
    {
        "port": str,
        "password": str,
    },
    total=False,
)


class TemplateDocumentConsoleRcon(_TemplateDocumentConsoleRconOptional):
    """The TemplateDocumentConsoleRcon record.

    port: The name of the port in `ports` RCON listens on.
    password: The password, usually `{{RCON_PASSWORD}}` (the server’s) or `{{SOME_VARIABLE}}`."""


_TemplateDocumentConsoleCommandsListRequired = TypedDict(
    "_TemplateDocumentConsoleCommandsListRequired",
    {
        "command": str,
        "parse": Any,
    },
)

_TemplateDocumentConsoleCommandsListOptional = TypedDict(
    "_TemplateDocumentConsoleCommandsListOptional",
    {
        "expect": str,
    },
    total=False,
)


class TemplateDocumentConsoleCommandsList(_TemplateDocumentConsoleCommandsListRequired, _TemplateDocumentConsoleCommandsListOptional):
    """The TemplateDocumentConsoleCommandsList record."""


_TemplateDocumentConsoleCommandsKickRequired = TypedDict(
    "_TemplateDocumentConsoleCommandsKickRequired",
    {
        "command": str,
    },
)

_TemplateDocumentConsoleCommandsKickOptional = TypedDict(
    "_TemplateDocumentConsoleCommandsKickOptional",
    {
        "expect": str,
    },
    total=False,
)


class TemplateDocumentConsoleCommandsKick(_TemplateDocumentConsoleCommandsKickRequired, _TemplateDocumentConsoleCommandsKickOptional):
    """The TemplateDocumentConsoleCommandsKick record."""


_TemplateDocumentConsoleCommandsBanRequired = TypedDict(
    "_TemplateDocumentConsoleCommandsBanRequired",
    {
        "command": str,
    },
)

_TemplateDocumentConsoleCommandsBanOptional = TypedDict(
    "_TemplateDocumentConsoleCommandsBanOptional",
    {
        "expect": str,
    },
    total=False,
)


class TemplateDocumentConsoleCommandsBan(_TemplateDocumentConsoleCommandsBanRequired, _TemplateDocumentConsoleCommandsBanOptional):
    """The TemplateDocumentConsoleCommandsBan record."""


_TemplateDocumentConsoleCommandsUnbanRequired = TypedDict(
    "_TemplateDocumentConsoleCommandsUnbanRequired",
    {
        "command": str,
    },
)

_TemplateDocumentConsoleCommandsUnbanOptional = TypedDict(
    "_TemplateDocumentConsoleCommandsUnbanOptional",
    {
        "expect": str,
    },
    total=False,
)


class TemplateDocumentConsoleCommandsUnban(_TemplateDocumentConsoleCommandsUnbanRequired, _TemplateDocumentConsoleCommandsUnbanOptional):
    """The TemplateDocumentConsoleCommandsUnban record."""


_TemplateDocumentConsoleCommandsBroadcastRequired = TypedDict(
    "_TemplateDocumentConsoleCommandsBroadcastRequired",
    {
        "command": str,
    },
)

_TemplateDocumentConsoleCommandsBroadcastOptional = TypedDict(
    "_TemplateDocumentConsoleCommandsBroadcastOptional",
    {
        "expect": str,
    },
    total=False,
)


class TemplateDocumentConsoleCommandsBroadcast(_TemplateDocumentConsoleCommandsBroadcastRequired, _TemplateDocumentConsoleCommandsBroadcastOptional):
    """The TemplateDocumentConsoleCommandsBroadcast record."""


_TemplateDocumentConsoleCommandsOptional = TypedDict(
    "_TemplateDocumentConsoleCommandsOptional",
    {
        "list": TemplateDocumentConsoleCommandsList,
        "kick": TemplateDocumentConsoleCommandsKick,
        "ban": TemplateDocumentConsoleCommandsBan,
        "unban": TemplateDocumentConsoleCommandsUnban,
        "broadcast": TemplateDocumentConsoleCommandsBroadcast,
    },
    total=False,
)


class TemplateDocumentConsoleCommands(_TemplateDocumentConsoleCommandsOptional):
    """The TemplateDocumentConsoleCommands record."""


_TemplateDocumentConsoleRequired = TypedDict(
    "_TemplateDocumentConsoleRequired",
    {
        "mode": Literal["STDIN", "RCON", "NONE"],
    },
)

_TemplateDocumentConsoleOptional = TypedDict(
    "_TemplateDocumentConsoleOptional",
    {
        "rcon": TemplateDocumentConsoleRcon,
        "commands": TemplateDocumentConsoleCommands,
        "quoteArguments": bool,
    },
    total=False,
)


class TemplateDocumentConsole(_TemplateDocumentConsoleRequired, _TemplateDocumentConsoleOptional):
    """The TemplateDocumentConsole record."""


_TemplateDocumentPlayersOptional = TypedDict(
    "_TemplateDocumentPlayersOptional",
    {
        "join": str,
        "leave": str,
        "identify": str,
        "identity": Literal["id", "name"],
        "ignoreId": str,
    },
    total=False,
)


class TemplateDocumentPlayers(_TemplateDocumentPlayersOptional):
    """The TemplateDocumentPlayers record.

    join: A whole line of the game’s own (anchored with ^…$ to its log prefix; chat must never match) with named groups `name` and `id`.
    identify: A line printed before the join that ties `name` to `id` (Minecraft’s `UUID of player <name> is <uuid>`).
    identity: What identifies a player: the id the game prints (Steam id, UUID) or its name.
    ignoreId: An id matching this identifies nothing (offline-mode UUIDs): the name is used."""


_TemplateDocumentSamplesJoinItemRequired = TypedDict(
    "_TemplateDocumentSamplesJoinItemRequired",
    {
        "line": str,
        "name": str,
    },
)

_TemplateDocumentSamplesJoinItemOptional = TypedDict(
    "_TemplateDocumentSamplesJoinItemOptional",
    {
        "id": str,
    },
    total=False,
)


class TemplateDocumentSamplesJoinItem(_TemplateDocumentSamplesJoinItemRequired, _TemplateDocumentSamplesJoinItemOptional):
    """The TemplateDocumentSamplesJoinItem record."""


_TemplateDocumentSamplesLeaveItemRequired = TypedDict(
    "_TemplateDocumentSamplesLeaveItemRequired",
    {
        "line": str,
        "name": str,
    },
)

_TemplateDocumentSamplesLeaveItemOptional = TypedDict(
    "_TemplateDocumentSamplesLeaveItemOptional",
    {
        "id": str,
    },
    total=False,
)


class TemplateDocumentSamplesLeaveItem(_TemplateDocumentSamplesLeaveItemRequired, _TemplateDocumentSamplesLeaveItemOptional):
    """The TemplateDocumentSamplesLeaveItem record."""


_TemplateDocumentSamplesOptional = TypedDict(
    "_TemplateDocumentSamplesOptional",
    {
        "ready": List[str],
        "join": List[TemplateDocumentSamplesJoinItem],
        "leave": List[TemplateDocumentSamplesLeaveItem],
        "chat": List[str],
    },
    total=False,
)


class TemplateDocumentSamples(_TemplateDocumentSamplesOptional):
    """The TemplateDocumentSamples record.

    chat: Chat and other lines players control: no pattern may match them."""


_TemplateDocumentInstallRequired = TypedDict(
    "_TemplateDocumentInstallRequired",
    {
        "steps": List[Any],
    },
)

_TemplateDocumentInstallOptional = TypedDict(
    "_TemplateDocumentInstallOptional",
    {
        "tools": List[str],
    },
    total=False,
)


class TemplateDocumentInstall(_TemplateDocumentInstallRequired, _TemplateDocumentInstallOptional):
    """The TemplateDocumentInstall record."""


_TemplateDocumentUpdateRequired = TypedDict(
    "_TemplateDocumentUpdateRequired",
    {
        "steps": List[Any],
    },
)

_TemplateDocumentUpdateOptional = TypedDict(
    "_TemplateDocumentUpdateOptional",
    {
        "tools": List[str],
    },
    total=False,
)


class TemplateDocumentUpdate(_TemplateDocumentUpdateRequired, _TemplateDocumentUpdateOptional):
    """Absent: the install steps again (each is a no-op when current)."""


_TemplateDocumentConfigFilesItemReplaceItemRequired = TypedDict(
    "_TemplateDocumentConfigFilesItemReplaceItemRequired",
    {
        "find": str,
        "replace": str,
    },
)


class TemplateDocumentConfigFilesItemReplaceItem(_TemplateDocumentConfigFilesItemReplaceItemRequired):
    """The TemplateDocumentConfigFilesItemReplaceItem record."""


_TemplateDocumentConfigFilesItemRequired = TypedDict(
    "_TemplateDocumentConfigFilesItemRequired",
    {
        "path": str,
        "format": Literal["properties", "ini", "json", "yaml", "xml", "cfg", "replace"],
    },
)

_TemplateDocumentConfigFilesItemOptional = TypedDict(
    "_TemplateDocumentConfigFilesItemOptional",
    {
        "set": Dict[str, str],
        "replace": List[TemplateDocumentConfigFilesItemReplaceItem],
        "when": str,
    },
    total=False,
)


class TemplateDocumentConfigFilesItem(_TemplateDocumentConfigFilesItemRequired, _TemplateDocumentConfigFilesItemOptional):
    """The TemplateDocumentConfigFilesItem record."""


_TemplateDocumentFilesOptional = TypedDict(
    "_TemplateDocumentFilesOptional",
    {
        "deny": List[str],
        "wipe": List[str],
        "backupSkip": List[str],
        "adminOnly": List[str],
    },
    total=False,
)


class TemplateDocumentFiles(_TemplateDocumentFilesOptional):
    """The TemplateDocumentFiles record.

    deny: gitignore-style patterns members may not read or write.
    wipe: Paths (globs with `*`) a WIPE removes.
    backupSkip: gitignore-style patterns a backup leaves out.
    adminOnly: gitignore-style patterns of files that hold the server's RCON password: only members with the RCON permission (OWNER, ADMIN) may read or write them; for the others they are denied."""


_TemplateDocumentPortsItemRequired = TypedDict(
    "_TemplateDocumentPortsItemRequired",
    {
        "name": str,
        "protocol": Literal["tcp", "udp", "tcp+udp"],
    },
)

_TemplateDocumentPortsItemOptional = TypedDict(
    "_TemplateDocumentPortsItemOptional",
    {
        "default": int,
        "offset": int,
        "description": str,
    },
    total=False,
)


class TemplateDocumentPortsItem(_TemplateDocumentPortsItemRequired, _TemplateDocumentPortsItemOptional):
    """The TemplateDocumentPortsItem record.

    offset: From the game port (gamePort + offset)."""


_TemplateDocumentQueryRequired = TypedDict(
    "_TemplateDocumentQueryRequired",
    {
        "protocol": Literal["A2S", "MINECRAFT", "MINECRAFT_BEDROCK", "GAMESPY1", "GAMESPY2", "GAMESPY3", "EOS", "TERRARIA", "FACTORIO", "RCON"],
    },
)

_TemplateDocumentQueryOptional = TypedDict(
    "_TemplateDocumentQueryOptional",
    {
        "port": str,
    },
    total=False,
)


class TemplateDocumentQuery(_TemplateDocumentQueryRequired, _TemplateDocumentQueryOptional):
    """The TemplateDocumentQuery record.

    port: The name of the port in `ports` it answers on."""


_TemplateDocumentSourcesItemRequired = TypedDict(
    "_TemplateDocumentSourcesItemRequired",
    {
        "fact": str,
    },
)

_TemplateDocumentSourcesItemOptional = TypedDict(
    "_TemplateDocumentSourcesItemOptional",
    {
        "url": str,
        "note": str,
    },
    total=False,
)


class TemplateDocumentSourcesItem(_TemplateDocumentSourcesItemRequired, _TemplateDocumentSourcesItemOptional):
    """The TemplateDocumentSourcesItem record.

    fact: What it backs, e.g. `steamcmd.appId`, `ready`, `players.join`, `ports`."""


_TemplateDocumentRequired = TypedDict(
    "_TemplateDocumentRequired",
    {
        "id": str,
        "name": str,
        "start": TemplateDocumentStart,
        "ready": Any,
        "stop": Any,
        "console": TemplateDocumentConsole,
        "ports": List[TemplateDocumentPortsItem],
    },
)

_TemplateDocumentOptional = TypedDict(
    "_TemplateDocumentOptional",
    {
        "version": int,
        "description": str,
        "gameType": Literal["MINECRAFT", "RUST", "ARK_SURVIVAL_EVOLVED", "CS2", "VALHEIM", "CUSTOM"],
        "tags": List[str],
        "links": List[TemplateDocumentLinksItem],
        "platforms": List[Literal["linux", "windows"]],
        "defaultMaxPlayers": int,
        "variables": List[TemplateDocumentVariablesItem],
        "players": TemplateDocumentPlayers,
        "samples": TemplateDocumentSamples,
        "install": TemplateDocumentInstall,
        "update": TemplateDocumentUpdate,
        "configFiles": List[TemplateDocumentConfigFilesItem],
        "files": TemplateDocumentFiles,
        "query": TemplateDocumentQuery,
        "sources": List[TemplateDocumentSourcesItem],
    },
    total=False,
)


class TemplateDocument(_TemplateDocumentRequired, _TemplateDocumentOptional):
    """The TemplateDocument record.

    platforms: Where its dedicated server runs; a template without `linux` is refused for servers (agents run Linux).
    update: Absent: the install steps again (each is a no-op when current)."""


_JobErrorRequired = TypedDict(
    "_JobErrorRequired",
    {
        "code": str,
        "message": str,
    },
)

_JobErrorOptional = TypedDict(
    "_JobErrorOptional",
    {
        "consoleTail": List[str],
    },
    total=False,
)


class JobError(_JobErrorRequired, _JobErrorOptional):
    """The JobError record.

    consoleTail: The game's last console lines (up to 20), when the game itself failed the job: it crashed or never started."""


_JobProgressRequired = TypedDict(
    "_JobProgressRequired",
    {
        "percent": Optional[float],
        "message": Optional[str],
    },
)

_JobProgressOptional = TypedDict(
    "_JobProgressOptional",
    {
        "phase": str,
        "bytesDone": float,
        "bytesTotal": Optional[float],
    },
    total=False,
)


class JobProgress(_JobProgressRequired, _JobProgressOptional):
    """While it runs, how far it is, from its agent (installs, updates, backups, restores); null before the first report.

    percent: How far it is (0..100), or null when not known.
    phase: A TRANSFER's phase (docs/transfers.md): CHECK_SPACE, STOP, PACK, COPY, SWITCH, START, CLEAN_UP or ROLL_BACK.
    bytesDone: A TRANSFER: bytes copied to the target and acknowledged by it.
    bytesTotal: A TRANSFER: bytes to copy (the archive and the backups), once known."""


_JobCreatedByRequired = TypedDict(
    "_JobCreatedByRequired",
    {
        "kind": Literal["USER", "TOKEN", "TASK", "SYSTEM"],
        "id": Optional[str],
    },
)


class JobCreatedBy(_JobCreatedByRequired):
    """The JobCreatedBy record."""


_JobRequired = TypedDict(
    "_JobRequired",
    {
        "id": str,
        "clusterId": str,
        "serverId": Optional[str],
        "machineId": Optional[str],
        "playerId": Optional[str],
        "taskId": Optional[str],
        "type": Literal["START", "STOP", "RESTART", "KILL", "RCON", "KICK", "BAN", "UNBAN", "BROADCAST", "WIPE", "TASK_RUN", "INSTALL", "UPDATE", "BACKUP", "RESTORE", "FILE_COMPRESS", "FILE_EXTRACT", "FILE_PULL", "TRANSFER"],
        "status": Literal["QUEUED", "DISPATCHED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED", "EXPIRED"],
        "params": Dict[str, Any],
        "result": Optional[Dict[str, Any]],
        "error": Optional[JobError],
        "progress": Optional[JobProgress],
        "attempts": int,
        "createdBy": JobCreatedBy,
        "idempotencyKey": Optional[str],
        "createdAt": str,
        "dispatchedAt": Optional[str],
        "startedAt": Optional[str],
        "finishedAt": Optional[str],
        "expiresAt": str,
    },
)


class Job(_JobRequired):
    """The Job record.

    progress: While it runs, how far it is, from its agent (installs, updates, backups, restores); null before the first report."""


_RconAnswerRequired = TypedDict(
    "_RconAnswerRequired",
    {
        "success": bool,
        "output": Optional[str],
        "jobId": str,
        "status": Literal["QUEUED", "DISPATCHED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED", "EXPIRED"],
    },
)


class RconAnswer(_RconAnswerRequired):
    """The RconAnswer record."""


_BackupErrorRequired = TypedDict(
    "_BackupErrorRequired",
    {
        "code": str,
        "message": str,
    },
)


class BackupError(_BackupErrorRequired):
    """Why it failed."""


_BackupRequired = TypedDict(
    "_BackupRequired",
    {
        "id": str,
        "serverId": str,
        "clusterId": str,
        "jobId": str,
        "name": str,
        "status": Literal["PENDING", "COMPLETED", "FAILED"],
        "sizeBytes": Optional[float],
        "sha256": Optional[str],
        "consistent": Optional[bool],
        "location": Optional[Literal["LOCAL", "S3"]],
        "error": Optional[BackupError],
        "createdAt": str,
        "completedAt": Optional[str],
    },
)


class Backup(_BackupRequired):
    """The Backup record.

    jobId: The BACKUP job that makes it.
    sizeBytes: Size of the archive (tar.gz), once completed.
    sha256: SHA-256 of the archive (hex), checked again when it is restored.
    consistent: true: the server was stopped, or (MINECRAFT) flushed with saving paused while archived; false: archived while the game was writing.
    location: LOCAL: on the machine; S3: in the machine's S3-compatible storage.
    error: Why it failed."""


_TransferRequestRequired = TypedDict(
    "_TransferRequestRequired",
    {
        "machineId": str,
    },
)

_TransferRequestOptional = TypedDict(
    "_TransferRequestOptional",
    {
        "allocations": Dict[str, int],
        "keepSource": bool,
        "includeBackups": bool,
        "bandwidthLimit": int,
        "live": bool,
    },
    total=False,
)


class TransferRequest(_TransferRequestRequired, _TransferRequestOptional):
    """The TransferRequest record.

    machineId: The machine to move the server to: another machine of the server’s cluster.
    allocations: Ports on the target by name (`game`, `query`, `rcon`, extras); those not given are picked free from the target’s port ranges. They are reserved at once.
    keepSource: Keep the server’s files on the source machine after the switch (default false).
    includeBackups: Copy the server’s local backups to the target (default true); false: they are deleted at the switch (the job’s `params.backupsToDelete` lists them). Those on S3 are re-pointed either way.
    bandwidthLimit: Bytes per second the copy may use (default: no limit).
    live: Not offered: `true` is refused (400). The server is stopped for the whole copy."""


_FileEntryRequired = TypedDict(
    "_FileEntryRequired",
    {
        "name": str,
        "type": Literal["file", "directory", "symlink", "other"],
        "size": float,
        "mode": float,
        "modifiedAt": str,
    },
)

_FileEntryOptional = TypedDict(
    "_FileEntryOptional",
    {
        "linkTarget": str,
        "invalidName": bool,
        "etag": str,
    },
    total=False,
)


class FileEntry(_FileEntryRequired, _FileEntryOptional):
    """The FileEntry record.

    mode: Permission bits (0–0777, and setuid/setgid/sticky as found)
    linkTarget: A symbolic link's target as written (never followed by a listing)
    invalidName: The name on disk is not valid UTF-8: `name` shows each byte that is not as `\\xHH`; such an entry can be renamed and deleted by that name
    etag: A regular file's version, for If-Match"""


_FileListRequired = TypedDict(
    "_FileListRequired",
    {
        "path": str,
        "entries": List[FileEntry],
        "total": float,
        "next": Optional[str],
    },
)


class FileList(_FileListRequired):
    """The FileList record."""


_FileTextRequired = TypedDict(
    "_FileTextRequired",
    {
        "path": str,
        "content": str,
        "size": float,
        "etag": str,
        "modifiedAt": str,
    },
)


class FileText(_FileTextRequired):
    """The FileText record."""


_FileWriteResultRequired = TypedDict(
    "_FileWriteResultRequired",
    {
        "entry": FileEntry,
        "size": float,
        "versionId": Optional[str],
    },
)


class FileWriteResult(_FileWriteResultRequired):
    """The FileWriteResult record.

    versionId: The config history version kept (text files ≤ 1 MiB)"""


_FileSearchResultMatchesItemRequired = TypedDict(
    "_FileSearchResultMatchesItemRequired",
    {
        "path": str,
        "type": str,
        "size": float,
    },
)

_FileSearchResultMatchesItemOptional = TypedDict(
    "_FileSearchResultMatchesItemOptional",
    {
        "line": float,
        "text": str,
    },
    total=False,
)


class FileSearchResultMatchesItem(_FileSearchResultMatchesItemRequired, _FileSearchResultMatchesItemOptional):
    """The FileSearchResultMatchesItem record."""


_FileSearchResultRequired = TypedDict(
    "_FileSearchResultRequired",
    {
        "matches": List[FileSearchResultMatchesItem],
        "scannedFiles": float,
        "scannedBytes": float,
        "stoppedEarly": Optional[Literal["depth", "files", "bytes", "results", "time"]],
    },
)


class FileSearchResult(_FileSearchResultRequired):
    """The FileSearchResult record.

    stoppedEarly: Which bound stopped the search before it was complete"""


_FileVersionActorRequired = TypedDict(
    "_FileVersionActorRequired",
    {
        "kind": str,
        "id": Optional[str],
        "name": Optional[str],
    },
)


class FileVersionActor(_FileVersionActorRequired):
    """The FileVersionActor record."""


_FileVersionRequired = TypedDict(
    "_FileVersionRequired",
    {
        "id": str,
        "path": str,
        "size": float,
        "sha256": str,
        "via": Literal["api", "sftp", "restore"],
        "actor": FileVersionActor,
        "createdAt": str,
    },
)


class FileVersion(_FileVersionRequired):
    """The FileVersion record."""


_FileVersionContentActorRequired = TypedDict(
    "_FileVersionContentActorRequired",
    {
        "kind": str,
        "id": Optional[str],
        "name": Optional[str],
    },
)


class FileVersionContentActor(_FileVersionContentActorRequired):
    """The FileVersionContentActor record."""


_FileVersionContentRequired = TypedDict(
    "_FileVersionContentRequired",
    {
        "id": str,
        "path": str,
        "size": float,
        "sha256": str,
        "via": Literal["api", "sftp", "restore"],
        "actor": FileVersionContentActor,
        "createdAt": str,
        "content": str,
    },
)


class FileVersionContent(_FileVersionContentRequired):
    """The FileVersionContent record."""


_FileDiffRequired = TypedDict(
    "_FileDiffRequired",
    {
        "from": str,
        "to": str,
        "diff": str,
    },
)


class FileDiff(_FileDiffRequired):
    """The FileDiff record."""


_FileUploadRequired = TypedDict(
    "_FileUploadRequired",
    {
        "id": str,
        "path": str,
        "size": float,
        "offset": float,
        "complete": bool,
        "expiresAt": str,
        "entry": Optional[FileEntry],
    },
)


class FileUpload(_FileUploadRequired):
    """The FileUpload record.

    offset: Bytes received so far: the next PATCH sends from here
    entry: The written file, once complete"""


_TaskStepsItemRequired = TypedDict(
    "_TaskStepsItemRequired",
    {
        "type": Literal["START", "STOP", "RESTART", "RCON", "BROADCAST", "WIPE", "BACKUP"],
        "delaySeconds": int,
        "continueOnFailure": bool,
    },
)

_TaskStepsItemOptional = TypedDict(
    "_TaskStepsItemOptional",
    {
        "command": str,
        "message": str,
    },
    total=False,
)


class TaskStepsItem(_TaskStepsItemRequired, _TaskStepsItemOptional):
    """The TaskStepsItem record."""


_TaskRequired = TypedDict(
    "_TaskRequired",
    {
        "id": str,
        "clusterId": str,
        "name": str,
        "description": Optional[str],
        "schedule": str,
        "timezone": str,
        "serverIds": List[str],
        "steps": List[TaskStepsItem],
        "onlyWhenOnline": bool,
        "enabled": bool,
        "nextRunAt": Optional[str],
        "lastRunAt": Optional[str],
        "lastRunStatus": Optional[Literal["RUNNING", "SUCCEEDED", "FAILED", "CANCELLED", "EXPIRED", "MISSED", "SKIPPED"]],
        "createdAt": str,
        "updatedAt": str,
    },
)


class Task(_TaskRequired):
    """The Task record.

    nextRunAt: The pending occurrence; null while disabled."""


_TaskStepRequired = TypedDict(
    "_TaskStepRequired",
    {
        "type": Literal["START", "STOP", "RESTART", "RCON", "BROADCAST", "WIPE", "BACKUP"],
    },
)

_TaskStepOptional = TypedDict(
    "_TaskStepOptional",
    {
        "command": str,
        "message": str,
        "delaySeconds": int,
        "continueOnFailure": bool,
    },
    total=False,
)


class TaskStep(_TaskStepRequired, _TaskStepOptional):
    """The TaskStep record.

    command: RCON steps: the console command.
    message: BROADCAST steps: the message players see.
    delaySeconds: Seconds to wait after the previous step before this one (0..3600).
    continueOnFailure: Go on with the next step when this one fails on some server."""


_SchedulePreviewRequired = TypedDict(
    "_SchedulePreviewRequired",
    {
        "schedule": str,
        "timezone": str,
        "runs": List[str],
    },
)


class SchedulePreview(_SchedulePreviewRequired):
    """The SchedulePreview record.

    runs: The next runs, oldest first (UTC instants; show them in `timezone`)."""


_ServerMetricsPointsItemCpuPercentRequired = TypedDict(
    "_ServerMetricsPointsItemCpuPercentRequired",
    {
        "avg": float,
        "max": float,
    },
)


class ServerMetricsPointsItemCpuPercent(_ServerMetricsPointsItemCpuPercentRequired):
    """The ServerMetricsPointsItemCpuPercent record."""


_ServerMetricsPointsItemMemoryBytesRequired = TypedDict(
    "_ServerMetricsPointsItemMemoryBytesRequired",
    {
        "avg": float,
        "max": float,
    },
)


class ServerMetricsPointsItemMemoryBytes(_ServerMetricsPointsItemMemoryBytesRequired):
    """The ServerMetricsPointsItemMemoryBytes record."""


_ServerMetricsPointsItemPlayersOnlineRequired = TypedDict(
    "_ServerMetricsPointsItemPlayersOnlineRequired",
    {
        "avg": float,
        "max": float,
    },
)


class ServerMetricsPointsItemPlayersOnline(_ServerMetricsPointsItemPlayersOnlineRequired):
    """The ServerMetricsPointsItemPlayersOnline record."""


_ServerMetricsPointsItemRequired = TypedDict(
    "_ServerMetricsPointsItemRequired",
    {
        "at": str,
        "cpuPercent": ServerMetricsPointsItemCpuPercent,
        "memoryBytes": ServerMetricsPointsItemMemoryBytes,
        "playersOnline": ServerMetricsPointsItemPlayersOnline,
    },
)


class ServerMetricsPointsItem(_ServerMetricsPointsItemRequired):
    """The ServerMetricsPointsItem record."""


_ServerMetricsRequired = TypedDict(
    "_ServerMetricsRequired",
    {
        "step": Literal["1m", "5m", "15m", "1h", "6h", "1d"],
        "from": str,
        "to": str,
        "points": List[ServerMetricsPointsItem],
    },
)


class ServerMetrics(_ServerMetricsRequired):
    """The ServerMetrics record."""


_MachineMetricsHistoryPointsItemCpuPercentRequired = TypedDict(
    "_MachineMetricsHistoryPointsItemCpuPercentRequired",
    {
        "avg": float,
        "max": float,
    },
)


class MachineMetricsHistoryPointsItemCpuPercent(_MachineMetricsHistoryPointsItemCpuPercentRequired):
    """The MachineMetricsHistoryPointsItemCpuPercent record."""


_MachineMetricsHistoryPointsItemMemoryBytesRequired = TypedDict(
    "_MachineMetricsHistoryPointsItemMemoryBytesRequired",
    {
        "avg": float,
        "max": float,
    },
)


class MachineMetricsHistoryPointsItemMemoryBytes(_MachineMetricsHistoryPointsItemMemoryBytesRequired):
    """The MachineMetricsHistoryPointsItemMemoryBytes record."""


_MachineMetricsHistoryPointsItemDiskUsedBytesRequired = TypedDict(
    "_MachineMetricsHistoryPointsItemDiskUsedBytesRequired",
    {
        "avg": float,
        "max": float,
    },
)


class MachineMetricsHistoryPointsItemDiskUsedBytes(_MachineMetricsHistoryPointsItemDiskUsedBytesRequired):
    """The MachineMetricsHistoryPointsItemDiskUsedBytes record."""


_MachineMetricsHistoryPointsItemRequired = TypedDict(
    "_MachineMetricsHistoryPointsItemRequired",
    {
        "at": str,
        "cpuPercent": MachineMetricsHistoryPointsItemCpuPercent,
        "memoryBytes": MachineMetricsHistoryPointsItemMemoryBytes,
        "diskUsedBytes": MachineMetricsHistoryPointsItemDiskUsedBytes,
    },
)


class MachineMetricsHistoryPointsItem(_MachineMetricsHistoryPointsItemRequired):
    """The MachineMetricsHistoryPointsItem record."""


_MachineMetricsHistoryRequired = TypedDict(
    "_MachineMetricsHistoryRequired",
    {
        "step": Literal["1m", "5m", "15m", "1h", "6h", "1d"],
        "from": str,
        "to": str,
        "points": List[MachineMetricsHistoryPointsItem],
    },
)


class MachineMetricsHistory(_MachineMetricsHistoryRequired):
    """The MachineMetricsHistory record."""


_ClusterPlayersOnlinePointsItemPlayersOnlineRequired = TypedDict(
    "_ClusterPlayersOnlinePointsItemPlayersOnlineRequired",
    {
        "avg": float,
        "max": float,
    },
)


class ClusterPlayersOnlinePointsItemPlayersOnline(_ClusterPlayersOnlinePointsItemPlayersOnlineRequired):
    """The ClusterPlayersOnlinePointsItemPlayersOnline record."""


_ClusterPlayersOnlinePointsItemRequired = TypedDict(
    "_ClusterPlayersOnlinePointsItemRequired",
    {
        "at": str,
        "playersOnline": ClusterPlayersOnlinePointsItemPlayersOnline,
    },
)


class ClusterPlayersOnlinePointsItem(_ClusterPlayersOnlinePointsItemRequired):
    """The ClusterPlayersOnlinePointsItem record."""


_ClusterPlayersOnlineRequired = TypedDict(
    "_ClusterPlayersOnlineRequired",
    {
        "step": Literal["1m", "5m", "15m", "1h", "6h", "1d"],
        "from": str,
        "to": str,
        "points": List[ClusterPlayersOnlinePointsItem],
    },
)


class ClusterPlayersOnline(_ClusterPlayersOnlineRequired):
    """The ClusterPlayersOnline record."""


_PlayerCurrentServerRequired = TypedDict(
    "_PlayerCurrentServerRequired",
    {
        "id": str,
        "name": str,
    },
)


class PlayerCurrentServer(_PlayerCurrentServerRequired):
    """The PlayerCurrentServer record."""


_PlayerRequired = TypedDict(
    "_PlayerRequired",
    {
        "id": str,
        "username": str,
        "steamId": str,
        "uuid": Optional[str],
        "playtime": int,
        "firstSeen": str,
        "lastSeen": str,
        "online": bool,
        "currentServer": Optional[PlayerCurrentServer],
        "flags": List[str],
    },
)


class Player(_PlayerRequired):
    """The Player record.

    steamId: Identifier on a game platform (a Minecraft player: its name or UUID)
    playtime: Seconds played, including the current session"""


_PlayerStatsActiveRequired = TypedDict(
    "_PlayerStatsActiveRequired",
    {
        "today": int,
        "week": int,
        "month": int,
    },
)


class PlayerStatsActive(_PlayerStatsActiveRequired):
    """Distinct players with a session overlapping the last 24 h / 7 days / 30 days"""


_PlayerStatsNewRequired = TypedDict(
    "_PlayerStatsNewRequired",
    {
        "today": int,
        "week": int,
        "month": int,
    },
)


class PlayerStatsNew(_PlayerStatsNewRequired):
    """Players first seen in the window"""


_PlayerStatsTopPlayersItemRequired = TypedDict(
    "_PlayerStatsTopPlayersItemRequired",
    {
        "id": str,
        "username": str,
        "playtime": int,
    },
)


class PlayerStatsTopPlayersItem(_PlayerStatsTopPlayersItemRequired):
    """The PlayerStatsTopPlayersItem record."""


_PlayerStatsRetentionRequired = TypedDict(
    "_PlayerStatsRetentionRequired",
    {
        "day1": float,
        "day7": float,
        "day30": float,
    },
)


class PlayerStatsRetention(_PlayerStatsRetentionRequired):
    """dayN: of players first seen between N+30 and N days ago, the fraction with a session starting at least N days after their first"""


_PlayerStatsRequired = TypedDict(
    "_PlayerStatsRequired",
    {
        "total": int,
        "active": PlayerStatsActive,
        "new": PlayerStatsNew,
        "topPlayers": List[PlayerStatsTopPlayersItem],
        "retention": PlayerStatsRetention,
    },
)


class PlayerStats(_PlayerStatsRequired):
    """The PlayerStats record.

    active: Distinct players with a session overlapping the last 24 h / 7 days / 30 days
    new: Players first seen in the window
    topPlayers: 10 by playtime
    retention: dayN: of players first seen between N+30 and N days ago, the fraction with a session starting at least N days after their first"""


_PlayerDetailCurrentServerRequired = TypedDict(
    "_PlayerDetailCurrentServerRequired",
    {
        "id": str,
        "name": str,
    },
)


class PlayerDetailCurrentServer(_PlayerDetailCurrentServerRequired):
    """The PlayerDetailCurrentServer record."""


_SessionRequired = TypedDict(
    "_SessionRequired",
    {
        "id": str,
        "serverId": str,
        "serverName": str,
        "joinedAt": str,
        "leftAt": Optional[str],
        "duration": int,
    },
)


class Session(_SessionRequired):
    """The Session record.

    leftAt: Null while the session is open
    duration: Seconds; for an open session, so far"""


_PurchaseRequired = TypedDict(
    "_PurchaseRequired",
    {
        "id": str,
        "productName": str,
        "amount": float,
        "currency": str,
        "createdAt": str,
    },
)


class Purchase(_PurchaseRequired):
    """The Purchase record."""


_NoteRequired = TypedDict(
    "_NoteRequired",
    {
        "id": str,
        "content": str,
        "createdBy": str,
        "createdAt": str,
    },
)


class Note(_NoteRequired):
    """The Note record."""


_PlayerDetailRequired = TypedDict(
    "_PlayerDetailRequired",
    {
        "id": str,
        "username": str,
        "steamId": str,
        "uuid": Optional[str],
        "playtime": int,
        "firstSeen": str,
        "lastSeen": str,
        "online": bool,
        "currentServer": Optional[PlayerDetailCurrentServer],
        "flags": List[str],
        "clusterId": str,
        "discordId": Optional[str],
        "sessions": List[Session],
        "purchases": List[Purchase],
        "notes": List[Note],
    },
)


class PlayerDetail(_PlayerDetailRequired):
    """The PlayerDetail record.

    steamId: Identifier on a game platform (a Minecraft player: its name or UUID)
    playtime: Seconds played, including the current session
    sessions: The newest 100; all of them at /api/v1/players/{id}/sessions
    notes: Newest first"""


_OnlinePlayerRequired = TypedDict(
    "_OnlinePlayerRequired",
    {
        "id": str,
        "username": str,
        "steamId": str,
        "joinedAt": str,
        "ping": Optional[float],
    },
)


class OnlinePlayer(_OnlinePlayerRequired):
    """The OnlinePlayer record."""


_ServerPlayersRequired = TypedDict(
    "_ServerPlayersRequired",
    {
        "online": int,
        "max": int,
        "players": List[OnlinePlayer],
    },
)


class ServerPlayers(_ServerPlayersRequired):
    """The ServerPlayers record."""


_KickAnswerRequired = TypedDict(
    "_KickAnswerRequired",
    {
        "success": bool,
        "message": str,
        "jobId": str,
        "status": Literal["QUEUED", "DISPATCHED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED", "EXPIRED"],
    },
)


class KickAnswer(_KickAnswerRequired):
    """The KickAnswer record."""


_BanPlayerRequired = TypedDict(
    "_BanPlayerRequired",
    {
        "id": str,
        "username": str,
        "steamId": Optional[str],
    },
)


class BanPlayer(_BanPlayerRequired):
    """The banned player as people know it (its id is also `playerId`)"""


_BanRequired = TypedDict(
    "_BanRequired",
    {
        "id": str,
        "playerId": str,
        "clusterId": str,
        "serverId": Optional[str],
        "reason": str,
        "clusterWide": bool,
        "expiresAt": Optional[str],
        "createdBy": str,
        "createdAt": str,
        "revokedAt": Optional[str],
        "active": bool,
        "player": BanPlayer,
        "serverName": Optional[str],
    },
)


class Ban(_BanRequired):
    """The Ban record.

    expiresAt: Null: permanent
    createdBy: User id
    active: Not revoked and not expired
    player: The banned player as people know it (its id is also `playerId`)
    serverName: The name of the ban's server (`serverId`); null for a cluster-wide ban"""


_BanAnswerRequired = TypedDict(
    "_BanAnswerRequired",
    {
        "success": bool,
        "ban": Ban,
        "jobIds": List[str],
    },
)


class BanAnswer(_BanAnswerRequired):
    """The BanAnswer record."""


_UnbanAnswerRequired = TypedDict(
    "_UnbanAnswerRequired",
    {
        "success": bool,
        "message": str,
        "bans": List[Ban],
        "jobIds": List[str],
    },
)


class UnbanAnswer(_UnbanAnswerRequired):
    """The UnbanAnswer record.

    bans: The bans revoked (each with `revokedAt`)
    jobIds: UNBAN jobs, one per server where no ban of the player applies any more"""


_EventRequired = TypedDict(
    "_EventRequired",
    {
        "id": str,
        "type": str,
        "clusterId": str,
        "at": str,
        "data": Dict[str, Any],
    },
)


class Event(_EventRequired):
    """The Event record.

    id: Cursor: sorts as a string in the order events must be read"""


__all__ = ["ErrorDetailsItem", "Error", "User", "TokenPair", "OAuthStart", "TokenListItem", "TokenCreated", "SshKey", "ClusterCounts", "Cluster", "Member", "Invitation", "InvitationCreated", "InvitationPreview", "AuditEntryActor", "AuditEntryTarget", "AuditEntry", "MachineMetrics", "MachineSftp", "Machine", "MachineRegisteredMetrics", "MachineRegisteredSftp", "MachineRegisteredConnect", "MachineRegisteredInstall", "MachineRegistered", "AgentTokenRotatedConnect", "AgentTokenRotatedInstall", "AgentTokenRotated", "MachineInstallCodeConnect", "MachineInstallCodeInstall", "MachineInstallCode", "InstallCodeExchangedConnect", "InstallCodeExchanged", "AgentUpgradeMachinesItem", "AgentUpgrade", "PortRange", "MachineAllocation", "MachineAllocations", "ServerStats", "ServerReady", "ServerStop", "ServerPort", "ServerQuery", "Server", "ConsoleLine", "Console", "Webhook", "WebhookCreated", "WebhookDelivery", "Template", "TemplateImport", "TemplateSummary", "TemplateDocumentLinksItem", "TemplateDocumentVariablesItemValidation", "TemplateDocumentVariablesItem", "TemplateDocumentStart", "TemplateDocumentConsoleRcon", "TemplateDocumentConsoleCommandsList", "TemplateDocumentConsoleCommandsKick", "TemplateDocumentConsoleCommandsBan", "TemplateDocumentConsoleCommandsUnban", "TemplateDocumentConsoleCommandsBroadcast", "TemplateDocumentConsoleCommands", "TemplateDocumentConsole", "TemplateDocumentPlayers", "TemplateDocumentSamplesJoinItem", "TemplateDocumentSamplesLeaveItem", "TemplateDocumentSamples", "TemplateDocumentInstall", "TemplateDocumentUpdate", "TemplateDocumentConfigFilesItemReplaceItem", "TemplateDocumentConfigFilesItem", "TemplateDocumentFiles", "TemplateDocumentPortsItem", "TemplateDocumentQuery", "TemplateDocumentSourcesItem", "TemplateDocument", "JobError", "JobProgress", "JobCreatedBy", "Job", "RconAnswer", "BackupError", "Backup", "TransferRequest", "FileEntry", "FileList", "FileText", "FileWriteResult", "FileSearchResultMatchesItem", "FileSearchResult", "FileVersionActor", "FileVersion", "FileVersionContentActor", "FileVersionContent", "FileDiff", "FileUpload", "TaskStepsItem", "Task", "TaskStep", "SchedulePreview", "ServerMetricsPointsItemCpuPercent", "ServerMetricsPointsItemMemoryBytes", "ServerMetricsPointsItemPlayersOnline", "ServerMetricsPointsItem", "ServerMetrics", "MachineMetricsHistoryPointsItemCpuPercent", "MachineMetricsHistoryPointsItemMemoryBytes", "MachineMetricsHistoryPointsItemDiskUsedBytes", "MachineMetricsHistoryPointsItem", "MachineMetricsHistory", "ClusterPlayersOnlinePointsItemPlayersOnline", "ClusterPlayersOnlinePointsItem", "ClusterPlayersOnline", "PlayerCurrentServer", "Player", "PlayerStatsActive", "PlayerStatsNew", "PlayerStatsTopPlayersItem", "PlayerStatsRetention", "PlayerStats", "PlayerDetailCurrentServer", "Session", "Purchase", "Note", "PlayerDetail", "OnlinePlayer", "ServerPlayers", "KickAnswer", "BanPlayer", "Ban", "BanAnswer", "UnbanAnswer", "Event"]
