// Code generated from the API document by test/clients/languageTypes.ts (npm run generate:client). DO NOT EDIT.

package gsm

// ErrorDetailsItem: the ErrorDetailsItem record.
type ErrorDetailsItem struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Error: Every error answer has this body.
type Error struct {
	StatusCode int64              `json:"statusCode"`
	Message    string             `json:"message"`
	Error      string             `json:"error"`
	Details    []ErrorDetailsItem `json:"details,omitempty"`
	RetryAfter *int64             `json:"retryAfter,omitempty"`
}

// User: the User record.
type User struct {
	ID          string `json:"id"`
	Email       string `json:"email"`
	DisplayName string `json:"displayName"`
	// Your SFTP name: sign in to a server's files as `<handle>.<server short id>` (docs/sftp.md). Chosen from your e-mail address.
	Handle    string  `json:"handle"`
	SteamID   *string `json:"steamId"`
	DiscordID *string `json:"discordId"`
	// Whether the account has a password (one made with Steam or Discord has none until it sets one).
	HasPassword bool `json:"hasPassword"`
	// One of FREE, PRO, ENTERPRISE.
	Tier string `json:"tier"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
}

// TokenPair: the TokenPair record.
type TokenPair struct {
	AccessToken  string `json:"accessToken"`
	RefreshToken string `json:"refreshToken"`
	// One of Bearer.
	TokenType string `json:"tokenType"`
	// Seconds the access token is valid (86400).
	ExpiresIn int64 `json:"expiresIn"`
}

// OAuthStart: the OAuthStart record.
type OAuthStart struct {
	// The provider's sign-in page: send the browser there
	URL string `json:"url"`
}

// TokenListItem: the TokenListItem record.
type TokenListItem struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	ClusterIDs []string `json:"clusterIds"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
	// RFC 3339 time.
	LastUsedAt *string `json:"lastUsedAt"`
	// RFC 3339 time.
	ExpiresAt *string `json:"expiresAt"`
}

// TokenCreated: the TokenCreated record.
type TokenCreated struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	ClusterIDs []string `json:"clusterIds"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
	// RFC 3339 time.
	LastUsedAt *string `json:"lastUsedAt"`
	// RFC 3339 time.
	ExpiresAt *string `json:"expiresAt"`
	// The secret, shown only in this answer.
	Token  string `json:"token"`
	UserID string `json:"userId"`
}

// SshKey: the SshKey record.
type SshKey struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// One of ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256, ecdsa-sha2-nistp384, ecdsa-sha2-nistp521.
	Algorithm string `json:"algorithm"`
	Bits      int64  `json:"bits"`
	// SHA256 fingerprint as `ssh-keygen -l` prints it.
	Fingerprint string `json:"fingerprint"`
	// The key in OpenSSH form (`<type> <base64>`), without its comment.
	PublicKey string `json:"publicKey"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
	// RFC 3339 time.
	LastUsedAt *string `json:"lastUsedAt"`
}

// ClusterCounts: the ClusterCounts record.
type ClusterCounts struct {
	Machines int64 `json:"machines"`
	Servers  int64 `json:"servers"`
	Members  int64 `json:"members"`
}

// Cluster: the Cluster record.
type Cluster struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Description *string `json:"description"`
	// The caller's role in this cluster.
	// One of OWNER, ADMIN, MODERATOR, VIEWER.
	Role   string        `json:"role"`
	Counts ClusterCounts `json:"counts"`
	// The default file deny list (gitignore-style patterns) of the cluster's servers whose template has none (docs/files.md#the-deny-list).
	FileDenyList []string `json:"fileDenyList"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
	// RFC 3339 time.
	UpdatedAt string `json:"updatedAt"`
}

// Member: the Member record.
type Member struct {
	UserID      string `json:"userId"`
	Email       string `json:"email"`
	DisplayName string `json:"displayName"`
	// One of OWNER, ADMIN, MODERATOR, VIEWER.
	Role string `json:"role"`
	// RFC 3339 time.
	JoinedAt string `json:"joinedAt"`
}

// Invitation: the Invitation record.
type Invitation struct {
	ID        string `json:"id"`
	ClusterID string `json:"clusterId"`
	Email     string `json:"email"`
	// One of OWNER, ADMIN, MODERATOR, VIEWER.
	Role string `json:"role"`
	// One of PENDING, ACCEPTED, REVOKED, EXPIRED.
	Status string `json:"status"`
	// RFC 3339 time.
	ExpiresAt string  `json:"expiresAt"`
	InvitedBy *string `json:"invitedBy"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
}

// InvitationCreated: the InvitationCreated record.
type InvitationCreated struct {
	ID        string `json:"id"`
	ClusterID string `json:"clusterId"`
	Email     string `json:"email"`
	// One of OWNER, ADMIN, MODERATOR, VIEWER.
	Role string `json:"role"`
	// One of PENDING, ACCEPTED, REVOKED, EXPIRED.
	Status string `json:"status"`
	// RFC 3339 time.
	ExpiresAt string  `json:"expiresAt"`
	InvitedBy *string `json:"invitedBy"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
	// The secret to accept it with, shown only in this answer.
	Token string `json:"token"`
	// The page the invitee opens to create an account (or sign in) and join; it carries the token. Shown only in this answer.
	Link string `json:"link"`
	// Whether the link was e-mailed to the invitee (only with SMTP_URL set, and when the SMTP server accepted it).
	Emailed bool `json:"emailed"`
}

// InvitationPreview: the InvitationPreview record.
type InvitationPreview struct {
	Email string `json:"email"`
	// One of OWNER, ADMIN, MODERATOR, VIEWER.
	Role        string `json:"role"`
	ClusterName string `json:"clusterName"`
	// The cluster joined (the invitation page opens it in the dashboard once joined)
	ClusterID string `json:"clusterId"`
	// One of PENDING, ACCEPTED, REVOKED, EXPIRED.
	Status string `json:"status"`
	// RFC 3339 time.
	ExpiresAt string `json:"expiresAt"`
}

// AuditEntryActor: the AuditEntryActor record.
type AuditEntryActor struct {
	// One of USER, TOKEN, TASK, SYSTEM, ANONYMOUS.
	Kind string  `json:"kind"`
	ID   *string `json:"id"`
	Name *string `json:"name"`
}

// AuditEntryTarget: the AuditEntryTarget record.
type AuditEntryTarget struct {
	Type string  `json:"type"`
	ID   *string `json:"id"`
	// What the target is called today (a server's, machine's, task's or backup's name, a player's username, a banned player's username, a user's display name, an invitation's e-mail, a webhook's description); null when it has none or no longer exists
	Name *string `json:"name"`
}

// AuditEntry: the AuditEntry record.
type AuditEntry struct {
	ID        string           `json:"id"`
	ClusterID *string          `json:"clusterId"`
	Actor     AuditEntryActor  `json:"actor"`
	Action    string           `json:"action"`
	Target    AuditEntryTarget `json:"target"`
	IP        *string          `json:"ip"`
	RequestID *string          `json:"requestId"`
	// RFC 3339 time.
	At string `json:"at"`
	// What a change touched beyond its target: a file change its `path`, `size`, `to` …
	Details map[string]any `json:"details,omitempty"`
}

// MachineMetrics: the MachineMetrics record.
type MachineMetrics struct {
	CPUPercent      float64 `json:"cpuPercent"`
	MemoryUsedBytes float64 `json:"memoryUsedBytes"`
	DiskUsedBytes   float64 `json:"diskUsedBytes"`
	// RFC 3339 time.
	At string `json:"at"`
}

// MachineSftp: The SFTP service of the machine's agent (docs/sftp.md); null until the agent reported it.
type MachineSftp struct {
	// The agent's SFTP port (default 2022); connect with `sftp -P <port> <handle>.<server short id>@<machine address>`.
	Port int64 `json:"port"`
	// SHA256 fingerprint of the agent's ED25519 host key, to compare with what `sftp` shows on the first connection.
	HostKeyFingerprint *string `json:"hostKeyFingerprint"`
}

// Machine: the Machine record.
type Machine struct {
	ID        string `json:"id"`
	ClusterID string `json:"clusterId"`
	Name      string `json:"name"`
	// One of ONLINE, OFFLINE.
	Status   string  `json:"status"`
	Hostname *string `json:"hostname"`
	OS       *string `json:"os"`
	// The version its agent reported when it last connected.
	AgentVersion *string `json:"agentVersion"`
	// Whether its agent is older than the service's agent package (`GET /agent/package.tgz`): `POST /api/v1/clusters/{clusterId}/machines/upgrade` upgrades it.
	UpgradeAvailable bool            `json:"upgradeAvailable"`
	CPUCount         *int64          `json:"cpuCount"`
	MemoryBytes      *float64        `json:"memoryBytes"`
	Metrics          *MachineMetrics `json:"metrics"`
	// The addresses its operators gave it (docs/servers.md#ports-and-allocations).
	Addresses []string `json:"addresses"`
	// The addresses its agent reported (its network interfaces, loopback aside).
	ReportedAddresses []string `json:"reportedAddresses"`
	// The programs its agent found on its PATH (of those templates' installs use); null: not reported yet.
	Tools []string `json:"tools,omitempty"`
	// The SFTP service of the machine's agent (docs/sftp.md); null until the agent reported it.
	Sftp *MachineSftp `json:"sftp"`
	// RFC 3339 time.
	LastSeenAt *string `json:"lastSeenAt"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
	// RFC 3339 time.
	UpdatedAt string `json:"updatedAt"`
}

// MachineRegisteredMetrics: the MachineRegisteredMetrics record.
type MachineRegisteredMetrics struct {
	CPUPercent      float64 `json:"cpuPercent"`
	MemoryUsedBytes float64 `json:"memoryUsedBytes"`
	DiskUsedBytes   float64 `json:"diskUsedBytes"`
	// RFC 3339 time.
	At string `json:"at"`
}

// MachineRegisteredSftp: The SFTP service of the machine's agent (docs/sftp.md); null until the agent reported it.
type MachineRegisteredSftp struct {
	// The agent's SFTP port (default 2022); connect with `sftp -P <port> <handle>.<server short id>@<machine address>`.
	Port int64 `json:"port"`
	// SHA256 fingerprint of the agent's ED25519 host key, to compare with what `sftp` shows on the first connection.
	HostKeyFingerprint *string `json:"hostKeyFingerprint"`
}

// MachineRegisteredConnect: the MachineRegisteredConnect record.
type MachineRegisteredConnect struct {
	// Origin of the agent gateway.
	URL string `json:"url"`
	// Gateway path (also served at /agent/ws and /ws/agent).
	Path string `json:"path"`
}

// MachineRegisteredInstall: the MachineRegisteredInstall record.
type MachineRegisteredInstall struct {
	// One line to paste on the machine (Linux, Node.js 20+, `sha256sum`, as root or a sudoer): in one root shell (sudo only when not root) it downloads the install script into a fresh root-owned `mktemp -d /tmp/gsm.XXXXXX` directory, runs it only if its SHA-256 is the one in the line, and the script installs the agent package only if its SHA-256 is the one in the line too. A single-use registration code travels on standard input; the installer exchanges it for the agent token (`POST /agent/register`) before replacing anything, writes the configuration (mode 0600) and starts the agent as a systemd service. The code works once, until `expiresAt`.
	Command string `json:"command"`
	// The line that upgrades an installed agent to this service's package, checked the same way (no code: it keeps the machine's token).
	UpgradeCommand string `json:"upgradeCommand"`
	// When the line's registration code stops working (one hour after it was made).
	// RFC 3339 time.
	ExpiresAt string `json:"expiresAt"`
}

// MachineRegistered: the MachineRegistered record.
type MachineRegistered struct {
	ID        string `json:"id"`
	ClusterID string `json:"clusterId"`
	Name      string `json:"name"`
	// One of ONLINE, OFFLINE.
	Status   string  `json:"status"`
	Hostname *string `json:"hostname"`
	OS       *string `json:"os"`
	// The version its agent reported when it last connected.
	AgentVersion *string `json:"agentVersion"`
	// Whether its agent is older than the service's agent package (`GET /agent/package.tgz`): `POST /api/v1/clusters/{clusterId}/machines/upgrade` upgrades it.
	UpgradeAvailable bool                      `json:"upgradeAvailable"`
	CPUCount         *int64                    `json:"cpuCount"`
	MemoryBytes      *float64                  `json:"memoryBytes"`
	Metrics          *MachineRegisteredMetrics `json:"metrics"`
	// The addresses its operators gave it (docs/servers.md#ports-and-allocations).
	Addresses []string `json:"addresses"`
	// The addresses its agent reported (its network interfaces, loopback aside).
	ReportedAddresses []string `json:"reportedAddresses"`
	// The programs its agent found on its PATH (of those templates' installs use); null: not reported yet.
	Tools []string `json:"tools,omitempty"`
	// The SFTP service of the machine's agent (docs/sftp.md); null until the agent reported it.
	Sftp *MachineRegisteredSftp `json:"sftp"`
	// RFC 3339 time.
	LastSeenAt *string `json:"lastSeenAt"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
	// RFC 3339 time.
	UpdatedAt string `json:"updatedAt"`
	// The agent token, shown only in this answer.
	AgentToken string                   `json:"agentToken"`
	Connect    MachineRegisteredConnect `json:"connect"`
	Install    MachineRegisteredInstall `json:"install"`
}

// AgentTokenRotatedConnect: the AgentTokenRotatedConnect record.
type AgentTokenRotatedConnect struct {
	// Origin of the agent gateway.
	URL string `json:"url"`
	// Gateway path (also served at /agent/ws and /ws/agent).
	Path string `json:"path"`
}

// AgentTokenRotatedInstall: the AgentTokenRotatedInstall record.
type AgentTokenRotatedInstall struct {
	// One line to paste on the machine (Linux, Node.js 20+, `sha256sum`, as root or a sudoer): in one root shell (sudo only when not root) it downloads the install script into a fresh root-owned `mktemp -d /tmp/gsm.XXXXXX` directory, runs it only if its SHA-256 is the one in the line, and the script installs the agent package only if its SHA-256 is the one in the line too. A single-use registration code travels on standard input; the installer exchanges it for the agent token (`POST /agent/register`) before replacing anything, writes the configuration (mode 0600) and starts the agent as a systemd service. The code works once, until `expiresAt`.
	Command string `json:"command"`
	// The line that upgrades an installed agent to this service's package, checked the same way (no code: it keeps the machine's token).
	UpgradeCommand string `json:"upgradeCommand"`
	// When the line's registration code stops working (one hour after it was made).
	// RFC 3339 time.
	ExpiresAt string `json:"expiresAt"`
}

// AgentTokenRotated: the AgentTokenRotated record.
type AgentTokenRotated struct {
	AgentToken string                   `json:"agentToken"`
	Connect    AgentTokenRotatedConnect `json:"connect"`
	Install    AgentTokenRotatedInstall `json:"install"`
}

// MachineInstallCodeConnect: the MachineInstallCodeConnect record.
type MachineInstallCodeConnect struct {
	// Origin of the agent gateway.
	URL string `json:"url"`
	// Gateway path (also served at /agent/ws and /ws/agent).
	Path string `json:"path"`
}

// MachineInstallCodeInstall: the MachineInstallCodeInstall record.
type MachineInstallCodeInstall struct {
	// One line to paste on the machine (Linux, Node.js 20+, `sha256sum`, as root or a sudoer): in one root shell (sudo only when not root) it downloads the install script into a fresh root-owned `mktemp -d /tmp/gsm.XXXXXX` directory, runs it only if its SHA-256 is the one in the line, and the script installs the agent package only if its SHA-256 is the one in the line too. A single-use registration code travels on standard input; the installer exchanges it for the agent token (`POST /agent/register`) before replacing anything, writes the configuration (mode 0600) and starts the agent as a systemd service. The code works once, until `expiresAt`.
	Command string `json:"command"`
	// The line that upgrades an installed agent to this service's package, checked the same way (no code: it keeps the machine's token).
	UpgradeCommand string `json:"upgradeCommand"`
	// When the line's registration code stops working (one hour after it was made).
	// RFC 3339 time.
	ExpiresAt string `json:"expiresAt"`
}

// MachineInstallCode: the MachineInstallCode record.
type MachineInstallCode struct {
	Connect MachineInstallCodeConnect `json:"connect"`
	Install MachineInstallCodeInstall `json:"install"`
}

// InstallCodeExchangedConnect: the InstallCodeExchangedConnect record.
type InstallCodeExchangedConnect struct {
	// Origin of the agent gateway.
	URL string `json:"url"`
	// Gateway path (also served at /agent/ws and /ws/agent).
	Path string `json:"path"`
}

// InstallCodeExchanged: the InstallCodeExchanged record.
type InstallCodeExchanged struct {
	MachineID any `json:"machineId"`
	// The agent token (`gsm_agent_…`), answered to this one exchange only.
	AgentToken string                      `json:"agentToken"`
	Connect    InstallCodeExchangedConnect `json:"connect"`
}

// AgentUpgradeMachinesItem: the AgentUpgradeMachinesItem record.
type AgentUpgradeMachinesItem struct {
	MachineID string `json:"machineId"`
	Name      string `json:"name"`
	// One of PENDING, UPGRADING, SUCCEEDED, FAILED, SKIPPED, CANCELLED.
	State string `json:"state"`
	// The agent version it ran when its upgrade started.
	FromVersion *string `json:"fromVersion"`
	// The agent version it came back with.
	ToVersion *string `json:"toVersion"`
	// Servers that were RUNNING when its upgrade started (each must be RUNNING again).
	Servers int64 `json:"servers"`
	// Why it failed, was skipped or cancelled.
	Reason *string `json:"reason"`
	// RFC 3339 time.
	StartedAt *string `json:"startedAt"`
	// RFC 3339 time.
	FinishedAt *string `json:"finishedAt"`
}

// AgentUpgrade: the AgentUpgrade record.
type AgentUpgrade struct {
	ID        string `json:"id"`
	ClusterID string `json:"clusterId"`
	// One of RUNNING, SUCCEEDED, FAILED, CANCELLED.
	State string `json:"state"`
	// The agent version the machines are upgraded to (the service's package).
	Version string `json:"version"`
	// The SHA-256 of the package each agent downloads and checks.
	PackageSHA256  string `json:"packageSha256"`
	BatchSize      int64  `json:"batchSize"`
	TimeoutSeconds int64  `json:"timeoutSeconds"`
	// Why the roll failed or was cancelled.
	Reason    *string                    `json:"reason"`
	CreatedBy *string                    `json:"createdBy"`
	Machines  []AgentUpgradeMachinesItem `json:"machines"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
	// RFC 3339 time.
	UpdatedAt string `json:"updatedAt"`
	// RFC 3339 time.
	FinishedAt *string `json:"finishedAt"`
}

// PortRange: the PortRange record.
type PortRange struct {
	ID        string `json:"id"`
	FirstPort int64  `json:"firstPort"`
	LastPort  int64  `json:"lastPort"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
}

// MachineAllocation: A port of the machine and the server holding it.
type MachineAllocation struct {
	// `game`, `query`, `rcon`, or an extra its game asks for (e.g. Rust’s `app`).
	Name string `json:"name"`
	Port int64  `json:"port"`
	// One of TCP, UDP, BOTH.
	Protocol   string `json:"protocol"`
	ServerID   string `json:"serverId"`
	ServerName string `json:"serverName"`
}

// MachineAllocations: the MachineAllocations record.
type MachineAllocations struct {
	Addresses         []string    `json:"addresses"`
	ReportedAddresses []string    `json:"reportedAddresses"`
	Ranges            []PortRange `json:"ranges"`
	// Every port a server holds on this machine, by port.
	Allocations []MachineAllocation `json:"allocations"`
	// Ports of the ranges no server holds (0 without ranges).
	FreePorts int64 `json:"freePorts"`
}

// ServerStats: the ServerStats record.
type ServerStats struct {
	CPUPercent  float64 `json:"cpuPercent"`
	MemoryBytes float64 `json:"memoryBytes"`
	// Bytes the server's directory takes on disk, as last measured by its agent (every 5 minutes by default; absent before the first measurement).
	DiskBytes *float64 `json:"diskBytes,omitempty"`
	// RFC 3339 time.
	At string `json:"at"`
}

// ServerReady: CUSTOM servers: when the server counts as ONLINE. LINE: an output line matches `pattern`; PORT: `port` (default gamePort) accepts a TCP connection; RCON: RCON answers on rconPort; IMMEDIATE: as soon as the process runs. null: RCON (the CUSTOM default).
type ServerReady struct {
	// One of LINE, PORT, RCON, IMMEDIATE.
	Mode string `json:"mode"`
	// LINE: a regular expression (JavaScript syntax, run in linear time: no backreferences, lookahead or lookbehind) that an output line (its first 1024 characters) must match, e.g. `Server started`.
	Pattern *string `json:"pattern,omitempty"`
	// PORT: the TCP port on 127.0.0.1 that must accept a connection: one of the server’s own ports (default its gamePort; a UDP-only port never accepts one).
	Port *int64 `json:"port,omitempty"`
	// How long STARTING may last before the server is CRASHED (default 300, at most 420).
	TimeoutSeconds *int64 `json:"timeoutSeconds,omitempty"`
}

// ServerStop: CUSTOM servers: how a STOP asks the game to exit. COMMAND: `command` on the console; SIGNAL: `signal` to the process. After `graceSeconds` it is killed. null: the RCON command `quit`, then SIGTERM, then SIGKILL.
type ServerStop struct {
	// One of COMMAND, SIGNAL.
	Mode string `json:"mode"`
	// COMMAND: sent on the console, e.g. `stop`.
	Command *string `json:"command,omitempty"`
	// One of SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGUSR1, SIGUSR2.
	Signal *string `json:"signal,omitempty"`
	// How long the server may take to exit before SIGTERM (default 30, at most 120); SIGKILL follows 30 s later.
	GraceSeconds *int64 `json:"graceSeconds,omitempty"`
}

// ServerPort: the ServerPort record.
type ServerPort struct {
	// `game`, `query`, `rcon`, or an extra its game asks for (e.g. Rust’s `app`).
	Name string `json:"name"`
	Port int64  `json:"port"`
	// One of TCP, UDP, BOTH.
	Protocol string `json:"protocol"`
}

// ServerQuery: the ServerQuery record.
type ServerQuery struct {
	// One of A2S, MINECRAFT, TCP.
	Protocol  string `json:"protocol"`
	Answering bool   `json:"answering"`
	Players   *int64 `json:"players"`
	// Names of the players online, where the game gives them.
	PlayerNames []string `json:"playerNames"`
	MaxPlayers  *int64   `json:"maxPlayers"`
	Map         *string  `json:"map"`
	Version     *string  `json:"version"`
	LatencyMs   *float64 `json:"latencyMs"`
	// Failed queries in a row (0 while it answers).
	Failures int64 `json:"failures"`
	// Why the latest query failed.
	Error *string `json:"error"`
	// RFC 3339 time.
	CheckedAt string `json:"checkedAt"`
}

// Server: the Server record.
type Server struct {
	ID        string `json:"id"`
	ClusterID string `json:"clusterId"`
	MachineID string `json:"machineId"`
	Name      string `json:"name"`
	// One of MINECRAFT, RUST, ARK_SURVIVAL_EVOLVED, CS2, VALHEIM, CUSTOM.
	GameType   string `json:"gameType"`
	GamePort   int64  `json:"gamePort"`
	QueryPort  int64  `json:"queryPort"`
	RconPort   int64  `json:"rconPort"`
	MaxPlayers int64  `json:"maxPlayers"`
	// One of INSTALLING, INSTALL_FAILED, OFFLINE, STARTING, ONLINE, UNRESPONSIVE, STOPPING, RESTARTING, CRASHED, UNKNOWN.
	Status string `json:"status"`
	// One of RUNNING, STOPPED.
	DesiredStatus string            `json:"desiredStatus"`
	PlayersOnline int64             `json:"playersOnline"`
	AutoRestart   bool              `json:"autoRestart"`
	StartCommand  *string           `json:"startCommand"`
	Env           map[string]string `json:"env"`
	// Memory limit of the game process in MiB; null: no limit.
	MemoryLimitMb *int64 `json:"memoryLimitMb"`
	// CPU limit in percent of one core (150 = one and a half cores); null: no limit.
	CPULimitPercent *int64 `json:"cpuLimitPercent"`
	// RFC 3339 time.
	LastStatusAt *string `json:"lastStatusAt"`
	// Why the server is in its status, from its agent: e.g. `command not found: ./RustDedicated`, `exited with code 1`.
	StatusReason *string `json:"statusReason"`
	// How its process last ended (null: never ended, or ended by a signal).
	LastExitCode *int64 `json:"lastExitCode"`
	// The latest CPU and memory sample, while it runs (null before the first one).
	Stats *ServerStats `json:"stats"`
	// The game version an INSTALL or UPDATE installs (null: the latest release).
	Version *string `json:"version"`
	// What the last successful INSTALL or UPDATE installed (null: never installed by the agent).
	InstalledVersion *string `json:"installedVersion"`
	// RFC 3339 time.
	InstalledAt *string `json:"installedAt"`
	// The OS account the server runs as on its machine, as its agent reported it (null: not reported yet).
	OSUser *string `json:"osUser"`
	// MINECRAFT: you accept Mojang's EULA; the agent writes `eula=true` only then.
	AcceptEula      bool    `json:"acceptEula"`
	InstallCommand  *string `json:"installCommand"`
	BackupRetention int64   `json:"backupRetention"`
	// CUSTOM servers: when the server counts as ONLINE. LINE: an output line matches `pattern`; PORT: `port` (default gamePort) accepts a TCP connection; RCON: RCON answers on rconPort; IMMEDIATE: as soon as the process runs. null: RCON (the CUSTOM default).
	Ready *ServerReady `json:"ready"`
	// CUSTOM servers: where console commands go. RCON: Source RCON on rconPort; STDIN: the process’s standard input (the answer is the output that follows); NONE: no console (console commands are refused with 409). null: RCON.
	// One of RCON, STDIN, NONE.
	ConsoleMode *string `json:"consoleMode"`
	// CUSTOM servers: how a STOP asks the game to exit. COMMAND: `command` on the console; SIGNAL: `signal` to the process. After `graceSeconds` it is killed. null: the RCON command `quit`, then SIGTERM, then SIGKILL.
	Stop *ServerStop `json:"stop"`
	// Its game template (docs/templates.md): a built-in's id (`rust`) or a cluster template's id; null: none (a CUSTOM server's own command).
	TemplateID *string `json:"templateId"`
	// The version of its template its running process (or its last run) was started with, as its agent reports it (a change applies at its next start).
	TemplateVersion *int64 `json:"templateVersion"`
	// The newest version of its template: its next start runs it (above templateVersion: a newer one is available).
	TemplateLatestVersion *int64 `json:"templateLatestVersion,omitempty"`
	// Its values of the template's variables (secret ones are never shown: see secretVariables).
	Variables map[string]string `json:"variables"`
	// The secret variables that have a value of their own, each as true (their values are never returned); one not listed has none.
	SecretVariables map[string]bool `json:"secretVariables"`
	// The named ports the server holds on its machine (game, query, rcon, extras), by name.
	Ports []ServerPort `json:"ports"`
	// The server's own query protocol (null: its game's; NONE: never queried).
	// One of A2S, MINECRAFT, TCP, NONE.
	QueryProtocol *string `json:"queryProtocol"`
	// What the latest query found (null: never queried).
	Query *ServerQuery `json:"query"`
	// Failed queries in a row (15 s apart) after which an ONLINE server is UNRESPONSIVE.
	UnresponsiveAfter int64 `json:"unresponsiveAfter"`
	// An UNRESPONSIVE server is restarted by its crash policy.
	RestartWhenUnresponsive bool `json:"restartWhenUnresponsive"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
	// RFC 3339 time.
	UpdatedAt string `json:"updatedAt"`
}

// ConsoleLine: the ConsoleLine record.
type ConsoleLine struct {
	At   string `json:"at"`
	Line string `json:"line"`
	// The line’s sequence: per server, larger than every earlier line’s
	Seq int64 `json:"seq"`
}

// Console: the Console record.
type Console struct {
	ServerID string        `json:"serverId"`
	Lines    []ConsoleLine `json:"lines"`
	// The sequence of the last line answered (null: none): resume after it (`after`, `/live` subscribe `after`)
	Seq *int64 `json:"seq"`
	// With `after`: lines after it are no longer kept (the history holds the last 1,000), so some were missed
	Gap bool `json:"gap"`
}

// Webhook: the Webhook record.
type Webhook struct {
	ID        string   `json:"id"`
	ClusterID string   `json:"clusterId"`
	URL       string   `json:"url"`
	Events    []string `json:"events"`
	// One of JSON, DISCORD.
	Format         string  `json:"format"`
	Description    *string `json:"description"`
	Enabled        bool    `json:"enabled"`
	DisabledReason *string `json:"disabledReason"`
	CreatedAt      string  `json:"createdAt"`
	UpdatedAt      string  `json:"updatedAt"`
}

// WebhookCreated: the WebhookCreated record.
type WebhookCreated struct {
	ID        string   `json:"id"`
	ClusterID string   `json:"clusterId"`
	URL       string   `json:"url"`
	Events    []string `json:"events"`
	// One of JSON, DISCORD.
	Format         string  `json:"format"`
	Description    *string `json:"description"`
	Enabled        bool    `json:"enabled"`
	DisabledReason *string `json:"disabledReason"`
	CreatedAt      string  `json:"createdAt"`
	UpdatedAt      string  `json:"updatedAt"`
	// Signs every delivery (GSM-Signature); shown only in this answer
	Secret string `json:"secret"`
}

// WebhookDelivery: the WebhookDelivery record.
type WebhookDelivery struct {
	ID        string `json:"id"`
	WebhookID string `json:"webhookId"`
	// The event's id (its cursor); for a test delivery, the test's own id (`test_` and a UUID) that its body carries
	EventID   *string `json:"eventId"`
	EventType string  `json:"eventType"`
	// One of PENDING, SUCCEEDED, FAILED.
	Status         string   `json:"status"`
	Attempts       float64  `json:"attempts"`
	LastStatusCode *float64 `json:"lastStatusCode"`
	LastError      *string  `json:"lastError"`
	DurationMs     *float64 `json:"durationMs"`
	NextAttemptAt  *string  `json:"nextAttemptAt"`
	CreatedAt      string   `json:"createdAt"`
	DeliveredAt    *string  `json:"deliveredAt"`
}

// Template: the Template record.
type Template struct {
	// A built-in's id is its slug (`rust`); a cluster template's is a uuid.
	ID string `json:"id"`
	// The cluster it belongs to; null: built in.
	ClusterID   *string `json:"clusterId"`
	BuiltIn     bool    `json:"builtIn"`
	Slug        string  `json:"slug"`
	Name        string  `json:"name"`
	Version     int64   `json:"version"`
	Description *string `json:"description"`
	// One of MINECRAFT, RUST, ARK_SURVIVAL_EVOLVED, CS2, VALHEIM, CUSTOM.
	GameType  string   `json:"gameType"`
	Tags      []string `json:"tags"`
	Platforms []string `json:"platforms"`
	// RFC 3339 time.
	CreatedAt *string `json:"createdAt"`
	// RFC 3339 time.
	UpdatedAt *string `json:"updatedAt"`
	// The whole template (docs/templates.md); secret variables without their `default`.
	Document map[string]any `json:"document"`
	// The secret variables that have a default: never returned; a PATCH that leaves out their `default` keeps it.
	SecretDefaults []string `json:"secretDefaults,omitempty"`
}

// TemplateImport: the TemplateImport record.
type TemplateImport struct {
	// The egg’s format version.
	// One of PTDL_v1, PTDL_v2, PLCN_v1, PLCN_v2, PLCN_v3.
	Format string `json:"format"`
	// Every part of the egg not carried over, or carried over with a difference, in words.
	Unmapped []string `json:"unmapped"`
	// Programs the installation script runs, which the machine must have.
	Tools []string `json:"tools"`
	// Lines of the installation script that are not run (they install packages as root).
	SkippedLines []string `json:"skippedLines"`
	Template     Template `json:"template"`
}

// TemplateSummary: the TemplateSummary record.
type TemplateSummary struct {
	// A built-in's id is its slug (`rust`); a cluster template's is a uuid.
	ID string `json:"id"`
	// The cluster it belongs to; null: built in.
	ClusterID   *string `json:"clusterId"`
	BuiltIn     bool    `json:"builtIn"`
	Slug        string  `json:"slug"`
	Name        string  `json:"name"`
	Version     int64   `json:"version"`
	Description *string `json:"description"`
	// One of MINECRAFT, RUST, ARK_SURVIVAL_EVOLVED, CS2, VALHEIM, CUSTOM.
	GameType  string   `json:"gameType"`
	Tags      []string `json:"tags"`
	Platforms []string `json:"platforms"`
	// RFC 3339 time.
	CreatedAt *string `json:"createdAt"`
	// RFC 3339 time.
	UpdatedAt *string `json:"updatedAt"`
}

// TemplateDocumentLinksItem: the TemplateDocumentLinksItem record.
type TemplateDocumentLinksItem struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// TemplateDocumentVariablesItemValidation: the TemplateDocumentVariablesItemValidation record.
type TemplateDocumentVariablesItemValidation struct {
	// One of string, integer, number, boolean.
	Type *string `json:"type,omitempty"`
	// The value may not be empty.
	Required *bool    `json:"required,omitempty"`
	Enum     []string `json:"enum,omitempty"`
	// integer/number: the smallest value.
	Min *float64 `json:"min,omitempty"`
	// integer/number: the largest value.
	Max       *float64 `json:"max,omitempty"`
	MinLength *int64   `json:"minLength,omitempty"`
	MaxLength *int64   `json:"maxLength,omitempty"`
	// string: the whole value must match (anchor it yourself).
	Regex *string `json:"regex,omitempty"`
}

// TemplateDocumentVariablesItem: the TemplateDocumentVariablesItem record.
type TemplateDocumentVariablesItem struct {
	Name        string                                   `json:"name"`
	Label       *string                                  `json:"label,omitempty"`
	Description *string                                  `json:"description,omitempty"`
	Default     *string                                  `json:"default,omitempty"`
	Validation  *TemplateDocumentVariablesItemValidation `json:"validation,omitempty"`
	// Members who are not OWNER/ADMIN see it.
	UserViewable *bool `json:"userViewable,omitempty"`
	// Members with server write (not only OWNER/ADMIN) may change it.
	UserEditable *bool `json:"userEditable,omitempty"`
	// Never returned by the API once set (shown as set / not set).
	Secret *bool `json:"secret,omitempty"`
}

// TemplateDocumentStart: the TemplateDocumentStart record.
type TemplateDocumentStart struct {
	// The command line, split like a POSIX shell line (never run through a shell), with `{{VARIABLE}}` and built-in placeholders.
	Command string            `json:"command"`
	Env     map[string]string `json:"env,omitempty"`
	// Relative to the server directory (default: the server directory).
	WorkingDirectory *string `json:"workingDirectory,omitempty"`
}

// TemplateDocumentConsoleRcon: the TemplateDocumentConsoleRcon record.
type TemplateDocumentConsoleRcon struct {
	// The name of the port in `ports` RCON listens on.
	Port *string `json:"port,omitempty"`
	// The password, usually `{{RCON_PASSWORD}}` (the server’s) or `{{SOME_VARIABLE}}`.
	Password *string `json:"password,omitempty"`
}

// TemplateDocumentConsoleCommandsList: the TemplateDocumentConsoleCommandsList record.
type TemplateDocumentConsoleCommandsList struct {
	Command string  `json:"command"`
	Expect  *string `json:"expect,omitempty"`
	Parse   any     `json:"parse"`
}

// TemplateDocumentConsoleCommandsKick: the TemplateDocumentConsoleCommandsKick record.
type TemplateDocumentConsoleCommandsKick struct {
	Command string  `json:"command"`
	Expect  *string `json:"expect,omitempty"`
}

// TemplateDocumentConsoleCommandsBan: the TemplateDocumentConsoleCommandsBan record.
type TemplateDocumentConsoleCommandsBan struct {
	Command string  `json:"command"`
	Expect  *string `json:"expect,omitempty"`
}

// TemplateDocumentConsoleCommandsUnban: the TemplateDocumentConsoleCommandsUnban record.
type TemplateDocumentConsoleCommandsUnban struct {
	Command string  `json:"command"`
	Expect  *string `json:"expect,omitempty"`
}

// TemplateDocumentConsoleCommandsBroadcast: the TemplateDocumentConsoleCommandsBroadcast record.
type TemplateDocumentConsoleCommandsBroadcast struct {
	Command string  `json:"command"`
	Expect  *string `json:"expect,omitempty"`
}

// TemplateDocumentConsoleCommands: the TemplateDocumentConsoleCommands record.
type TemplateDocumentConsoleCommands struct {
	List      *TemplateDocumentConsoleCommandsList      `json:"list,omitempty"`
	Kick      *TemplateDocumentConsoleCommandsKick      `json:"kick,omitempty"`
	Ban       *TemplateDocumentConsoleCommandsBan       `json:"ban,omitempty"`
	Unban     *TemplateDocumentConsoleCommandsUnban     `json:"unban,omitempty"`
	Broadcast *TemplateDocumentConsoleCommandsBroadcast `json:"broadcast,omitempty"`
}

// TemplateDocumentConsole: the TemplateDocumentConsole record.
type TemplateDocumentConsole struct {
	// One of STDIN, RCON, NONE.
	Mode           string                           `json:"mode"`
	Rcon           *TemplateDocumentConsoleRcon     `json:"rcon,omitempty"`
	Commands       *TemplateDocumentConsoleCommands `json:"commands,omitempty"`
	QuoteArguments *bool                            `json:"quoteArguments,omitempty"`
}

// TemplateDocumentPlayers: the TemplateDocumentPlayers record.
type TemplateDocumentPlayers struct {
	// A whole line of the game’s own (anchored with ^…$ to its log prefix; chat must never match) with named groups `name` and `id`.
	Join  *string `json:"join,omitempty"`
	Leave *string `json:"leave,omitempty"`
	// A line printed before the join that ties `name` to `id` (Minecraft’s `UUID of player <name> is <uuid>`).
	Identify *string `json:"identify,omitempty"`
	// What identifies a player: the id the game prints (Steam id, UUID) or its name.
	// One of id, name.
	Identity *string `json:"identity,omitempty"`
	// An id matching this identifies nothing (offline-mode UUIDs): the name is used.
	IgnoreID *string `json:"ignoreId,omitempty"`
}

// TemplateDocumentSamplesJoinItem: the TemplateDocumentSamplesJoinItem record.
type TemplateDocumentSamplesJoinItem struct {
	Line string  `json:"line"`
	Name string  `json:"name"`
	ID   *string `json:"id,omitempty"`
}

// TemplateDocumentSamplesLeaveItem: the TemplateDocumentSamplesLeaveItem record.
type TemplateDocumentSamplesLeaveItem struct {
	Line string  `json:"line"`
	Name string  `json:"name"`
	ID   *string `json:"id,omitempty"`
}

// TemplateDocumentSamples: the TemplateDocumentSamples record.
type TemplateDocumentSamples struct {
	Ready []string                           `json:"ready,omitempty"`
	Join  []TemplateDocumentSamplesJoinItem  `json:"join,omitempty"`
	Leave []TemplateDocumentSamplesLeaveItem `json:"leave,omitempty"`
	// Chat and other lines players control: no pattern may match them.
	Chat []string `json:"chat,omitempty"`
}

// TemplateDocumentInstall: the TemplateDocumentInstall record.
type TemplateDocumentInstall struct {
	Steps []any    `json:"steps"`
	Tools []string `json:"tools,omitempty"`
}

// TemplateDocumentUpdate: Absent: the install steps again (each is a no-op when current).
type TemplateDocumentUpdate struct {
	Steps []any    `json:"steps"`
	Tools []string `json:"tools,omitempty"`
}

// TemplateDocumentConfigFilesItemReplaceItem: the TemplateDocumentConfigFilesItemReplaceItem record.
type TemplateDocumentConfigFilesItemReplaceItem struct {
	Find    string `json:"find"`
	Replace string `json:"replace"`
}

// TemplateDocumentConfigFilesItem: the TemplateDocumentConfigFilesItem record.
type TemplateDocumentConfigFilesItem struct {
	Path string `json:"path"`
	// One of properties, ini, json, yaml, xml, cfg, replace.
	Format  string                                       `json:"format"`
	Set     map[string]string                            `json:"set,omitempty"`
	Replace []TemplateDocumentConfigFilesItemReplaceItem `json:"replace,omitempty"`
	When    *string                                      `json:"when,omitempty"`
}

// TemplateDocumentFiles: the TemplateDocumentFiles record.
type TemplateDocumentFiles struct {
	// gitignore-style patterns members may not read or write.
	Deny []string `json:"deny,omitempty"`
	// Paths (globs with `*`) a WIPE removes.
	Wipe []string `json:"wipe,omitempty"`
	// gitignore-style patterns a backup leaves out.
	BackupSkip []string `json:"backupSkip,omitempty"`
	// gitignore-style patterns of files that hold the server's RCON password: only members with the RCON permission (OWNER, ADMIN) may read or write them; for the others they are denied.
	AdminOnly []string `json:"adminOnly,omitempty"`
}

// TemplateDocumentPortsItem: the TemplateDocumentPortsItem record.
type TemplateDocumentPortsItem struct {
	Name string `json:"name"`
	// One of tcp, udp, tcp+udp.
	Protocol string `json:"protocol"`
	Default  *int64 `json:"default,omitempty"`
	// From the game port (gamePort + offset).
	Offset      *int64  `json:"offset,omitempty"`
	Description *string `json:"description,omitempty"`
}

// TemplateDocumentQuery: the TemplateDocumentQuery record.
type TemplateDocumentQuery struct {
	// One of A2S, MINECRAFT, MINECRAFT_BEDROCK, GAMESPY1, GAMESPY2, GAMESPY3, EOS, TERRARIA, FACTORIO, RCON.
	Protocol string `json:"protocol"`
	// The name of the port in `ports` it answers on.
	Port *string `json:"port,omitempty"`
}

// TemplateDocumentSourcesItem: the TemplateDocumentSourcesItem record.
type TemplateDocumentSourcesItem struct {
	// What it backs, e.g. `steamcmd.appId`, `ready`, `players.join`, `ports`.
	Fact string  `json:"fact"`
	URL  *string `json:"url,omitempty"`
	Note *string `json:"note,omitempty"`
}

// TemplateDocument: the TemplateDocument record.
type TemplateDocument struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Version     *int64  `json:"version,omitempty"`
	Description *string `json:"description,omitempty"`
	// One of MINECRAFT, RUST, ARK_SURVIVAL_EVOLVED, CS2, VALHEIM, CUSTOM.
	GameType *string                     `json:"gameType,omitempty"`
	Tags     []string                    `json:"tags,omitempty"`
	Links    []TemplateDocumentLinksItem `json:"links,omitempty"`
	// Where its dedicated server runs; a template without `linux` is refused for servers (agents run Linux).
	Platforms         []string                        `json:"platforms,omitempty"`
	DefaultMaxPlayers *int64                          `json:"defaultMaxPlayers,omitempty"`
	Variables         []TemplateDocumentVariablesItem `json:"variables,omitempty"`
	Start             TemplateDocumentStart           `json:"start"`
	Ready             any                             `json:"ready"`
	Stop              any                             `json:"stop"`
	Console           TemplateDocumentConsole         `json:"console"`
	Players           *TemplateDocumentPlayers        `json:"players,omitempty"`
	Samples           *TemplateDocumentSamples        `json:"samples,omitempty"`
	Install           *TemplateDocumentInstall        `json:"install,omitempty"`
	// Absent: the install steps again (each is a no-op when current).
	Update      *TemplateDocumentUpdate           `json:"update,omitempty"`
	ConfigFiles []TemplateDocumentConfigFilesItem `json:"configFiles,omitempty"`
	Files       *TemplateDocumentFiles            `json:"files,omitempty"`
	Ports       []TemplateDocumentPortsItem       `json:"ports"`
	Query       *TemplateDocumentQuery            `json:"query,omitempty"`
	Sources     []TemplateDocumentSourcesItem     `json:"sources,omitempty"`
}

// JobError: the JobError record.
type JobError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// The game's last console lines (up to 20), when the game itself failed the job: it crashed or never started.
	ConsoleTail []string `json:"consoleTail,omitempty"`
}

// JobProgress: While it runs, how far it is, from its agent (installs, updates, backups, restores); null before the first report.
type JobProgress struct {
	// How far it is (0..100), or null when not known.
	Percent *float64 `json:"percent"`
	Message *string  `json:"message"`
	// A TRANSFER's phase (docs/transfers.md): CHECK_SPACE, STOP, PACK, COPY, SWITCH, START, CLEAN_UP or ROLL_BACK.
	Phase *string `json:"phase,omitempty"`
	// A TRANSFER: bytes copied to the target and acknowledged by it.
	BytesDone *float64 `json:"bytesDone,omitempty"`
	// A TRANSFER: bytes to copy (the archive and the backups), once known.
	BytesTotal *float64 `json:"bytesTotal,omitempty"`
}

// JobCreatedBy: the JobCreatedBy record.
type JobCreatedBy struct {
	// One of USER, TOKEN, TASK, SYSTEM.
	Kind string  `json:"kind"`
	ID   *string `json:"id"`
}

// Job: the Job record.
type Job struct {
	ID        string  `json:"id"`
	ClusterID string  `json:"clusterId"`
	ServerID  *string `json:"serverId"`
	MachineID *string `json:"machineId"`
	PlayerID  *string `json:"playerId"`
	TaskID    *string `json:"taskId"`
	// One of START, STOP, RESTART, KILL, RCON, KICK, BAN, UNBAN, BROADCAST, WIPE, TASK_RUN, INSTALL, UPDATE, BACKUP, RESTORE, FILE_COMPRESS, FILE_EXTRACT, FILE_PULL, TRANSFER.
	Type string `json:"type"`
	// One of QUEUED, DISPATCHED, RUNNING, SUCCEEDED, FAILED, CANCELLED, EXPIRED.
	Status string         `json:"status"`
	Params map[string]any `json:"params"`
	Result map[string]any `json:"result"`
	Error  *JobError      `json:"error"`
	// While it runs, how far it is, from its agent (installs, updates, backups, restores); null before the first report.
	Progress       *JobProgress `json:"progress"`
	Attempts       int64        `json:"attempts"`
	CreatedBy      JobCreatedBy `json:"createdBy"`
	IdempotencyKey *string      `json:"idempotencyKey"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
	// RFC 3339 time.
	DispatchedAt *string `json:"dispatchedAt"`
	// RFC 3339 time.
	StartedAt *string `json:"startedAt"`
	// RFC 3339 time.
	FinishedAt *string `json:"finishedAt"`
	// RFC 3339 time.
	ExpiresAt string `json:"expiresAt"`
}

// RconAnswer: the RconAnswer record.
type RconAnswer struct {
	Success bool    `json:"success"`
	Output  *string `json:"output"`
	JobID   string  `json:"jobId"`
	// One of QUEUED, DISPATCHED, RUNNING, SUCCEEDED, FAILED, CANCELLED, EXPIRED.
	Status string `json:"status"`
}

// BackupError: Why it failed.
type BackupError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Backup: the Backup record.
type Backup struct {
	ID        string `json:"id"`
	ServerID  string `json:"serverId"`
	ClusterID string `json:"clusterId"`
	// The BACKUP job that makes it.
	JobID string `json:"jobId"`
	Name  string `json:"name"`
	// One of PENDING, COMPLETED, FAILED.
	Status string `json:"status"`
	// Size of the archive (tar.gz), once completed.
	SizeBytes *float64 `json:"sizeBytes"`
	// SHA-256 of the archive (hex), checked again when it is restored.
	SHA256 *string `json:"sha256"`
	// true: the server was stopped, or (MINECRAFT) flushed with saving paused while archived; false: archived while the game was writing.
	Consistent *bool `json:"consistent"`
	// LOCAL: on the machine; S3: in the machine's S3-compatible storage.
	// One of LOCAL, S3.
	Location *string `json:"location"`
	// Why it failed.
	Error *BackupError `json:"error"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
	// RFC 3339 time.
	CompletedAt *string `json:"completedAt"`
}

// TransferRequest: the TransferRequest record.
type TransferRequest struct {
	// The machine to move the server to: another machine of the server’s cluster.
	MachineID string `json:"machineId"`
	// Ports on the target by name (`game`, `query`, `rcon`, extras); those not given are picked free from the target’s port ranges. They are reserved at once.
	Allocations map[string]int64 `json:"allocations,omitempty"`
	// Keep the server’s files on the source machine after the switch (default false).
	KeepSource *bool `json:"keepSource,omitempty"`
	// Copy the server’s local backups to the target (default true); false: they are deleted at the switch (the job’s `params.backupsToDelete` lists them). Those on S3 are re-pointed either way.
	IncludeBackups *bool `json:"includeBackups,omitempty"`
	// Bytes per second the copy may use (default: no limit).
	BandwidthLimit *int64 `json:"bandwidthLimit,omitempty"`
	// Not offered: `true` is refused (400). The server is stopped for the whole copy.
	Live *bool `json:"live,omitempty"`
}

// FileEntry: the FileEntry record.
type FileEntry struct {
	Name string `json:"name"`
	// One of file, directory, symlink, other.
	Type string  `json:"type"`
	Size float64 `json:"size"`
	// Permission bits (0–0777, and setuid/setgid/sticky as found)
	Mode       float64 `json:"mode"`
	ModifiedAt string  `json:"modifiedAt"`
	// A symbolic link's target as written (never followed by a listing)
	LinkTarget *string `json:"linkTarget,omitempty"`
	// The name on disk is not valid UTF-8: `name` shows each byte that is not as `\xHH`; such an entry can be renamed and deleted by that name
	InvalidName *bool `json:"invalidName,omitempty"`
	// A regular file's version, for If-Match
	Etag *string `json:"etag,omitempty"`
}

// FileList: the FileList record.
type FileList struct {
	Path    string      `json:"path"`
	Entries []FileEntry `json:"entries"`
	Total   float64     `json:"total"`
	Next    *string     `json:"next"`
}

// FileText: the FileText record.
type FileText struct {
	Path       string  `json:"path"`
	Content    string  `json:"content"`
	Size       float64 `json:"size"`
	Etag       string  `json:"etag"`
	ModifiedAt string  `json:"modifiedAt"`
}

// FileWriteResult: the FileWriteResult record.
type FileWriteResult struct {
	Entry FileEntry `json:"entry"`
	Size  float64   `json:"size"`
	// The config history version kept (text files ≤ 1 MiB)
	VersionID *string `json:"versionId"`
}

// FileSearchResultMatchesItem: the FileSearchResultMatchesItem record.
type FileSearchResultMatchesItem struct {
	Path string   `json:"path"`
	Type string   `json:"type"`
	Size float64  `json:"size"`
	Line *float64 `json:"line,omitempty"`
	Text *string  `json:"text,omitempty"`
}

// FileSearchResult: the FileSearchResult record.
type FileSearchResult struct {
	Matches      []FileSearchResultMatchesItem `json:"matches"`
	ScannedFiles float64                       `json:"scannedFiles"`
	ScannedBytes float64                       `json:"scannedBytes"`
	// Which bound stopped the search before it was complete
	// One of depth, files, bytes, results, time.
	StoppedEarly *string `json:"stoppedEarly"`
}

// FileVersionActor: the FileVersionActor record.
type FileVersionActor struct {
	Kind string  `json:"kind"`
	ID   *string `json:"id"`
	Name *string `json:"name"`
}

// FileVersion: the FileVersion record.
type FileVersion struct {
	ID     string  `json:"id"`
	Path   string  `json:"path"`
	Size   float64 `json:"size"`
	SHA256 string  `json:"sha256"`
	// One of api, sftp, restore.
	Via       string           `json:"via"`
	Actor     FileVersionActor `json:"actor"`
	CreatedAt string           `json:"createdAt"`
}

// FileVersionContentActor: the FileVersionContentActor record.
type FileVersionContentActor struct {
	Kind string  `json:"kind"`
	ID   *string `json:"id"`
	Name *string `json:"name"`
}

// FileVersionContent: the FileVersionContent record.
type FileVersionContent struct {
	ID     string  `json:"id"`
	Path   string  `json:"path"`
	Size   float64 `json:"size"`
	SHA256 string  `json:"sha256"`
	// One of api, sftp, restore.
	Via       string                  `json:"via"`
	Actor     FileVersionContentActor `json:"actor"`
	CreatedAt string                  `json:"createdAt"`
	Content   string                  `json:"content"`
}

// FileDiff: the FileDiff record.
type FileDiff struct {
	From string `json:"from"`
	To   string `json:"to"`
	Diff string `json:"diff"`
}

// FileUpload: the FileUpload record.
type FileUpload struct {
	ID   string  `json:"id"`
	Path string  `json:"path"`
	Size float64 `json:"size"`
	// Bytes received so far: the next PATCH sends from here
	Offset    float64 `json:"offset"`
	Complete  bool    `json:"complete"`
	ExpiresAt string  `json:"expiresAt"`
	// The written file, once complete
	Entry *FileEntry `json:"entry"`
}

// TaskStepsItem: the TaskStepsItem record.
type TaskStepsItem struct {
	// One of START, STOP, RESTART, RCON, BROADCAST, WIPE, BACKUP.
	Type              string  `json:"type"`
	Command           *string `json:"command,omitempty"`
	Message           *string `json:"message,omitempty"`
	DelaySeconds      int64   `json:"delaySeconds"`
	ContinueOnFailure bool    `json:"continueOnFailure"`
}

// Task: the Task record.
type Task struct {
	ID             string          `json:"id"`
	ClusterID      string          `json:"clusterId"`
	Name           string          `json:"name"`
	Description    *string         `json:"description"`
	Schedule       string          `json:"schedule"`
	Timezone       string          `json:"timezone"`
	ServerIDs      []string        `json:"serverIds"`
	Steps          []TaskStepsItem `json:"steps"`
	OnlyWhenOnline bool            `json:"onlyWhenOnline"`
	Enabled        bool            `json:"enabled"`
	// The pending occurrence; null while disabled.
	// RFC 3339 time.
	NextRunAt *string `json:"nextRunAt"`
	// RFC 3339 time.
	LastRunAt *string `json:"lastRunAt"`
	// One of RUNNING, SUCCEEDED, FAILED, CANCELLED, EXPIRED, MISSED, SKIPPED.
	LastRunStatus *string `json:"lastRunStatus"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
	// RFC 3339 time.
	UpdatedAt string `json:"updatedAt"`
}

// TaskStep: the TaskStep record.
type TaskStep struct {
	// One of START, STOP, RESTART, RCON, BROADCAST, WIPE, BACKUP.
	Type string `json:"type"`
	// RCON steps: the console command.
	Command *string `json:"command,omitempty"`
	// BROADCAST steps: the message players see.
	Message *string `json:"message,omitempty"`
	// Seconds to wait after the previous step before this one (0..3600).
	DelaySeconds *int64 `json:"delaySeconds,omitempty"`
	// Go on with the next step when this one fails on some server.
	ContinueOnFailure *bool `json:"continueOnFailure,omitempty"`
}

// SchedulePreview: the SchedulePreview record.
type SchedulePreview struct {
	Schedule string `json:"schedule"`
	Timezone string `json:"timezone"`
	// The next runs, oldest first (UTC instants; show them in `timezone`).
	Runs []string `json:"runs"`
}

// ServerMetricsPointsItemCpuPercent: the ServerMetricsPointsItemCpuPercent record.
type ServerMetricsPointsItemCpuPercent struct {
	Avg float64 `json:"avg"`
	Max float64 `json:"max"`
}

// ServerMetricsPointsItemMemoryBytes: the ServerMetricsPointsItemMemoryBytes record.
type ServerMetricsPointsItemMemoryBytes struct {
	Avg float64 `json:"avg"`
	Max float64 `json:"max"`
}

// ServerMetricsPointsItemPlayersOnline: the ServerMetricsPointsItemPlayersOnline record.
type ServerMetricsPointsItemPlayersOnline struct {
	Avg float64 `json:"avg"`
	Max float64 `json:"max"`
}

// ServerMetricsPointsItem: the ServerMetricsPointsItem record.
type ServerMetricsPointsItem struct {
	// RFC 3339 time.
	At            string                               `json:"at"`
	CPUPercent    ServerMetricsPointsItemCpuPercent    `json:"cpuPercent"`
	MemoryBytes   ServerMetricsPointsItemMemoryBytes   `json:"memoryBytes"`
	PlayersOnline ServerMetricsPointsItemPlayersOnline `json:"playersOnline"`
}

// ServerMetrics: the ServerMetrics record.
type ServerMetrics struct {
	// One of 1m, 5m, 15m, 1h, 6h, 1d.
	Step string `json:"step"`
	// RFC 3339 time.
	From string `json:"from"`
	// RFC 3339 time.
	To     string                    `json:"to"`
	Points []ServerMetricsPointsItem `json:"points"`
}

// MachineMetricsHistoryPointsItemCpuPercent: the MachineMetricsHistoryPointsItemCpuPercent record.
type MachineMetricsHistoryPointsItemCpuPercent struct {
	Avg float64 `json:"avg"`
	Max float64 `json:"max"`
}

// MachineMetricsHistoryPointsItemMemoryBytes: the MachineMetricsHistoryPointsItemMemoryBytes record.
type MachineMetricsHistoryPointsItemMemoryBytes struct {
	Avg float64 `json:"avg"`
	Max float64 `json:"max"`
}

// MachineMetricsHistoryPointsItemDiskUsedBytes: the MachineMetricsHistoryPointsItemDiskUsedBytes record.
type MachineMetricsHistoryPointsItemDiskUsedBytes struct {
	Avg float64 `json:"avg"`
	Max float64 `json:"max"`
}

// MachineMetricsHistoryPointsItem: the MachineMetricsHistoryPointsItem record.
type MachineMetricsHistoryPointsItem struct {
	// RFC 3339 time.
	At            string                                       `json:"at"`
	CPUPercent    MachineMetricsHistoryPointsItemCpuPercent    `json:"cpuPercent"`
	MemoryBytes   MachineMetricsHistoryPointsItemMemoryBytes   `json:"memoryBytes"`
	DiskUsedBytes MachineMetricsHistoryPointsItemDiskUsedBytes `json:"diskUsedBytes"`
}

// MachineMetricsHistory: the MachineMetricsHistory record.
type MachineMetricsHistory struct {
	// One of 1m, 5m, 15m, 1h, 6h, 1d.
	Step string `json:"step"`
	// RFC 3339 time.
	From string `json:"from"`
	// RFC 3339 time.
	To     string                            `json:"to"`
	Points []MachineMetricsHistoryPointsItem `json:"points"`
}

// ClusterPlayersOnlinePointsItemPlayersOnline: the ClusterPlayersOnlinePointsItemPlayersOnline record.
type ClusterPlayersOnlinePointsItemPlayersOnline struct {
	Avg float64 `json:"avg"`
	Max float64 `json:"max"`
}

// ClusterPlayersOnlinePointsItem: the ClusterPlayersOnlinePointsItem record.
type ClusterPlayersOnlinePointsItem struct {
	// RFC 3339 time.
	At            string                                      `json:"at"`
	PlayersOnline ClusterPlayersOnlinePointsItemPlayersOnline `json:"playersOnline"`
}

// ClusterPlayersOnline: the ClusterPlayersOnline record.
type ClusterPlayersOnline struct {
	// One of 1m, 5m, 15m, 1h, 6h, 1d.
	Step string `json:"step"`
	// RFC 3339 time.
	From string `json:"from"`
	// RFC 3339 time.
	To     string                           `json:"to"`
	Points []ClusterPlayersOnlinePointsItem `json:"points"`
}

// PlayerCurrentServer: the PlayerCurrentServer record.
type PlayerCurrentServer struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Player: the Player record.
type Player struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	// Identifier on a game platform (a Minecraft player: its name or UUID)
	SteamID string  `json:"steamId"`
	UUID    *string `json:"uuid"`
	// Seconds played, including the current session
	Playtime int64 `json:"playtime"`
	// RFC 3339 time.
	FirstSeen string `json:"firstSeen"`
	// RFC 3339 time.
	LastSeen      string               `json:"lastSeen"`
	Online        bool                 `json:"online"`
	CurrentServer *PlayerCurrentServer `json:"currentServer"`
	Flags         []string             `json:"flags"`
}

// PlayerStatsActive: Distinct players with a session overlapping the last 24 h / 7 days / 30 days
type PlayerStatsActive struct {
	Today int64 `json:"today"`
	Week  int64 `json:"week"`
	Month int64 `json:"month"`
}

// PlayerStatsNew: Players first seen in the window
type PlayerStatsNew struct {
	Today int64 `json:"today"`
	Week  int64 `json:"week"`
	Month int64 `json:"month"`
}

// PlayerStatsTopPlayersItem: the PlayerStatsTopPlayersItem record.
type PlayerStatsTopPlayersItem struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	Playtime int64  `json:"playtime"`
}

// PlayerStatsRetention: dayN: of players first seen between N+30 and N days ago, the fraction with a session starting at least N days after their first
type PlayerStatsRetention struct {
	Day1  float64 `json:"day1"`
	Day7  float64 `json:"day7"`
	Day30 float64 `json:"day30"`
}

// PlayerStats: the PlayerStats record.
type PlayerStats struct {
	Total int64 `json:"total"`
	// Distinct players with a session overlapping the last 24 h / 7 days / 30 days
	Active PlayerStatsActive `json:"active"`
	// Players first seen in the window
	New PlayerStatsNew `json:"new"`
	// 10 by playtime
	TopPlayers []PlayerStatsTopPlayersItem `json:"topPlayers"`
	// dayN: of players first seen between N+30 and N days ago, the fraction with a session starting at least N days after their first
	Retention PlayerStatsRetention `json:"retention"`
}

// PlayerDetailCurrentServer: the PlayerDetailCurrentServer record.
type PlayerDetailCurrentServer struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Session: the Session record.
type Session struct {
	ID         string `json:"id"`
	ServerID   string `json:"serverId"`
	ServerName string `json:"serverName"`
	// RFC 3339 time.
	JoinedAt string `json:"joinedAt"`
	// Null while the session is open
	// RFC 3339 time.
	LeftAt *string `json:"leftAt"`
	// Seconds; for an open session, so far
	Duration int64 `json:"duration"`
}

// Purchase: the Purchase record.
type Purchase struct {
	ID          string  `json:"id"`
	ProductName string  `json:"productName"`
	Amount      float64 `json:"amount"`
	Currency    string  `json:"currency"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
}

// Note: the Note record.
type Note struct {
	ID        string `json:"id"`
	Content   string `json:"content"`
	CreatedBy string `json:"createdBy"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
}

// PlayerDetail: the PlayerDetail record.
type PlayerDetail struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	// Identifier on a game platform (a Minecraft player: its name or UUID)
	SteamID string  `json:"steamId"`
	UUID    *string `json:"uuid"`
	// Seconds played, including the current session
	Playtime int64 `json:"playtime"`
	// RFC 3339 time.
	FirstSeen string `json:"firstSeen"`
	// RFC 3339 time.
	LastSeen      string                     `json:"lastSeen"`
	Online        bool                       `json:"online"`
	CurrentServer *PlayerDetailCurrentServer `json:"currentServer"`
	Flags         []string                   `json:"flags"`
	ClusterID     string                     `json:"clusterId"`
	DiscordID     *string                    `json:"discordId"`
	// The newest 100; all of them at /api/v1/players/{id}/sessions
	Sessions  []Session  `json:"sessions"`
	Purchases []Purchase `json:"purchases"`
	// Newest first
	Notes []Note `json:"notes"`
}

// OnlinePlayer: the OnlinePlayer record.
type OnlinePlayer struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	SteamID  string `json:"steamId"`
	// RFC 3339 time.
	JoinedAt string   `json:"joinedAt"`
	Ping     *float64 `json:"ping"`
}

// ServerPlayers: the ServerPlayers record.
type ServerPlayers struct {
	Online  int64          `json:"online"`
	Max     int64          `json:"max"`
	Players []OnlinePlayer `json:"players"`
}

// KickAnswer: the KickAnswer record.
type KickAnswer struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	JobID   string `json:"jobId"`
	// One of QUEUED, DISPATCHED, RUNNING, SUCCEEDED, FAILED, CANCELLED, EXPIRED.
	Status string `json:"status"`
}

// BanPlayer: The banned player as people know it (its id is also `playerId`)
type BanPlayer struct {
	ID       string  `json:"id"`
	Username string  `json:"username"`
	SteamID  *string `json:"steamId"`
}

// Ban: the Ban record.
type Ban struct {
	ID          string  `json:"id"`
	PlayerID    string  `json:"playerId"`
	ClusterID   string  `json:"clusterId"`
	ServerID    *string `json:"serverId"`
	Reason      string  `json:"reason"`
	ClusterWide bool    `json:"clusterWide"`
	// Null: permanent
	// RFC 3339 time.
	ExpiresAt *string `json:"expiresAt"`
	// User id
	CreatedBy string `json:"createdBy"`
	// RFC 3339 time.
	CreatedAt string `json:"createdAt"`
	// RFC 3339 time.
	RevokedAt *string `json:"revokedAt"`
	// Not revoked and not expired
	Active bool `json:"active"`
	// The banned player as people know it (its id is also `playerId`)
	Player BanPlayer `json:"player"`
	// The name of the ban's server (`serverId`); null for a cluster-wide ban
	ServerName *string `json:"serverName"`
}

// BanAnswer: the BanAnswer record.
type BanAnswer struct {
	Success bool     `json:"success"`
	Ban     Ban      `json:"ban"`
	JobIDs  []string `json:"jobIds"`
}

// UnbanAnswer: the UnbanAnswer record.
type UnbanAnswer struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	// The bans revoked (each with `revokedAt`)
	Bans []Ban `json:"bans"`
	// UNBAN jobs, one per server where no ban of the player applies any more
	JobIDs []string `json:"jobIds"`
}

// Event: the Event record.
type Event struct {
	// Cursor: sorts as a string in the order events must be read
	ID        string `json:"id"`
	Type      string `json:"type"`
	ClusterID string `json:"clusterId"`
	// RFC 3339 time.
	At   string         `json:"at"`
	Data map[string]any `json:"data"`
}
