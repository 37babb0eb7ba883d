/**
 * Generated from the API document by openapi-typescript (npm run generate:client). Do not edit.
 */

export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The web dashboard
         * @description The operators’ dashboard (an HTML page; its script and style sheet are served at `/dashboard/<file>`).
         */
        get: operations["getDashboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/install.sh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The agent install script
         * @description Run by the line a machine's registration answers (`install.command`), which checks its SHA-256 (also its `ETag`) first; a single-use registration code (or an agent token) on its standard input.
         */
        get: operations["getAgentInstallScript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/package.tgz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The agent package (npm tarball) of this service's version
         * @description One JavaScript file for Node.js 20 and later, no dependencies. `ETag` is its SHA-256.
         */
        get: operations["getAgentPackage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a registration code for the agent token
         * @description What the install script does with the code of an install line: answers the machine's id and agent token, once. A used, replaced or expired code is refused (410) and an unknown one is 404, each with a message saying what to do. No authentication (the code is the credential); limited per address like sign-in.
         */
        post: operations["exchangeInstallCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Interactive API reference */
        get: operations["getApiReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Static asset of the reference page */
        get: operations["getApiReferenceAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/init.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Start-up script of the reference page */
        get: operations["getApiReferenceScript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OpenAPI 3.1 document
         * @description Generated from the zod schemas that validate requests.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change your password
         * @description With a session (not an API token): `currentPassword` must be the account's password (a 400 on that field otherwise). An account without a password (`hasPassword: false`, made with Steam or Discord) sets its first without one, from a session signed in within the last 10 minutes (403 otherwise). Every other session of the account ends at once; this one goes on, and API tokens and linked Steam or Discord accounts stay. Each attempt spends the sign-in budget of the address, and a wrong password the account's budget of wrong passwords (429 past either). An `Idempotency-Key` is ignored: nothing of the body is kept.
         */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/ssh-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your SSH keys
         * @description The public keys you sign in to servers' files with over SFTP, newest first. Answers `{ keys }`, like the token list.
         */
        get: operations["listSshKeys"];
        put?: never;
        /**
         * Add an SSH key
         * @description One OpenSSH public key line (the contents of `~/.ssh/id_ed25519.pub`): ssh-ed25519, ecdsa-sha2-nistp256/384/521, or ssh-rsa of 2048 bits or more; certificates and security keys (sk-) are refused. Checked down to the key itself and fingerprinted (SHA256, as `ssh-keygen -l` prints it). At most 50 keys per account; the same key once (409). From a session only.
         */
        post: operations["addSshKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/ssh-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an SSH key
         * @description Effective at once for new SFTP sign-ins; SFTP sessions opened with the key are closed within seconds.
         */
        delete: operations["deleteSshKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your API tokens
         * @description Answers `{ tokens }` (not the list envelope, as the seed says). Secrets are never shown again.
         */
        get: operations["listApiTokens"];
        put?: never;
        /**
         * Create an API token
         * @description Scoped to the clusters named (each one you belong to); in each it acts with your role there. The secret is in this answer only. At most 25 unexpired tokens per user (409 beyond).
         */
        post: operations["createApiToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/tokens/{tokenId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API token
         * @description Effective at once: the next request with it is 401.
         */
        delete: operations["revokeApiToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/discord": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign in with Discord
         * @description Redirects to Discord (OAuth 2, scopes `identify email`). With a bearer token, the Discord account is linked to that user instead. 404 until the installation configures Discord. From an invitation, use `POST /auth/discord/start`.
         */
        get: operations["signInWithDiscord"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/discord/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Discord sign-in callback
         * @description Where Discord sends the user back: the code is exchanged for the Discord user.
         */
        get: operations["discordSignInCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/discord/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a Discord sign-in (from an invitation)
         * @description Answers the Discord sign-in page to send the browser to (and sets the flow's cookie), as `GET /auth/discord` redirects there. 404 until the installation configures Discord. With `invitation` (a pending invitation's token) the account joins that cluster with its role (a member already just signs in), and is created if needed whatever ALLOW_REGISTRATION says; the invitation must still be pending when the provider sends the user back.
         */
        post: operations["startDiscordSignIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with e-mail and password */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the current session
         * @description Its access and refresh tokens stop working at once. API tokens are revoked with DELETE /api/v1/account/tokens/{id}.
         */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E-mail a password reset link
         * @description With SMTP_URL set: e-mails the account with this address a link to choose a new password (single use, valid 60 minutes; at most one e-mail a minute). The answer is the same whether or not an account has the address. 404 without SMTP_URL.
         */
        post: operations["requestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Choose a new password with a reset link
         * @description Spends the secret of the e-mailed link, sets the password and ends every session of the account (sign in again).
         */
        post: operations["confirmPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a refresh token for a new token pair
         * @description Each refresh token works once. Presenting a spent one again revokes its whole session.
         */
        post: operations["refreshSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an account
         * @description Open while no user exists; afterwards only when the installation sets ALLOW_REGISTRATION=true, or with `invitationToken`: a pending invitation's token for this e-mail creates the account whatever ALLOW_REGISTRATION says and joins the invitation's cluster with its role. Answers the new user and a token pair.
         */
        post: operations["register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/steam": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign in with Steam
         * @description Redirects to Steam (OpenID 2.0). With a bearer token, the Steam account is linked to that user instead. From an invitation, use `POST /auth/steam/start`.
         */
        get: operations["signInWithSteam"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/steam/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Steam sign-in callback
         * @description Where Steam sends the user back. The assertion is confirmed with Steam (check_authentication) before it is trusted.
         */
        get: operations["steamSignInCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/steam/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a Steam sign-in (from an invitation)
         * @description Answers the Steam sign-in page to send the browser to (and sets the flow's cookie), as `GET /auth/steam` redirects there. With `invitation` (a pending invitation's token) the account joins that cluster with its role (a member already just signs in), and is created if needed whatever ALLOW_REGISTRATION says; the invitation must still be pending when the provider sends the user back.
         */
        post: operations["startSteamSignIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/backups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a backup */
        get: operations["getBackup"];
        put?: never;
        post?: never;
        /**
         * Delete a backup
         * @description Deletes the backup; its agent removes the archive (at once when connected, else when it next connects). 409 while it is being made or restored.
         */
        delete: operations["deleteBackup"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/backups/{id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a backup
         * @description A RESTORE job: the agent checks the archive's SHA-256 while it extracts it beside the server's directory, then swaps the two; the old directory is kept until the restore succeeded, and a failed restore leaves it as it was. The server must be stopped (409 otherwise), and the backup COMPLETED (409 otherwise). 202 with the Job and `Location`.
         */
        post: operations["restoreBackup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a ban */
        get: operations["getBan"];
        put?: never;
        post?: never;
        /**
         * Remove a ban
         * @description Revokes the ban (the record stays, with `revokedAt`) and lifts it in the games at once (UNBAN jobs, `jobIds`). 409 when it is no longer active.
         */
        delete: operations["removeBan"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your clusters */
        get: operations["listClusters"];
        put?: never;
        /**
         * Create a cluster
         * @description Any user may; the creator becomes its OWNER. An API token's scope never grows: a cluster created with one is reached with a session or a new token.
         */
        post: operations["createCluster"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A cluster's audit log
         * @description Filters: `action` (exact, e.g. `member.update`), `actorId`, `targetId`. Newest first by default.
         */
        get: operations["listAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/bans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A cluster's bans
         * @description Filters: `playerId`, `serverId` (bans that apply there: its own and cluster-wide ones), `active`. Newest first by default.
         */
        get: operations["listBans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A cluster's events
         * @description Durable events, oldest first. Filters: `types` (comma list; `type` is accepted too), `serverId`, `after` (an event id: the events after it). Events are kept EVENT_RETENTION_DAYS (default 7).
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A cluster's events, live (Server-Sent Events)
         * @description Each event is sent as `id:` (the cursor), `event:` (the type) and `data:` (the event JSON). Resumes after the `Last-Event-ID` header (or `?after=`) from the durable log, then goes on live with no gap and no duplicate; without either it starts with the events that come next. Filters: `types` (comma list; `type` is accepted too), `serverId`. A comment line every 15 s keeps proxies open. The stream ends when the caller loses access to the cluster (checked every few seconds).
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List invitations */
        get: operations["listInvitations"];
        put?: never;
        /**
         * Invite someone by e-mail
         * @description The answer carries the invitation's secret `token` and its `link` (shown once), valid 7 days. With SMTP_URL set the link is also e-mailed to the invitee (`emailed`). The link's page lets the invitee create an account with the invited e-mail (whatever ALLOW_REGISTRATION says), sign in, or use Steam or Discord, and join; a signed-in user with that e-mail can also accept with POST /api/v1/invitations/accept.
         */
        post: operations["createInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an invitation */
        delete: operations["revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A cluster's jobs
         * @description Filters: `status`, `type` (any case), `serverId`, `taskId`. Newest first by default.
         */
        get: operations["listJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/machines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List machines */
        get: operations["listMachines"];
        put?: never;
        /**
         * Register a machine
         * @description Answers the machine with its agent token (`gsm_agent_…`, shown only here), where the agent connects, and the install line, which carries a single-use registration code (one hour) for that token instead of the token itself.
         */
        post: operations["registerMachine"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/machines/upgrade": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upgrade the cluster's agents
         * @description Starts a roll that upgrades the agents of the cluster's machines to the service's own agent package (`GET /agent/package.tgz`), `batchSize` machines at a time. Each agent downloads the package, checks its SHA-256 and version, replaces itself and restarts; its game servers keep running and are adopted. The next batch starts only when every machine of this one is back ONLINE (a new connection) on the new version and its new agent has reported every server the machine was running as running in the same process (same pid and start time, adopted, not restarted). A machine that is not (within `timeoutSeconds`), whose agent refuses, whose server was restarted or lost, or whose agent came back on its old version after accepting (rolled back) or after the command was sent over three connections without an answer, stops the roll, and the roll's `reason` says which and why. One roll at a time per cluster (409). Answers the roll; follow it with `GET /api/v1/clusters/{clusterId}/machines/upgrades/{upgradeId}`.
         */
        post: operations["upgradeAgents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/machines/upgrades": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the cluster's agent upgrades
         * @description The latest 20 rolls, the newest first.
         */
        get: operations["listAgentUpgrades"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/machines/upgrades/{upgradeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an agent upgrade */
        get: operations["getAgentUpgrade"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/machines/upgrades/{upgradeId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an agent upgrade
         * @description No further machine is upgraded. An agent already told to upgrade may still finish (its machine is marked CANCELLED, saying so). 409 when the roll has ended.
         */
        post: operations["cancelAgentUpgrade"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List members */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member
         * @description OWNER may remove anyone; ADMIN only MODERATOR and VIEWER. The last OWNER cannot be removed (409).
         */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        /**
         * Change a member's role
         * @description OWNER may set any role; ADMIN only between MODERATOR and VIEWER. The last OWNER cannot be demoted (409).
         */
        patch: operations["changeMemberRole"];
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/members/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Leave a cluster
         * @description Any member may leave, except the last OWNER (409).
         */
        delete: operations["leaveCluster"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/players": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A cluster's players
         * @description `search`: part of the username or platform id, any case. `online`, `serverId` (players who have played there; with `online=true`, who are on it now). `sort`: `playtime`, `lastSeen` (default `-lastSeen`), `firstSeen`, `username`, each with `-` for descending; sorting by playtime uses completed sessions.
         */
        get: operations["listPlayers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/players/online": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A cluster's players online over time
         * @description `from` and `to` are ISO 8601 instants (default: the last 24 hours); `step` is one of 1m, 5m, 15m, 1h, 6h, 1d (default: the finest giving at most 1,500 points; a step giving more is 400). A bucket without samples is absent, not zero. Minute points are kept 14 days, hourly points 400 days. Per bucket: the sum over the cluster's servers of each one's average and of each one's maximum (an upper bound when servers peak at different moments).
         */
        get: operations["getPlayersOnlineHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/players/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Player statistics
         * @description Rolling windows: today = last 24 h, week = 7 days, month = 30 days. `active`: distinct players with a session overlapping the window; `new`: first seen in it; `topPlayers`: 10 by playtime; `retention.dayN`: of players first seen between N+30 and N days ago, the fraction with a session starting at least N days after their first session (0 when there are none).
         */
        get: operations["getPlayerStatistics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/servers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List servers of a cluster
         * @description Filters: `status` and `gameType` (alias `game`) in any case, `machineId`.
         */
        get: operations["listClusterServers"];
        put?: never;
        /** Create a server */
        post: operations["createServer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List scheduled tasks of a cluster
         * @description Filter `enabled`; sort by `name`, `createdAt`, `nextRunAt` or `lastRunAt`.
         */
        get: operations["listTasks"];
        put?: never;
        /**
         * Create a scheduled task
         * @description A 5-field cron `schedule` read in `timezone` (IANA, default UTC), target `serverIds` of this cluster and ordered `steps`. The answer carries `nextRunAt`; a disabled task has none.
         */
        post: operations["createTask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a cluster's own templates */
        get: operations["listClusterTemplates"];
        put?: never;
        /**
         * Create a cluster template
         * @description The document is checked whole (docs/templates.md): a pattern that does not compile for the linear-time engine, an unknown placeholder or a port named but not declared is a 400 naming its field.
         */
        post: operations["createClusterTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a cluster template */
        get: operations["getClusterTemplate"];
        put?: never;
        post?: never;
        /** Delete a cluster template */
        delete: operations["deleteClusterTemplate"];
        options?: never;
        head?: never;
        /**
         * Replace a cluster template
         * @description The body is the whole new document; the version grows by one. Servers running it keep the version they started with until their next start.
         */
        patch: operations["updateClusterTemplate"];
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/templates/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a Pterodactyl or Pelican egg
         * @description Creates a cluster template from an egg: PTDL_v1, PTDL_v2 (JSON), PLCN_v1 to PLCN_v3 (JSON or YAML), given as `text` or read from `url` (public addresses only unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=true, no redirects, at most 512 KiB within 10 s). Its installation script runs as the server’s account, its package installs not run; `tools` lists the programs it needs on the machine. `unmapped` lists, in words, every part of the egg not carried over or carried over with a difference.
         */
        post: operations["importEgg"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{clusterId}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhooks */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook
         * @description Each durable event of the cluster whose type is in `events` (or all, with `["*"]`) is POSTed to `url`: the event envelope (`format` JSON) or a Discord message (`format` DISCORD), signed with the `secret` shown only in this answer. The URL must resolve to public addresses unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=true.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a cluster */
        get: operations["getCluster"];
        put?: never;
        post?: never;
        /**
         * Delete a cluster
         * @description Removes the cluster with its members, invitations and token scopes. Its audit log is kept.
         */
        delete: operations["deleteCluster"];
        options?: never;
        head?: never;
        /** Update a cluster */
        patch: operations["updateCluster"];
        trace?: never;
    };
    "/api/v1/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation
         * @description The signed-in user must have the e-mail address the invitation was sent to. Answers the cluster joined.
         */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/invitations/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Look at an invitation before joining
         * @description For the invitation page: the invited e-mail, the cluster and role, whether the invitation is still pending. It does not say whether the address has an account (anyone may invite any address), so the page offers both registration and sign-in. Needs no sign-in: the secret token is the permission. The token travels in the body so it stays out of access logs.
         */
        post: operations["previewInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a job
         * @description With `?wait=N` (0..60) the answer waits until the job ends or N seconds pass (long polling).
         */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a job
         * @description QUEUED: cancelled at once (200), and a power job's desired status goes back to what the server is doing. DISPATCHED or RUNNING: the cancel is sent to the agent, also after it reconnects (202; the job ends when the agent answers); a running TASK_RUN is cancelled at once (200) and starts no further step. Ended: 409.
         */
        post: operations["cancelJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/machines/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a machine */
        get: operations["getMachine"];
        put?: never;
        post?: never;
        /**
         * Remove a machine
         * @description Refused (409) while it hosts servers, unless `?force=true`, which removes its servers too.
         */
        delete: operations["removeMachine"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/machines/{id}/addresses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set a machine's addresses
         * @description The addresses players reach the machine at, shown with its servers’ ports. Its agent reports its own beside them (`reportedAddresses`).
         */
        put: operations["setMachineAddresses"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/machines/{id}/allocations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A machine's addresses, port ranges and the ports its servers hold */
        get: operations["getMachineAllocations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/machines/{id}/install-code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a new install line for a machine
         * @description Answers a new install line with a single-use registration code (one hour); earlier unused codes of the machine stop working. The code yields a new agent token: the machine's current token keeps working until an agent first connects with the new one, and then stops.
         */
        post: operations["createMachineInstallCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/machines/{id}/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A machine's CPU, memory and disk over time
         * @description `from` and `to` are ISO 8601 instants (default: the last 24 hours); `step` is one of 1m, 5m, 15m, 1h, 6h, 1d (default: the finest giving at most 1,500 points; a step giving more is 400). A bucket without samples is absent, not zero. Minute points are kept 14 days, hourly points 400 days.
         */
        get: operations["getMachineMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/machines/{id}/port-ranges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a port range to a machine
         * @description Ports 1024..65535, at most 10,000 in a range; a range overlapping another of the machine is refused (409). Servers created without ports get free ones from the ranges, and explicit ports must then lie in them.
         */
        post: operations["createPortRange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/machines/{id}/port-ranges/{rangeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a port range from a machine
         * @description Servers holding ports in it keep them; no new port is picked from it.
         */
        delete: operations["deletePortRange"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/machines/{id}/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a machine's agent token
         * @description The old token stops working at once, and the connection it opened is closed. Answers the new token and an install line whose single-use code yields it; earlier codes stop working.
         */
        post: operations["rotateAgentToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/players/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a player
         * @description The list fields plus `discordId`, the newest 100 sessions, purchases and notes (newest first).
         */
        get: operations["getPlayer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a player's flags or add a note
         * @description `flags` replaces the set (≤ 20, each 1..32 of `[A-Za-z0-9_-]`); `notes` (1..2000 characters) adds a note by the caller.
         */
        patch: operations["updatePlayer"];
        trace?: never;
    };
    "/api/v1/players/{id}/ban": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ban a player
         * @description `{ serverId, reason?, duration? (seconds; null = permanent), clusterWide? }` — `serverId` unless `clusterWide`. Writes the ban, kicks the player wherever it applies and pushes it to the game's own ban list (one BAN job per server, `jobIds`). A banned player who joins is kicked at once; a cluster-wide ban also covers servers added later. Expiry lifts it automatically.
         */
        post: operations["banPlayer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/players/{id}/kick": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Kick a player
         * @description `{ serverId?, reason? }` — the server defaults to the one the player is on; 409 when the player is not on it. A KICK job; the answer waits up to 10 s (`?wait=` overrides) for the game: 200 `{ success, message, jobId, status }` when done, 202 with `success: false` while it is still on its way.
         */
        post: operations["kickPlayer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/players/{id}/purchases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record a purchase
         * @description For store integrations: `{ productName, amount, currency? }` (ISO 4217, default USD; amounts to 4 decimal places).
         */
        post: operations["recordPurchase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/players/{id}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A player's sessions
         * @description Newest first, paginated.
         */
        get: operations["listPlayerSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/players/{id}/unban": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unban a player
         * @description Revokes every active ban of the player (on one server or cluster-wide), as `DELETE /api/v1/bans/<id>` does for each: the records stay, with `revokedAt`, and the games' own ban lists are lifted at once (UNBAN jobs, `jobIds`). 409 when the player has no active ban.
         */
        post: operations["unbanPlayer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/rcon/execute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run an RCON command (variant: serverId in the body)
         * @description Runs a console command on a running server (409 otherwise, and for a CUSTOM server with `consoleMode` NONE). Waits 10 s by default (`?wait=` overrides): 200 `{ success, output, jobId, status }` when finished, 202 with `output: null` when not.
         */
        post: operations["executeRconCommand"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List servers across your clusters
         * @description Every server in the clusters you can see (an API token: its scope); `clusterId` narrows to one.
         */
        get: operations["listServers"];
        put?: never;
        /** Create a server (variant: clusterId in the body) */
        post: operations["createServerWithClusterId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a server */
        get: operations["getServer"];
        put?: never;
        post?: never;
        /** Delete a server */
        delete: operations["deleteServer"];
        options?: never;
        head?: never;
        /**
         * Update a server
         * @description OWNER and ADMIN change any setting; a MODERATOR only `variables` that the server's template marks `userEditable` (anything else: 403).
         */
        patch: operations["updateServer"];
        trace?: never;
    };
    "/api/v1/servers/{id}/backups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a server's backups
         * @description Newest first by default; filter `status`.
         */
        get: operations["listBackups"];
        put?: never;
        /**
         * Back up a server
         * @description A BACKUP job and its PENDING backup: the agent archives the server's directory (a running MINECRAFT server is flushed with saving paused meanwhile; other running games are archived live, `consistent: false`), records its size and SHA-256, and keeps it on the machine or in its S3-compatible storage. When it completes, the oldest completed backups beyond the server's `backupRetention` are deleted. 202 with the Job (`params.backupId` names the backup) and `Location` of the backup.
         */
        post: operations["createBackup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/console": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A server's recent console
         * @description The last `lines` console lines (1..1000, default 100), oldest first, as its agent relayed them; with `after` (a line's `seq`), the lines after it instead (a resume: page on with the answer's `seq`). Every member of the cluster. Lines past 5,000 a second per server are dropped and replaced by one `[gsm] N lines dropped` line.
         */
        get: operations["getServerConsole"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a directory of a server
         * @description Entries sorted by name (byte order), `limit` (≤ 10,000) per page after `after` (the previous page's `next`: a cursor, the last name, or for a name that is not UTF-8 `/` and its bytes in base64url); `total` counts the directory's entries. Links are shown, never followed; entries on the deny list are left out. A name that is not valid UTF-8 on disk is shown with `invalidName` and each such byte as `\xHH`.
         */
        get: operations["listServerFiles"];
        put?: never;
        post?: never;
        /**
         * Delete a file or directory on a server
         * @description A link is removed itself, never its target. A directory that is not empty needs `recursive=true` (409 otherwise).
         */
        delete: operations["deleteServerFile"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/files/chmod": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change a server's file mode
         * @description Modes 0–0777 (no setuid, setgid or sticky bits). A symbolic link is refused (409), never followed.
         */
        post: operations["chmodServerFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/files/compress": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Compress files into an archive
         * @description A FILE_COMPRESS job: the agent writes `archive` (.tar.gz, .tgz or .zip, replaced atomically if it exists) from `paths` (files and directories of one directory, named in the archive relative to it), as the server's account. Symbolic links and special files are left out (the result's `skipped`); deny-listed entries are not read. A zip is at most 65,535 entries and 4 GiB (use .tar.gz beyond). 202 with the job; its `progress` and `result` (`entries`, `bytes`, `skipped`, `archive`) follow on `GET /api/v1/jobs/<id>`.
         */
        post: operations["compressServerFiles"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/files/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read or download a server's file
         * @description `format=raw` (default): the bytes as a download (`Content-Disposition: attachment`, `ETag`, `Accept-Ranges`; `Range: bytes=a-b` answers 206), streamed from the agent a chunk at a time. `format=text`: JSON with the content of a UTF-8 text file of at most 1 MiB (415 for binary, 413 for larger files: download them).
         */
        get: operations["readServerFile"];
        /**
         * Write or upload a server's file
         * @description The request body (any content type, up to FILES_MAX_UPLOAD_BYTES, default 1 GiB) becomes the file, atomically: written beside it, then renamed over it with the old file's mode, so readers never see half a file and an interrupted upload changes nothing. `If-Match: <ETag>` (from a read) refuses with 412 (the current `etag` in the body) when the file changed meanwhile; `If-Match: *` requires it to exist, `If-None-Match: *` requires it not to. Text files of at most 1 MiB are kept in the config history. The new file belongs to the server's account.
         */
        put: operations["writeServerFile"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/files/copy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Copy a file or directory on a server
         * @description Directories are copied whole; links are copied as links (never followed). The target must not exist.
         */
        post: operations["copyServerFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/files/directories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a directory on a server
         * @description With `recursive` (default true) the directories above it are made too, and an existing directory is fine.
         */
        post: operations["createServerDirectory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/files/extract": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Extract an archive
         * @description A FILE_EXTRACT job: the agent checks the whole archive (.tar.gz, .tgz or .zip) before writing anything — links (symbolic or hard), absolute names, names with `..` or NUL and special files are refused; the entry count and the total uncompressed size must be within FILES_EXTRACT_MAX_ENTRIES and FILES_EXTRACT_MAX_BYTES; a zip's methods must be stored or deflate; a file must not land where a directory is, in the archive or on the server, or the reverse; the free space must hold it — then writes it into a staging directory inside `destination` (`.gsm-extract-<hex>`, as the server's account), verifying every entry (a zip's CRC-32, actual sizes), and only when all of it is written moves the files into place (existing files of the same names are replaced). An archive that fails a check, a damaged entry or a cancel leaves nothing of it in place (the staging directory is removed; one a killed helper left is removed by the next extraction into that directory once 24 hours old); only a failure while the checked files are being moved into place (the disk, a permission) can leave those moved before it. The job fails with the refusal's code (LINK_REFUSED, INVALID_PATH, TOO_LARGE, NO_SPACE, IS_A_DIRECTORY, NOT_A_DIRECTORY, INVALID). 202 with the job.
         */
        post: operations["extractServerArchive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/files/pull": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pull a file from a URL
         * @description A FILE_PULL job: the service downloads `url` into `path` (written beside it and renamed over it at the end, as the server's account), under the webhooks' address rules: http(s) without credentials, never a private, loopback, link-local or reserved address (unless WEBHOOK_ALLOW_PRIVATE_NETWORKS), redirects followed (at most 5) only to addresses that pass the same check, at most FILES_PULL_MAX_BYTES (default 1 GiB). Names are resolved as webhooks' are (c-ares at WEBHOOK_DNS_SERVERS or the system's name servers, within WEBHOOK_DNS_TIMEOUT_MS). A URL refused at once is 400 (without WEBHOOK_ALLOW_PRIVATE_NETWORKS its name is resolved then, and a name that does not resolve in time is refused too); one refused later (its name resolving to a private address, a redirect) fails the job with `URL_REFUSED`; a larger file with `TOO_LARGE`; a URL that sends nothing for FILES_PULL_IDLE_SECONDS (default 60), or a download longer than FILES_PULL_MAX_SECONDS (default 3600), with `TIMEOUT` (30 s for the headers). 202 with the job; its `progress` follows the download, its `result` is `{ path, size, url, versionId }` (a text file of at most 1 MiB is kept in the config history like a write; `versionId` null otherwise).
         */
        post: operations["pullServerFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/files/rename": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rename or move a file or directory on a server
         * @description Refuses an existing target unless `overwrite`; a directory holding an entry on the deny list cannot be moved (nor anything moved onto a denied name).
         */
        post: operations["renameServerFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/files/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search a server's files by name or content
         * @description Bounded: depth (`maxDepth`), entries looked at (`maxFiles`), results (`maxResults`), 256 MiB of content and 10 s; `stoppedEarly` says which bound ended it. Links are not followed; binary files are skipped by a content search; denied entries are left out.
         */
        get: operations["searchServerFiles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/files/stat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a file or directory of a server
         * @description The entry, links followed (inside the server directory only).
         */
        get: operations["getServerFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/files/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a resumable upload
         * @description For large files and unreliable connections (docs/files.md#resumable-uploads): answers the upload's `id` and `offset` 0; send the bytes with `PATCH …/uploads/<id>` (`Upload-Offset: <offset>`), as one body or many; after a break, `GET …/uploads/<id>` says the offset to go on from. The file replaces its target atomically once all `size` bytes arrived. Unfinished uploads expire after 24 hours.
         */
        post: operations["startServerFileUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/files/uploads/{uploadId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an upload’s offset
         * @description The bytes received so far (also in `Upload-Offset`): where the next PATCH goes on from.
         */
        get: operations["getServerFileUpload"];
        put?: never;
        post?: never;
        /**
         * Cancel an upload
         * @description Its received bytes are removed; the target is left as it was.
         */
        delete: operations["cancelServerFileUpload"];
        options?: never;
        head?: never;
        /**
         * Send the next bytes of an upload
         * @description The body (any content type) is appended at `Upload-Offset`, which must be the bytes received so far (409 with the current `offset` otherwise). A body cut short keeps what arrived. When the upload is complete the file is put in place (If-Match of the upload checked again: 412), audited and, for text ≤ 1 MiB, kept in the config history; `complete` and `entry` say so.
         */
        patch: operations["continueServerFileUpload"];
        trace?: never;
    };
    "/api/v1/servers/{id}/files/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a text file's kept versions
         * @description The config history: the last 20 versions of a text file (≤ 1 MiB) written through the API or SFTP, newest first.
         */
        get: operations["listServerFileVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/files/versions/{versionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a kept version of a file */
        get: operations["getServerFileVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/files/versions/{versionId}/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Compare a kept version with the file or another version
         * @description A unified diff from the version to `against` (`current`: the file as it is now on the server; or another version id).
         */
        get: operations["diffServerFileVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/files/versions/{versionId}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a kept version of a file
         * @description Writes the version back atomically (`ifMatch`: the ETag the file must still have, 412 otherwise); the restore is itself kept as a version.
         */
        post: operations["restoreServerFileVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/install": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Install the game
         * @description An INSTALL job: the agent installs the server's game in its directory (MINECRAFT: the server jar of `version`, checked by SHA-1; Steam games: SteamCMD `app_update`; CUSTOM: `installCommand`), with progress on the job. 409 while the server runs. The server is INSTALLING meanwhile and INSTALL_FAILED when it fails (its previous installation is left working). 202 with the Job and `Location`; with `?wait=N` (0..60) the answer waits until the job ends (200) or N seconds pass (202).
         */
        post: operations["installServer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/kill": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Kill a server at once (SIGKILL)
         * @description A KILL job. 202 with the Job and `Location`; with `?wait=N` (0..60) the answer waits until the job ends (200) or N seconds pass (202).
         */
        post: operations["killServer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A server's CPU, memory and players online over time
         * @description `from` and `to` are ISO 8601 instants (default: the last 24 hours); `step` is one of 1m, 5m, 15m, 1h, 6h, 1d (default: the finest giving at most 1,500 points; a step giving more is 400). A bucket without samples is absent, not zero. Minute points are kept 14 days, hourly points 400 days.
         */
        get: operations["getServerMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/players": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who is on a server */
        get: operations["listServerPlayers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/rcon": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run an RCON command
         * @description Runs a console command on a running server (409 otherwise, and for a CUSTOM server with `consoleMode` NONE). Waits 10 s by default (`?wait=` overrides): 200 `{ success, output, jobId, status }` when finished, 202 with `output: null` when not.
         */
        post: operations["runRconCommand"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/restart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restart a server
         * @description A RESTART job. 202 with the Job and `Location`; with `?wait=N` (0..60) the answer waits until the job ends (200) or N seconds pass (202).
         */
        post: operations["restartServer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a server
         * @description A START job. 202 with the Job and `Location`; with `?wait=N` (0..60) the answer waits until the job ends (200) or N seconds pass (202).
         */
        post: operations["startServer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a server gracefully
         * @description A STOP job. 202 with the Job and `Location`; with `?wait=N` (0..60) the answer waits until the job ends (200) or N seconds pass (202).
         */
        post: operations["stopServer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a server to another machine
         * @description A TRANSFER job (docs/transfers.md): the target's ports are reserved at once, and its room checked against its last reported free space (409 otherwise); without `includeBackups` the local backups are deleted at the switch (listed in the job's `params.backupsToDelete`); then the space on the target is checked, the server stopped, its directory archived on the source and copied to the target in checksummed chunks through the service (resuming from the last acknowledged chunk after any crash), its local backups copied (S3 ones re-pointed), and in one transaction the server's machine and ports switched (a `server.transferred` event); it starts on the target if it was running, and the source's copy is removed (kept with `keepSource`). The job's `progress` has the phase and bytes. Cancel it (POST /api/v1/jobs/<id>/cancel) until the switch: the server is back on its source as it was. Power and file actions answer 409 naming the job meanwhile.
         */
        post: operations["transferServer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/servers/{id}/update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Update the game
         * @description An UPDATE job: like INSTALL, for an installed server (MINECRAFT: to `version`, or the latest release). A running server is stopped, updated and started again when its desired status is RUNNING. 202 with the Job and `Location`; with `?wait=N` (0..60) the answer waits until the job ends (200) or N seconds pass (202).
         */
        post: operations["updateServerGame"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a scheduled task
         * @description Its runs are the TASK_RUN jobs, and their child jobs, at `GET /api/v1/clusters/<clusterId>/jobs?taskId=<id>`.
         */
        get: operations["getTask"];
        put?: never;
        post?: never;
        /**
         * Delete a scheduled task
         * @description Removes its pending occurrence. A run under way ends CANCELLED before its next step; past runs stay in the jobs list.
         */
        delete: operations["deleteTask"];
        options?: never;
        head?: never;
        /**
         * Update a scheduled task
         * @description Any field of the create body; `serverIds` and `steps` replace the lists. A change of `schedule`, `timezone` or `enabled` recomputes `nextRunAt` and replaces the pending occurrence; disabling removes it. A run under way is not affected.
         */
        patch: operations["updateTask"];
        trace?: never;
    };
    "/api/v1/tasks/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a scheduled task now
         * @description Starts a run at once, also of a disabled task; the schedule is not changed. 202 with the TASK_RUN job and `Location`; with `?wait=N` (0..60) the answer waits until the run ends (200) or N seconds pass (202). 409 while a run of the task is under way.
         */
        post: operations["runTask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/schedule-preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The next runs of a schedule
         * @description The next `count` (default 5) runs of a 5-field cron `schedule` read in `timezone` (default UTC), computed as the scheduler does (daylight-saving changes included), for forms to show before a task is saved. A bad schedule or time zone is a 400 naming the field.
         */
        get: operations["previewTaskSchedule"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List game templates
         * @description The built-in catalogue (first, by id), then the templates of your clusters (an API token: its scope). Filters: `name` (part of the name or id), `tag`, `clusterId`.
         */
        get: operations["listTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a game template */
        get: operations["getTemplate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description With its delivery log; deliveries not yet sent are not sent.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change a webhook
         * @description Any of `url`, `events`, `format`, `description`, `enabled`. Enabling a disabled webhook clears `disabledReason` and its failure count; the deliveries it kept while disabled are sent.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook's delivery log
         * @description Newest first; filter `status` (PENDING, SUCCEEDED, FAILED).
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a delivery */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description Sends it again now, with the same `GSM-Delivery` id (receivers dedupe on it), and restarts its retry schedule. 409 while it is being sent; a delivery of a disabled webhook waits until the webhook is enabled.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test delivery
         * @description Queues a `webhook.test` event for this webhook only (also when it is disabled: a test is how to check it works again) and answers its Delivery; follow it in the delivery log. The test event's `id` is `test_` and a UUID, its own, never an id of the event log.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/discord": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign in with Discord
         * @description Redirects to Discord (OAuth 2, scopes `identify email`). With a bearer token, the Discord account is linked to that user instead. 404 until the installation configures Discord. From an invitation, use `POST /auth/discord/start`.
         */
        get: operations["signInWithDiscordAlias"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/discord/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Discord sign-in callback
         * @description Where Discord sends the user back: the code is exchanged for the Discord user.
         */
        get: operations["discordSignInCallbackAlias"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/discord/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a Discord sign-in (from an invitation)
         * @description Answers the Discord sign-in page to send the browser to (and sets the flow's cookie), as `GET /auth/discord` redirects there. 404 until the installation configures Discord. With `invitation` (a pending invitation's token) the account joins that cluster with its role (a member already just signs in), and is created if needed whatever ALLOW_REGISTRATION says; the invitation must still be pending when the provider sends the user back.
         */
        post: operations["startDiscordSignInAlias"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with e-mail and password */
        post: operations["loginAlias"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the current session
         * @description Its access and refresh tokens stop working at once. API tokens are revoked with DELETE /api/v1/account/tokens/{id}.
         */
        post: operations["logoutAlias"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E-mail a password reset link
         * @description With SMTP_URL set: e-mails the account with this address a link to choose a new password (single use, valid 60 minutes; at most one e-mail a minute). The answer is the same whether or not an account has the address. 404 without SMTP_URL.
         */
        post: operations["requestPasswordResetAlias"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Choose a new password with a reset link
         * @description Spends the secret of the e-mailed link, sets the password and ends every session of the account (sign in again).
         */
        post: operations["confirmPasswordResetAlias"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a refresh token for a new token pair
         * @description Each refresh token works once. Presenting a spent one again revokes its whole session.
         */
        post: operations["refreshSessionAlias"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an account
         * @description Open while no user exists; afterwards only when the installation sets ALLOW_REGISTRATION=true, or with `invitationToken`: a pending invitation's token for this e-mail creates the account whatever ALLOW_REGISTRATION says and joins the invitation's cluster with its role. Answers the new user and a token pair.
         */
        post: operations["registerAlias"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/steam": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign in with Steam
         * @description Redirects to Steam (OpenID 2.0). With a bearer token, the Steam account is linked to that user instead. From an invitation, use `POST /auth/steam/start`.
         */
        get: operations["signInWithSteamAlias"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/steam/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Steam sign-in callback
         * @description Where Steam sends the user back. The assertion is confirmed with Steam (check_authentication) before it is trusted.
         */
        get: operations["steamSignInCallbackAlias"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/steam/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a Steam sign-in (from an invitation)
         * @description Answers the Steam sign-in page to send the browser to (and sets the flow's cookie), as `GET /auth/steam` redirects there. With `invitation` (a pending invitation's token) the account joins that cluster with its role (a member already just signs in), and is created if needed whatever ALLOW_REGISTRATION says; the invitation must still be pending when the provider sends the user back.
         */
        post: operations["startSteamSignInAlias"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A script or style sheet of the dashboard
         * @description Named by its content’s hash: cached for a year. Compressed with Brotli or gzip when the request accepts it.
         */
        get: operations["getDashboardAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process is up */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Invitation page (the link of an invitation) */
        get: operations["getInvitationPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics (with METRICS_TOKEN)
         * @description Request counts and latency histograms per route, process metrics, and the domain (servers by status, players online, machines online, jobs created and ended with their latency, events, console lines, webhook deliveries; docs/operations.md), in the Prometheus text format. Served on the API port only when the installation sets METRICS_TOKEN, to `Authorization: Bearer <METRICS_TOKEN>`; otherwise 404 here, and scraped from the metrics listener (METRICS_LISTEN, default 127.0.0.1:9464).
         */
        get: operations["getPrometheusMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pages/onboarding.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Script of the invitation and password reset pages */
        get: operations["getOnboardingScript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: database reachable, migrations current, Redis answering when configured and this process serves the API
         * @description Answers 503 with `details` naming each failing dependency, or `shutdown` from the moment the process is told to stop (SIGTERM; for SHUTDOWN_READY_DELAY_MS before it stops accepting connections).
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Password reset page (the link of a reset e-mail) */
        get: operations["getPasswordResetPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @example {
         *       "agentToken": "gsm_agent_0123456789abcdefghijABCDEFGHIJklmnopqrstuvw",
         *       "connect": {
         *         "url": "https://panel.example.org",
         *         "path": "/ws"
         *       },
         *       "install": {
         *         "command": "command -v sha256sum >/dev/null 2>&1 || { echo 'gsm-agent: error: sha256sum is required (GNU coreutils) to check what this line downloads; nothing was run' >&2; false; } && printf '%s\\n' 'gsm_install_0123456789abcdefghijABCDEFGHIJklmnopqrstuvw' | $([ \"$(id -u)\" = 0 ] || echo sudo) sh -c 'D=\"$(mktemp -d /tmp/gsm.XXXXXX)\" || exit 1; trap \"rm -rf $D\" EXIT; trap \"exit 1\" HUP INT TERM; curl --proto =https --proto-redir =https -fsSL \"$1/agent/install.sh\" -o \"$D/install.sh\" || exit 1; if [ \"$(sha256sum < \"$D/install.sh\" | cut -d\" \" -f1)\" != \"$2\" ]; then echo \"gsm-agent: error: the downloaded install script does not match the SHA-256 in this line; nothing was run\" >&2; exit 1; fi; sh \"$D/install.sh\" --url \"$1\" --package-sha256 \"$3\"' gsm-install 'https://panel.example.org' '3f1d0c5e8a9b7c6d5e4f30211a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d' '9c2e4b6a8d0f1e3c5a7b9d1f3e5c7a9b1d3f5e7c9a1b3d5f7e9c1a3b5d7f9e1c'",
         *         "upgradeCommand": "command -v sha256sum >/dev/null 2>&1 || { echo 'gsm-agent: error: sha256sum is required (GNU coreutils) to check what this line downloads; nothing was run' >&2; false; } && $([ \"$(id -u)\" = 0 ] || echo sudo) sh -c 'D=\"$(mktemp -d /tmp/gsm.XXXXXX)\" || exit 1; trap \"rm -rf $D\" EXIT; trap \"exit 1\" HUP INT TERM; curl --proto =https --proto-redir =https -fsSL \"$1/agent/install.sh\" -o \"$D/install.sh\" || exit 1; if [ \"$(sha256sum < \"$D/install.sh\" | cut -d\" \" -f1)\" != \"$2\" ]; then echo \"gsm-agent: error: the downloaded install script does not match the SHA-256 in this line; nothing was run\" >&2; exit 1; fi; sh \"$D/install.sh\" --url \"$1\" --package-sha256 \"$3\" --upgrade' gsm-install 'https://panel.example.org' '3f1d0c5e8a9b7c6d5e4f30211a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d' '9c2e4b6a8d0f1e3c5a7b9d1f3e5c7a9b1d3f5e7c9a1b3d5f7e9c1a3b5d7f9e1c' </dev/null",
         *         "expiresAt": "2026-10-01T19:30:00.000Z"
         *       }
         *     }
         */
        AgentTokenRotated: {
            agentToken: string;
            connect: {
                /** @description Gateway path (also served at /agent/ws and /ws/agent). */
                path: string;
                /** @description Origin of the agent gateway. */
                url: string;
            };
            install: {
                /** @description One line to paste on the machine (Linux, Node.js 20+, `sha256sum`, as root or a sudoer): in one root shell (sudo only when not root) it downloads the install script into a fresh root-owned `mktemp -d /tmp/gsm.XXXXXX` directory, runs it only if its SHA-256 is the one in the line, and the script installs the agent package only if its SHA-256 is the one in the line too. A single-use registration code travels on standard input; the installer exchanges it for the agent token (`POST /agent/register`) before replacing anything, writes the configuration (mode 0600) and starts the agent as a systemd service. The code works once, until `expiresAt`. */
                command: string;
                /**
                 * Format: date-time
                 * @description When the line's registration code stops working (one hour after it was made).
                 */
                expiresAt: string;
                /** @description The line that upgrades an installed agent to this service's package, checked the same way (no code: it keeps the machine's token). */
                upgradeCommand: string;
            };
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000044",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "state": "RUNNING",
         *       "version": "0.2.0",
         *       "packageSha256": "9c2e4b6a8d0f1e3c5a7b9d1f3e5c7a9b1d3f5e7c9a1b3d5f7e9c1a3b5d7f9e1c",
         *       "batchSize": 1,
         *       "timeoutSeconds": 300,
         *       "reason": null,
         *       "createdBy": "Alex",
         *       "machines": [
         *         {
         *           "machineId": "01a20f00-0000-7000-8000-000000000003",
         *           "name": "fra-1",
         *           "state": "SUCCEEDED",
         *           "fromVersion": "0.1.0",
         *           "toVersion": "0.2.0",
         *           "servers": 3,
         *           "reason": null,
         *           "startedAt": "2026-09-30T12:00:00.000Z",
         *           "finishedAt": "2026-09-30T12:00:21.000Z"
         *         },
         *         {
         *           "machineId": "01a20f00-0000-7000-8000-000000000045",
         *           "name": "fra-2",
         *           "state": "UPGRADING",
         *           "fromVersion": "0.1.0",
         *           "toVersion": null,
         *           "servers": 2,
         *           "reason": null,
         *           "startedAt": "2026-09-30T12:00:22.000Z",
         *           "finishedAt": null
         *         }
         *       ],
         *       "createdAt": "2026-09-30T11:59:59.000Z",
         *       "updatedAt": "2026-09-30T11:59:59.000Z",
         *       "finishedAt": null
         *     }
         */
        AgentUpgrade: {
            batchSize: number;
            clusterId: string;
            /** Format: date-time */
            createdAt: string;
            createdBy: string | null;
            finishedAt: string | null;
            id: string;
            machines: {
                finishedAt: string | null;
                /** @description The agent version it ran when its upgrade started. */
                fromVersion: string | null;
                machineId: string;
                name: string;
                /** @description Why it failed, was skipped or cancelled. */
                reason: string | null;
                /** @description Servers that were RUNNING when its upgrade started (each must be RUNNING again). */
                servers: number;
                startedAt: string | null;
                /** @enum {string} */
                state: "PENDING" | "UPGRADING" | "SUCCEEDED" | "FAILED" | "SKIPPED" | "CANCELLED";
                /** @description The agent version it came back with. */
                toVersion: string | null;
            }[];
            /** @description The SHA-256 of the package each agent downloads and checks. */
            packageSha256: string;
            /** @description Why the roll failed or was cancelled. */
            reason: string | null;
            /** @enum {string} */
            state: "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
            timeoutSeconds: number;
            /** Format: date-time */
            updatedAt: string;
            /** @description The agent version the machines are upgraded to (the service's package). */
            version: string;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000010",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "actor": {
         *         "kind": "USER",
         *         "id": "01a20f00-0000-7000-8000-000000000002",
         *         "name": "Alex"
         *       },
         *       "action": "server.restart",
         *       "target": {
         *         "type": "server",
         *         "id": "01a20f00-0000-7000-8000-000000000004",
         *         "name": "EU Main"
         *       },
         *       "ip": "203.0.113.7",
         *       "requestId": "b7c9e2a4-5f0d-4a51-9c1e-2f3a4b5c6d7e",
         *       "at": "2026-11-24T03:00:00.000Z"
         *     }
         */
        AuditEntry: {
            action: string;
            actor: {
                id: string | null;
                /** @enum {string} */
                kind: "USER" | "TOKEN" | "TASK" | "SYSTEM" | "ANONYMOUS";
                name: string | null;
            };
            /** Format: date-time */
            at: string;
            clusterId: string | null;
            /** @description What a change touched beyond its target: a file change its `path`, `size`, `to` … */
            details?: {
                [key: string]: unknown;
            };
            id: string;
            ip: string | null;
            requestId: string | null;
            target: {
                id: string | null;
                /** @description What the target is called today (a server's, machine's, task's or backup's name, a player's username, a banned player's username, a user's display name, an invitation's e-mail, a webhook's description); null when it has none or no longer exists */
                name: string | null;
                type: string;
            };
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000009",
         *       "serverId": "01a20f00-0000-7000-8000-000000000004",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "jobId": "01a20f00-0000-7000-8000-000000000005",
         *       "name": "nightly backup 2026-11-24 03:00 UTC",
         *       "status": "COMPLETED",
         *       "sizeBytes": 2147483648,
         *       "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
         *       "consistent": true,
         *       "location": "LOCAL",
         *       "error": null,
         *       "createdAt": "2026-11-24T03:00:00.000Z",
         *       "completedAt": "2026-11-24T03:00:04.250Z"
         *     }
         */
        Backup: {
            clusterId: string;
            completedAt: string | null;
            /** @description true: the server was stopped, or (MINECRAFT) flushed with saving paused while archived; false: archived while the game was writing. */
            consistent: boolean | null;
            /** Format: date-time */
            createdAt: string;
            /** @description Why it failed. */
            error: {
                code: string;
                message: string;
            } | null;
            id: string;
            /** @description The BACKUP job that makes it. */
            jobId: string;
            /** @description LOCAL: on the machine; S3: in the machine's S3-compatible storage. */
            location: ("LOCAL" | "S3") | null;
            name: string;
            serverId: string;
            /** @description SHA-256 of the archive (hex), checked again when it is restored. */
            sha256: string | null;
            /** @description Size of the archive (tar.gz), once completed. */
            sizeBytes: number | null;
            /** @enum {string} */
            status: "PENDING" | "COMPLETED" | "FAILED";
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000007",
         *       "playerId": "01a20f00-0000-7000-8000-000000000006",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "serverId": null,
         *       "reason": "Cheating (aimbot)",
         *       "clusterWide": true,
         *       "expiresAt": null,
         *       "createdBy": "01a20f00-0000-7000-8000-000000000002",
         *       "createdAt": "2026-11-24T03:00:00.000Z",
         *       "revokedAt": null,
         *       "active": true,
         *       "player": {
         *         "id": "01a20f00-0000-7000-8000-000000000006",
         *         "username": "RustLord",
         *         "steamId": "76561198000000042"
         *       },
         *       "serverName": null
         *     }
         */
        Ban: {
            /** @description Not revoked and not expired */
            active: boolean;
            clusterId: string;
            clusterWide: boolean;
            /** Format: date-time */
            createdAt: string;
            /** @description User id */
            createdBy: string;
            /** @description Null: permanent */
            expiresAt: string | null;
            id: string;
            /** @description The banned player as people know it (its id is also `playerId`) */
            player: {
                id: string;
                steamId: string | null;
                username: string;
            };
            playerId: string;
            reason: string;
            revokedAt: string | null;
            serverId: string | null;
            /** @description The name of the ban's server (`serverId`); null for a cluster-wide ban */
            serverName: string | null;
        };
        /**
         * @example {
         *       "success": true,
         *       "ban": {
         *         "id": "01a20f00-0000-7000-8000-000000000007",
         *         "playerId": "01a20f00-0000-7000-8000-000000000006",
         *         "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *         "serverId": null,
         *         "reason": "Cheating (aimbot)",
         *         "clusterWide": true,
         *         "expiresAt": null,
         *         "createdBy": "01a20f00-0000-7000-8000-000000000002",
         *         "createdAt": "2026-11-24T03:00:00.000Z",
         *         "revokedAt": null,
         *         "active": true,
         *         "player": {
         *           "id": "01a20f00-0000-7000-8000-000000000006",
         *           "username": "RustLord",
         *           "steamId": "76561198000000042"
         *         },
         *         "serverName": null
         *       },
         *       "jobIds": [
         *         "01a20f00-0000-7000-8000-000000000005"
         *       ]
         *     }
         */
        BanAnswer: {
            ban: components["schemas"]["Ban"];
            jobIds: string[];
            success: boolean;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000001",
         *       "name": "EU Community",
         *       "description": "Our European servers",
         *       "role": "OWNER",
         *       "counts": {
         *         "machines": 1,
         *         "servers": 3,
         *         "members": 4
         *       },
         *       "fileDenyList": [
         *         "*.key",
         *         "secrets/"
         *       ],
         *       "createdAt": "2026-10-01T18:30:00.000Z",
         *       "updatedAt": "2026-11-24T03:00:00.000Z"
         *     }
         */
        Cluster: {
            counts: {
                machines: number;
                members: number;
                servers: number;
            };
            /** Format: date-time */
            createdAt: string;
            description: string | null;
            /** @description The default file deny list (gitignore-style patterns) of the cluster's servers whose template has none (docs/files.md#the-deny-list). */
            fileDenyList: string[];
            id: string;
            name: string;
            /**
             * @description The caller's role in this cluster.
             * @enum {string}
             */
            role: "OWNER" | "ADMIN" | "MODERATOR" | "VIEWER";
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "step": "1h",
         *       "from": "2026-11-23T03:00:00.000Z",
         *       "to": "2026-11-24T03:00:00.000Z",
         *       "points": [
         *         {
         *           "at": "2026-11-24T02:00:00.000Z",
         *           "playersOnline": {
         *             "avg": 96.5,
         *             "max": 112
         *           }
         *         }
         *       ]
         *     }
         */
        ClusterPlayersOnline: {
            /** Format: date-time */
            from: string;
            points: {
                /** Format: date-time */
                at: string;
                playersOnline: {
                    avg: number;
                    max: number;
                };
            }[];
            /** @enum {string} */
            step: "1m" | "5m" | "15m" | "1h" | "6h" | "1d";
            /** Format: date-time */
            to: string;
        };
        /**
         * @example {
         *       "serverId": "01a20f00-0000-7000-8000-000000000004",
         *       "lines": [
         *         {
         *           "at": "2026-11-24T03:00:00.000Z",
         *           "line": "Saving complete",
         *           "seq": 1795000000000000
         *         }
         *       ],
         *       "seq": 1795000000000000,
         *       "gap": false
         *     }
         */
        Console: {
            /** @description With `after`: lines after it are no longer kept (the history holds the last 1,000), so some were missed */
            gap: boolean;
            lines: components["schemas"]["ConsoleLine"][];
            /** @description The sequence of the last line answered (null: none): resume after it (`after`, `/live` subscribe `after`) */
            seq: number | null;
            serverId: string;
        };
        /**
         * @example {
         *       "at": "2026-11-24T03:00:00.000Z",
         *       "line": "[12:00:00] [Server thread/INFO]: Done (4.2s)!",
         *       "seq": 1795000000000000
         *     }
         */
        ConsoleLine: {
            at: string;
            line: string;
            /** @description The line’s sequence: per server, larger than every earlier line’s */
            seq: number;
        };
        /**
         * @description Every error answer has this body.
         * @example {
         *       "statusCode": 404,
         *       "message": "Server not found",
         *       "error": "Not Found"
         *     }
         */
        Error: {
            details?: {
                field: string;
                message: string;
            }[];
            error: string;
            message: string;
            retryAfter?: number;
            statusCode: number;
        };
        /**
         * @example {
         *       "id": "0000000000001234",
         *       "type": "server.status",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "at": "2026-11-24T03:00:00.000Z",
         *       "data": {
         *         "serverId": "01a20f00-0000-7000-8000-000000000004",
         *         "status": "CRASHED",
         *         "previous": "ONLINE",
         *         "reason": "exited with code 1",
         *         "exitCode": 1
         *       }
         *     }
         */
        Event: {
            /** Format: date-time */
            at: string;
            clusterId: string;
            data: {
                [key: string]: unknown;
            };
            /** @description Cursor: sorts as a string in the order events must be read */
            id: string;
            type: string;
        };
        /**
         * @example {
         *       "from": "01a20f00-0000-7000-8000-000000000020",
         *       "to": "current",
         *       "diff": "--- a/server.properties\n+++ b/server.properties\n@@ -1,1 +1,1 @@\n-motd=Hi\n+motd=Welcome\n"
         *     }
         */
        FileDiff: {
            diff: string;
            from: string;
            to: string;
        };
        /**
         * @example {
         *       "name": "server.properties",
         *       "type": "file",
         *       "size": 1184,
         *       "mode": 420,
         *       "modifiedAt": "2026-11-24T03:00:00.000Z",
         *       "etag": "\"7qz1-wg-1a2b3c4d5e6f\""
         *     }
         */
        FileEntry: {
            /** @description A regular file's version, for If-Match */
            etag?: string;
            /** @description The name on disk is not valid UTF-8: `name` shows each byte that is not as `\xHH`; such an entry can be renamed and deleted by that name */
            invalidName?: boolean;
            /** @description A symbolic link's target as written (never followed by a listing) */
            linkTarget?: string;
            /** @description Permission bits (0–0777, and setuid/setgid/sticky as found) */
            mode: number;
            modifiedAt: string;
            name: string;
            size: number;
            /** @enum {string} */
            type: "file" | "directory" | "symlink" | "other";
        };
        /**
         * @example {
         *       "path": "/",
         *       "entries": [
         *         {
         *           "name": "server.properties",
         *           "type": "file",
         *           "size": 1184,
         *           "mode": 420,
         *           "modifiedAt": "2026-11-24T03:00:00.000Z",
         *           "etag": "\"7qz1-wg-1a2b3c4d5e6f\""
         *         },
         *         {
         *           "name": "world",
         *           "type": "directory",
         *           "size": 4096,
         *           "mode": 493,
         *           "modifiedAt": "2026-11-24T03:00:00.000Z"
         *         }
         *       ],
         *       "total": 2,
         *       "next": null
         *     }
         */
        FileList: {
            entries: components["schemas"]["FileEntry"][];
            next: string | null;
            path: string;
            total: number;
        };
        /**
         * @example {
         *       "matches": [
         *         {
         *           "path": "/server.properties",
         *           "type": "file",
         *           "size": 1184,
         *           "line": 12,
         *           "text": "motd=Welcome"
         *         }
         *       ],
         *       "scannedFiles": 214,
         *       "scannedBytes": 1048576,
         *       "stoppedEarly": null
         *     }
         */
        FileSearchResult: {
            matches: {
                line?: number;
                path: string;
                size: number;
                text?: string;
                type: string;
            }[];
            scannedBytes: number;
            scannedFiles: number;
            /** @description Which bound stopped the search before it was complete */
            stoppedEarly: ("depth" | "files" | "bytes" | "results" | "time") | null;
        };
        /**
         * @example {
         *       "path": "/server.properties",
         *       "content": "motd=Welcome\nmax-players=20\n",
         *       "size": 29,
         *       "etag": "\"7qz1-t-1a2b3c4d5e6f\"",
         *       "modifiedAt": "2026-11-24T03:00:00.000Z"
         *     }
         */
        FileText: {
            content: string;
            etag: string;
            modifiedAt: string;
            path: string;
            size: number;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000030",
         *       "path": "/world.zip",
         *       "size": 524288000,
         *       "offset": 134217728,
         *       "complete": false,
         *       "expiresAt": "2026-11-24T03:00:00.000Z",
         *       "entry": null
         *     }
         */
        FileUpload: {
            complete: boolean;
            /** @description The written file, once complete */
            entry: components["schemas"]["FileEntry"] | null;
            expiresAt: string;
            id: string;
            /** @description Bytes received so far: the next PATCH sends from here */
            offset: number;
            path: string;
            size: number;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000020",
         *       "path": "server.properties",
         *       "size": 1184,
         *       "sha256": "b5bb9d8014a0f9b1d61e21e796d78dccdf1352f23cd32812f4850b878ae4944c",
         *       "via": "api",
         *       "actor": {
         *         "kind": "USER",
         *         "id": "01a20f00-0000-7000-8000-000000000002",
         *         "name": "Alex"
         *       },
         *       "createdAt": "2026-11-24T03:00:00.000Z"
         *     }
         */
        FileVersion: {
            actor: {
                id: string | null;
                kind: string;
                name: string | null;
            };
            createdAt: string;
            id: string;
            path: string;
            sha256: string;
            size: number;
            /** @enum {string} */
            via: "api" | "sftp" | "restore";
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000020",
         *       "path": "server.properties",
         *       "size": 1184,
         *       "sha256": "b5bb9d8014a0f9b1d61e21e796d78dccdf1352f23cd32812f4850b878ae4944c",
         *       "via": "api",
         *       "actor": {
         *         "kind": "USER",
         *         "id": "01a20f00-0000-7000-8000-000000000002",
         *         "name": "Alex"
         *       },
         *       "createdAt": "2026-11-24T03:00:00.000Z",
         *       "content": "motd=Welcome\nmax-players=20\n"
         *     }
         */
        FileVersionContent: {
            actor: {
                id: string | null;
                kind: string;
                name: string | null;
            };
            content: string;
            createdAt: string;
            id: string;
            path: string;
            sha256: string;
            size: number;
            /** @enum {string} */
            via: "api" | "sftp" | "restore";
        };
        /**
         * @example {
         *       "entry": {
         *         "name": "server.properties",
         *         "type": "file",
         *         "size": 1184,
         *         "mode": 420,
         *         "modifiedAt": "2026-11-24T03:00:00.000Z",
         *         "etag": "\"7qz1-wg-1a2b3c4d5e6f\""
         *       },
         *       "size": 1184,
         *       "versionId": "01a20f00-0000-7000-8000-000000000020"
         *     }
         */
        FileWriteResult: {
            entry: components["schemas"]["FileEntry"];
            size: number;
            /** @description The config history version kept (text files ≤ 1 MiB) */
            versionId: string | null;
        };
        /**
         * @example {
         *       "machineId": "01a20f00-0000-7000-8000-000000000003",
         *       "agentToken": "gsm_agent_0123456789abcdefghijABCDEFGHIJklmnopqrstuvw",
         *       "connect": {
         *         "url": "https://panel.example.org",
         *         "path": "/ws"
         *       }
         *     }
         */
        InstallCodeExchanged: {
            /** @description The agent token (`gsm_agent_…`), answered to this one exchange only. */
            agentToken: string;
            connect: {
                /** @description Gateway path (also served at /agent/ws and /ws/agent). */
                path: string;
                /** @description Origin of the agent gateway. */
                url: string;
            };
            machineId: unknown;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-00000000000c",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "email": "sam@example.org",
         *       "role": "MODERATOR",
         *       "status": "PENDING",
         *       "expiresAt": "2026-12-01T03:00:00.000Z",
         *       "invitedBy": "01a20f00-0000-7000-8000-000000000002",
         *       "createdAt": "2026-11-24T03:00:00.000Z"
         *     }
         */
        Invitation: {
            clusterId: string;
            /** Format: date-time */
            createdAt: string;
            email: string;
            /** Format: date-time */
            expiresAt: string;
            id: string;
            invitedBy: string | null;
            /** @enum {string} */
            role: "OWNER" | "ADMIN" | "MODERATOR" | "VIEWER";
            /** @enum {string} */
            status: "PENDING" | "ACCEPTED" | "REVOKED" | "EXPIRED";
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-00000000000c",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "email": "sam@example.org",
         *       "role": "MODERATOR",
         *       "status": "PENDING",
         *       "expiresAt": "2026-12-01T03:00:00.000Z",
         *       "invitedBy": "01a20f00-0000-7000-8000-000000000002",
         *       "createdAt": "2026-11-24T03:00:00.000Z",
         *       "token": "gsm_invite_…",
         *       "link": "https://panel.example.org/invite#gsm_invite_…",
         *       "emailed": true
         *     }
         */
        InvitationCreated: {
            clusterId: string;
            /** Format: date-time */
            createdAt: string;
            email: string;
            /** @description Whether the link was e-mailed to the invitee (only with SMTP_URL set, and when the SMTP server accepted it). */
            emailed: boolean;
            /** Format: date-time */
            expiresAt: string;
            id: string;
            invitedBy: string | null;
            /** @description The page the invitee opens to create an account (or sign in) and join; it carries the token. Shown only in this answer. */
            link: string;
            /** @enum {string} */
            role: "OWNER" | "ADMIN" | "MODERATOR" | "VIEWER";
            /** @enum {string} */
            status: "PENDING" | "ACCEPTED" | "REVOKED" | "EXPIRED";
            /** @description The secret to accept it with, shown only in this answer. */
            token: string;
        };
        /**
         * @example {
         *       "email": "sam@example.org",
         *       "role": "MODERATOR",
         *       "clusterName": "EU Community",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "status": "PENDING",
         *       "expiresAt": "2026-12-01T03:00:00.000Z"
         *     }
         */
        InvitationPreview: {
            /** @description The cluster joined (the invitation page opens it in the dashboard once joined) */
            clusterId: string;
            clusterName: string;
            email: string;
            /** Format: date-time */
            expiresAt: string;
            /** @enum {string} */
            role: "OWNER" | "ADMIN" | "MODERATOR" | "VIEWER";
            /** @enum {string} */
            status: "PENDING" | "ACCEPTED" | "REVOKED" | "EXPIRED";
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000005",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "serverId": "01a20f00-0000-7000-8000-000000000004",
         *       "machineId": "01a20f00-0000-7000-8000-000000000003",
         *       "playerId": null,
         *       "taskId": null,
         *       "type": "RESTART",
         *       "status": "SUCCEEDED",
         *       "params": {},
         *       "result": {
         *         "message": "restarted"
         *       },
         *       "error": null,
         *       "progress": null,
         *       "attempts": 1,
         *       "createdBy": {
         *         "kind": "USER",
         *         "id": "01a20f00-0000-7000-8000-000000000002"
         *       },
         *       "idempotencyKey": null,
         *       "createdAt": "2026-11-24T03:00:00.000Z",
         *       "dispatchedAt": "2026-11-24T03:00:00.000Z",
         *       "startedAt": "2026-11-24T03:00:00.000Z",
         *       "finishedAt": "2026-11-24T03:00:04.250Z",
         *       "expiresAt": "2026-11-24T03:10:00.000Z"
         *     }
         */
        Job: {
            attempts: number;
            clusterId: string;
            /** Format: date-time */
            createdAt: string;
            createdBy: {
                id: string | null;
                /** @enum {string} */
                kind: "USER" | "TOKEN" | "TASK" | "SYSTEM";
            };
            dispatchedAt: string | null;
            error: {
                code: string;
                /** @description The game's last console lines (up to 20), when the game itself failed the job: it crashed or never started. */
                consoleTail?: string[];
                message: string;
            } | null;
            /** Format: date-time */
            expiresAt: string;
            finishedAt: string | null;
            id: string;
            idempotencyKey: string | null;
            machineId: string | null;
            params: {
                [key: string]: unknown;
            };
            playerId: string | null;
            /** @description While it runs, how far it is, from its agent (installs, updates, backups, restores); null before the first report. */
            progress: {
                /** @description A TRANSFER: bytes copied to the target and acknowledged by it. */
                bytesDone?: number;
                /** @description A TRANSFER: bytes to copy (the archive and the backups), once known. */
                bytesTotal?: number | null;
                message: string | null;
                /** @description How far it is (0..100), or null when not known. */
                percent: number | null;
                /** @description A TRANSFER's phase (docs/transfers.md): CHECK_SPACE, STOP, PACK, COPY, SWITCH, START, CLEAN_UP or ROLL_BACK. */
                phase?: string;
            } | null;
            result: {
                [key: string]: unknown;
            } | null;
            serverId: string | null;
            startedAt: string | null;
            /** @enum {string} */
            status: "QUEUED" | "DISPATCHED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED" | "EXPIRED";
            taskId: string | null;
            /** @enum {string} */
            type: "START" | "STOP" | "RESTART" | "KILL" | "RCON" | "KICK" | "BAN" | "UNBAN" | "BROADCAST" | "WIPE" | "TASK_RUN" | "INSTALL" | "UPDATE" | "BACKUP" | "RESTORE" | "FILE_COMPRESS" | "FILE_EXTRACT" | "FILE_PULL" | "TRANSFER";
        };
        /**
         * @example {
         *       "success": true,
         *       "message": "Kick sent",
         *       "jobId": "01a20f00-0000-7000-8000-000000000005",
         *       "status": "QUEUED"
         *     }
         */
        KickAnswer: {
            jobId: string;
            message: string;
            /** @enum {string} */
            status: "QUEUED" | "DISPATCHED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED" | "EXPIRED";
            success: boolean;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000003",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "name": "fra-1",
         *       "status": "ONLINE",
         *       "hostname": "fra-1.example.org",
         *       "os": "Linux 6.1.0-27-amd64",
         *       "agentVersion": "0.1.0",
         *       "upgradeAvailable": true,
         *       "cpuCount": 8,
         *       "memoryBytes": 34359738368,
         *       "metrics": {
         *         "cpuPercent": 23.5,
         *         "memoryUsedBytes": 12884901888,
         *         "diskUsedBytes": 107374182400,
         *         "at": "2026-11-24T03:00:00.000Z"
         *       },
         *       "addresses": [
         *         "203.0.113.10"
         *       ],
         *       "reportedAddresses": [
         *         "203.0.113.10",
         *         "2001:db8::10"
         *       ],
         *       "tools": [
         *         "curl",
         *         "java",
         *         "tar",
         *         "unzip"
         *       ],
         *       "sftp": {
         *         "port": 2022,
         *         "hostKeyFingerprint": "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s"
         *       },
         *       "lastSeenAt": "2026-11-24T03:00:00.000Z",
         *       "createdAt": "2026-10-01T18:30:00.000Z",
         *       "updatedAt": "2026-11-24T03:00:00.000Z"
         *     }
         */
        Machine: {
            /** @description The addresses its operators gave it (docs/servers.md#ports-and-allocations). */
            addresses: string[];
            /** @description The version its agent reported when it last connected. */
            agentVersion: string | null;
            clusterId: string;
            cpuCount: number | null;
            /** Format: date-time */
            createdAt: string;
            hostname: string | null;
            id: string;
            lastSeenAt: string | null;
            memoryBytes: number | null;
            metrics: {
                /** Format: date-time */
                at: string;
                cpuPercent: number;
                diskUsedBytes: number;
                memoryUsedBytes: number;
            } | null;
            name: string;
            os: string | null;
            /** @description The addresses its agent reported (its network interfaces, loopback aside). */
            reportedAddresses: string[];
            /** @description The SFTP service of the machine's agent (docs/sftp.md); null until the agent reported it. */
            sftp: {
                /** @description SHA256 fingerprint of the agent's ED25519 host key, to compare with what `sftp` shows on the first connection. */
                hostKeyFingerprint: string | null;
                /** @description The agent's SFTP port (default 2022); connect with `sftp -P <port> <handle>.<server short id>@<machine address>`. */
                port: number;
            } | null;
            /** @enum {string} */
            status: "ONLINE" | "OFFLINE";
            /** @description The programs its agent found on its PATH (of those templates' installs use); null: not reported yet. */
            tools?: string[] | null;
            /** Format: date-time */
            updatedAt: string;
            /** @description Whether its agent is older than the service's agent package (`GET /agent/package.tgz`): `POST /api/v1/clusters/{clusterId}/machines/upgrade` upgrades it. */
            upgradeAvailable: boolean;
        };
        /**
         * @description A port of the machine and the server holding it.
         * @example {
         *       "name": "game",
         *       "port": 28015,
         *       "protocol": "UDP",
         *       "serverId": "01936f0e-0000-7000-8000-000000000002",
         *       "serverName": "EU #1"
         *     }
         */
        MachineAllocation: {
            /** @description `game`, `query`, `rcon`, or an extra its game asks for (e.g. Rust’s `app`). */
            name: string;
            port: number;
            /** @enum {string} */
            protocol: "TCP" | "UDP" | "BOTH";
            serverId: string;
            serverName: string;
        };
        /**
         * @example {
         *       "addresses": [
         *         "203.0.113.10"
         *       ],
         *       "reportedAddresses": [
         *         "203.0.113.10",
         *         "2001:db8::10"
         *       ],
         *       "ranges": [
         *         {
         *           "id": "01936f0e-0000-7000-8000-000000000001",
         *           "firstPort": 28000,
         *           "lastPort": 28999,
         *           "createdAt": "2026-11-24T03:00:00.000Z"
         *         }
         *       ],
         *       "allocations": [
         *         {
         *           "name": "game",
         *           "port": 28015,
         *           "protocol": "UDP",
         *           "serverId": "01936f0e-0000-7000-8000-000000000002",
         *           "serverName": "EU #1"
         *         },
         *         {
         *           "name": "query",
         *           "port": 28016,
         *           "protocol": "UDP",
         *           "serverId": "01936f0e-0000-7000-8000-000000000002",
         *           "serverName": "EU #1"
         *         }
         *       ],
         *       "freePorts": 998
         *     }
         */
        MachineAllocations: {
            addresses: string[];
            /** @description Every port a server holds on this machine, by port. */
            allocations: components["schemas"]["MachineAllocation"][];
            /** @description Ports of the ranges no server holds (0 without ranges). */
            freePorts: number;
            ranges: components["schemas"]["PortRange"][];
            reportedAddresses: string[];
        };
        /**
         * @example {
         *       "connect": {
         *         "url": "https://panel.example.org",
         *         "path": "/ws"
         *       },
         *       "install": {
         *         "command": "command -v sha256sum >/dev/null 2>&1 || { echo 'gsm-agent: error: sha256sum is required (GNU coreutils) to check what this line downloads; nothing was run' >&2; false; } && printf '%s\\n' 'gsm_install_0123456789abcdefghijABCDEFGHIJklmnopqrstuvw' | $([ \"$(id -u)\" = 0 ] || echo sudo) sh -c 'D=\"$(mktemp -d /tmp/gsm.XXXXXX)\" || exit 1; trap \"rm -rf $D\" EXIT; trap \"exit 1\" HUP INT TERM; curl --proto =https --proto-redir =https -fsSL \"$1/agent/install.sh\" -o \"$D/install.sh\" || exit 1; if [ \"$(sha256sum < \"$D/install.sh\" | cut -d\" \" -f1)\" != \"$2\" ]; then echo \"gsm-agent: error: the downloaded install script does not match the SHA-256 in this line; nothing was run\" >&2; exit 1; fi; sh \"$D/install.sh\" --url \"$1\" --package-sha256 \"$3\"' gsm-install 'https://panel.example.org' '3f1d0c5e8a9b7c6d5e4f30211a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d' '9c2e4b6a8d0f1e3c5a7b9d1f3e5c7a9b1d3f5e7c9a1b3d5f7e9c1a3b5d7f9e1c'",
         *         "upgradeCommand": "command -v sha256sum >/dev/null 2>&1 || { echo 'gsm-agent: error: sha256sum is required (GNU coreutils) to check what this line downloads; nothing was run' >&2; false; } && $([ \"$(id -u)\" = 0 ] || echo sudo) sh -c 'D=\"$(mktemp -d /tmp/gsm.XXXXXX)\" || exit 1; trap \"rm -rf $D\" EXIT; trap \"exit 1\" HUP INT TERM; curl --proto =https --proto-redir =https -fsSL \"$1/agent/install.sh\" -o \"$D/install.sh\" || exit 1; if [ \"$(sha256sum < \"$D/install.sh\" | cut -d\" \" -f1)\" != \"$2\" ]; then echo \"gsm-agent: error: the downloaded install script does not match the SHA-256 in this line; nothing was run\" >&2; exit 1; fi; sh \"$D/install.sh\" --url \"$1\" --package-sha256 \"$3\" --upgrade' gsm-install 'https://panel.example.org' '3f1d0c5e8a9b7c6d5e4f30211a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d' '9c2e4b6a8d0f1e3c5a7b9d1f3e5c7a9b1d3f5e7c9a1b3d5f7e9c1a3b5d7f9e1c' </dev/null",
         *         "expiresAt": "2026-10-01T19:30:00.000Z"
         *       }
         *     }
         */
        MachineInstallCode: {
            connect: {
                /** @description Gateway path (also served at /agent/ws and /ws/agent). */
                path: string;
                /** @description Origin of the agent gateway. */
                url: string;
            };
            install: {
                /** @description One line to paste on the machine (Linux, Node.js 20+, `sha256sum`, as root or a sudoer): in one root shell (sudo only when not root) it downloads the install script into a fresh root-owned `mktemp -d /tmp/gsm.XXXXXX` directory, runs it only if its SHA-256 is the one in the line, and the script installs the agent package only if its SHA-256 is the one in the line too. A single-use registration code travels on standard input; the installer exchanges it for the agent token (`POST /agent/register`) before replacing anything, writes the configuration (mode 0600) and starts the agent as a systemd service. The code works once, until `expiresAt`. */
                command: string;
                /**
                 * Format: date-time
                 * @description When the line's registration code stops working (one hour after it was made).
                 */
                expiresAt: string;
                /** @description The line that upgrades an installed agent to this service's package, checked the same way (no code: it keeps the machine's token). */
                upgradeCommand: string;
            };
        };
        /**
         * @example {
         *       "step": "1h",
         *       "from": "2026-11-23T03:00:00.000Z",
         *       "to": "2026-11-24T03:00:00.000Z",
         *       "points": [
         *         {
         *           "at": "2026-11-24T02:00:00.000Z",
         *           "cpuPercent": {
         *             "avg": 21.7,
         *             "max": 48.3
         *           },
         *           "memoryBytes": {
         *             "avg": 12500000000,
         *             "max": 13000000000
         *           },
         *           "diskUsedBytes": {
         *             "avg": 107374182400,
         *             "max": 107374182400
         *           }
         *         }
         *       ]
         *     }
         */
        MachineMetricsHistory: {
            /** Format: date-time */
            from: string;
            points: {
                /** Format: date-time */
                at: string;
                cpuPercent: {
                    avg: number;
                    max: number;
                };
                diskUsedBytes: {
                    avg: number;
                    max: number;
                };
                memoryBytes: {
                    avg: number;
                    max: number;
                };
            }[];
            /** @enum {string} */
            step: "1m" | "5m" | "15m" | "1h" | "6h" | "1d";
            /** Format: date-time */
            to: string;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000003",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "name": "fra-1",
         *       "status": "OFFLINE",
         *       "hostname": null,
         *       "os": null,
         *       "agentVersion": null,
         *       "upgradeAvailable": false,
         *       "cpuCount": null,
         *       "memoryBytes": null,
         *       "metrics": null,
         *       "addresses": [],
         *       "reportedAddresses": [],
         *       "tools": [
         *         "curl",
         *         "java",
         *         "tar",
         *         "unzip"
         *       ],
         *       "sftp": null,
         *       "lastSeenAt": null,
         *       "createdAt": "2026-10-01T18:30:00.000Z",
         *       "updatedAt": "2026-11-24T03:00:00.000Z",
         *       "agentToken": "gsm_agent_0123456789abcdefghijABCDEFGHIJklmnopqrstuvw",
         *       "connect": {
         *         "url": "https://panel.example.org",
         *         "path": "/ws"
         *       },
         *       "install": {
         *         "command": "command -v sha256sum >/dev/null 2>&1 || { echo 'gsm-agent: error: sha256sum is required (GNU coreutils) to check what this line downloads; nothing was run' >&2; false; } && printf '%s\\n' 'gsm_install_0123456789abcdefghijABCDEFGHIJklmnopqrstuvw' | $([ \"$(id -u)\" = 0 ] || echo sudo) sh -c 'D=\"$(mktemp -d /tmp/gsm.XXXXXX)\" || exit 1; trap \"rm -rf $D\" EXIT; trap \"exit 1\" HUP INT TERM; curl --proto =https --proto-redir =https -fsSL \"$1/agent/install.sh\" -o \"$D/install.sh\" || exit 1; if [ \"$(sha256sum < \"$D/install.sh\" | cut -d\" \" -f1)\" != \"$2\" ]; then echo \"gsm-agent: error: the downloaded install script does not match the SHA-256 in this line; nothing was run\" >&2; exit 1; fi; sh \"$D/install.sh\" --url \"$1\" --package-sha256 \"$3\"' gsm-install 'https://panel.example.org' '3f1d0c5e8a9b7c6d5e4f30211a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d' '9c2e4b6a8d0f1e3c5a7b9d1f3e5c7a9b1d3f5e7c9a1b3d5f7e9c1a3b5d7f9e1c'",
         *         "upgradeCommand": "command -v sha256sum >/dev/null 2>&1 || { echo 'gsm-agent: error: sha256sum is required (GNU coreutils) to check what this line downloads; nothing was run' >&2; false; } && $([ \"$(id -u)\" = 0 ] || echo sudo) sh -c 'D=\"$(mktemp -d /tmp/gsm.XXXXXX)\" || exit 1; trap \"rm -rf $D\" EXIT; trap \"exit 1\" HUP INT TERM; curl --proto =https --proto-redir =https -fsSL \"$1/agent/install.sh\" -o \"$D/install.sh\" || exit 1; if [ \"$(sha256sum < \"$D/install.sh\" | cut -d\" \" -f1)\" != \"$2\" ]; then echo \"gsm-agent: error: the downloaded install script does not match the SHA-256 in this line; nothing was run\" >&2; exit 1; fi; sh \"$D/install.sh\" --url \"$1\" --package-sha256 \"$3\" --upgrade' gsm-install 'https://panel.example.org' '3f1d0c5e8a9b7c6d5e4f30211a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d' '9c2e4b6a8d0f1e3c5a7b9d1f3e5c7a9b1d3f5e7c9a1b3d5f7e9c1a3b5d7f9e1c' </dev/null",
         *         "expiresAt": "2026-10-01T19:30:00.000Z"
         *       }
         *     }
         */
        MachineRegistered: {
            /** @description The addresses its operators gave it (docs/servers.md#ports-and-allocations). */
            addresses: string[];
            /** @description The agent token, shown only in this answer. */
            agentToken: string;
            /** @description The version its agent reported when it last connected. */
            agentVersion: string | null;
            clusterId: string;
            connect: {
                /** @description Gateway path (also served at /agent/ws and /ws/agent). */
                path: string;
                /** @description Origin of the agent gateway. */
                url: string;
            };
            cpuCount: number | null;
            /** Format: date-time */
            createdAt: string;
            hostname: string | null;
            id: string;
            install: {
                /** @description One line to paste on the machine (Linux, Node.js 20+, `sha256sum`, as root or a sudoer): in one root shell (sudo only when not root) it downloads the install script into a fresh root-owned `mktemp -d /tmp/gsm.XXXXXX` directory, runs it only if its SHA-256 is the one in the line, and the script installs the agent package only if its SHA-256 is the one in the line too. A single-use registration code travels on standard input; the installer exchanges it for the agent token (`POST /agent/register`) before replacing anything, writes the configuration (mode 0600) and starts the agent as a systemd service. The code works once, until `expiresAt`. */
                command: string;
                /**
                 * Format: date-time
                 * @description When the line's registration code stops working (one hour after it was made).
                 */
                expiresAt: string;
                /** @description The line that upgrades an installed agent to this service's package, checked the same way (no code: it keeps the machine's token). */
                upgradeCommand: string;
            };
            lastSeenAt: string | null;
            memoryBytes: number | null;
            metrics: {
                /** Format: date-time */
                at: string;
                cpuPercent: number;
                diskUsedBytes: number;
                memoryUsedBytes: number;
            } | null;
            name: string;
            os: string | null;
            /** @description The addresses its agent reported (its network interfaces, loopback aside). */
            reportedAddresses: string[];
            /** @description The SFTP service of the machine's agent (docs/sftp.md); null until the agent reported it. */
            sftp: {
                /** @description SHA256 fingerprint of the agent's ED25519 host key, to compare with what `sftp` shows on the first connection. */
                hostKeyFingerprint: string | null;
                /** @description The agent's SFTP port (default 2022); connect with `sftp -P <port> <handle>.<server short id>@<machine address>`. */
                port: number;
            } | null;
            /** @enum {string} */
            status: "ONLINE" | "OFFLINE";
            /** @description The programs its agent found on its PATH (of those templates' installs use); null: not reported yet. */
            tools?: string[] | null;
            /** Format: date-time */
            updatedAt: string;
            /** @description Whether its agent is older than the service's agent package (`GET /agent/package.tgz`): `POST /api/v1/clusters/{clusterId}/machines/upgrade` upgrades it. */
            upgradeAvailable: boolean;
        };
        /**
         * @example {
         *       "userId": "01a20f00-0000-7000-8000-000000000002",
         *       "email": "alex@example.org",
         *       "displayName": "Alex",
         *       "role": "OWNER",
         *       "joinedAt": "2026-10-01T18:30:00.000Z"
         *     }
         */
        Member: {
            displayName: string;
            email: string;
            /** Format: date-time */
            joinedAt: string;
            /** @enum {string} */
            role: "OWNER" | "ADMIN" | "MODERATOR" | "VIEWER";
            userId: string;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-00000000000f",
         *       "content": "Warned for spamming chat.",
         *       "createdBy": "01a20f00-0000-7000-8000-000000000002",
         *       "createdAt": "2026-11-24T03:00:00.000Z"
         *     }
         */
        Note: {
            content: string;
            /** Format: date-time */
            createdAt: string;
            createdBy: string;
            id: string;
        };
        /**
         * @example {
         *       "url": "https://steamcommunity.com/openid/login?openid.mode=checkid_setup&…"
         *     }
         */
        OAuthStart: {
            /** @description The provider's sign-in page: send the browser there */
            url: string;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000006",
         *       "username": "RustLord",
         *       "steamId": "76561198000000042",
         *       "joinedAt": "2026-11-24T03:00:00.000Z",
         *       "ping": 38
         *     }
         */
        OnlinePlayer: {
            id: string;
            /** Format: date-time */
            joinedAt: string;
            ping: number | null;
            steamId: string;
            username: string;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000006",
         *       "username": "RustLord",
         *       "steamId": "76561198000000042",
         *       "uuid": null,
         *       "playtime": 86400,
         *       "firstSeen": "2026-10-01T18:30:00.000Z",
         *       "lastSeen": "2026-11-24T03:00:00.000Z",
         *       "online": true,
         *       "currentServer": {
         *         "id": "01a20f00-0000-7000-8000-000000000004",
         *         "name": "EU Main"
         *       },
         *       "flags": [
         *         "vip"
         *       ]
         *     }
         */
        Player: {
            currentServer: {
                id: string;
                name: string;
            } | null;
            /** Format: date-time */
            firstSeen: string;
            flags: string[];
            id: string;
            /** Format: date-time */
            lastSeen: string;
            online: boolean;
            /** @description Seconds played, including the current session */
            playtime: number;
            /** @description Identifier on a game platform (a Minecraft player: its name or UUID) */
            steamId: string;
            username: string;
            uuid: string | null;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000006",
         *       "username": "RustLord",
         *       "steamId": "76561198000000042",
         *       "uuid": null,
         *       "playtime": 86400,
         *       "firstSeen": "2026-10-01T18:30:00.000Z",
         *       "lastSeen": "2026-11-24T03:00:00.000Z",
         *       "online": true,
         *       "currentServer": {
         *         "id": "01a20f00-0000-7000-8000-000000000004",
         *         "name": "EU Main"
         *       },
         *       "flags": [
         *         "vip"
         *       ],
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "discordId": null,
         *       "sessions": [
         *         {
         *           "id": "01a20f00-0000-7000-8000-00000000000d",
         *           "serverId": "01a20f00-0000-7000-8000-000000000004",
         *           "serverName": "EU Main",
         *           "joinedAt": "2026-11-24T03:00:00.000Z",
         *           "leftAt": null,
         *           "duration": 1800
         *         }
         *       ],
         *       "purchases": [
         *         {
         *           "id": "01a20f00-0000-7000-8000-00000000000e",
         *           "productName": "VIP (30 days)",
         *           "amount": 9.99,
         *           "currency": "EUR",
         *           "createdAt": "2026-10-01T18:30:00.000Z"
         *         }
         *       ],
         *       "notes": [
         *         {
         *           "id": "01a20f00-0000-7000-8000-00000000000f",
         *           "content": "Warned for spamming chat.",
         *           "createdBy": "01a20f00-0000-7000-8000-000000000002",
         *           "createdAt": "2026-11-24T03:00:00.000Z"
         *         }
         *       ]
         *     }
         */
        PlayerDetail: {
            clusterId: string;
            currentServer: {
                id: string;
                name: string;
            } | null;
            discordId: string | null;
            /** Format: date-time */
            firstSeen: string;
            flags: string[];
            id: string;
            /** Format: date-time */
            lastSeen: string;
            /** @description Newest first */
            notes: components["schemas"]["Note"][];
            online: boolean;
            /** @description Seconds played, including the current session */
            playtime: number;
            purchases: components["schemas"]["Purchase"][];
            /** @description The newest 100; all of them at /api/v1/players/{id}/sessions */
            sessions: components["schemas"]["Session"][];
            /** @description Identifier on a game platform (a Minecraft player: its name or UUID) */
            steamId: string;
            username: string;
            uuid: string | null;
        };
        /**
         * @example {
         *       "total": 5230,
         *       "active": {
         *         "today": 410,
         *         "week": 1320,
         *         "month": 2650
         *       },
         *       "new": {
         *         "today": 35,
         *         "week": 240,
         *         "month": 810
         *       },
         *       "topPlayers": [
         *         {
         *           "id": "01a20f00-0000-7000-8000-000000000006",
         *           "username": "RustLord",
         *           "playtime": 86400
         *         }
         *       ],
         *       "retention": {
         *         "day1": 0.42,
         *         "day7": 0.21,
         *         "day30": 0.09
         *       }
         *     }
         */
        PlayerStats: {
            /** @description Distinct players with a session overlapping the last 24 h / 7 days / 30 days */
            active: {
                month: number;
                today: number;
                week: number;
            };
            /** @description Players first seen in the window */
            new: {
                month: number;
                today: number;
                week: number;
            };
            /** @description dayN: of players first seen between N+30 and N days ago, the fraction with a session starting at least N days after their first */
            retention: {
                day1: number;
                day7: number;
                day30: number;
            };
            /** @description 10 by playtime */
            topPlayers: {
                id: string;
                playtime: number;
                username: string;
            }[];
            total: number;
        };
        /**
         * @example {
         *       "id": "01936f0e-0000-7000-8000-000000000001",
         *       "firstPort": 27000,
         *       "lastPort": 27999,
         *       "createdAt": "2026-11-24T03:00:00.000Z"
         *     }
         */
        PortRange: {
            /** Format: date-time */
            createdAt: string;
            firstPort: number;
            id: string;
            lastPort: number;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-00000000000e",
         *       "productName": "VIP (30 days)",
         *       "amount": 9.99,
         *       "currency": "EUR",
         *       "createdAt": "2026-10-01T18:30:00.000Z"
         *     }
         */
        Purchase: {
            amount: number;
            /** Format: date-time */
            createdAt: string;
            currency: string;
            id: string;
            productName: string;
        };
        /**
         * @example {
         *       "success": true,
         *       "output": "players : 42 (max 100)",
         *       "jobId": "01a20f00-0000-7000-8000-000000000005",
         *       "status": "SUCCEEDED"
         *     }
         */
        RconAnswer: {
            jobId: string;
            output: string | null;
            /** @enum {string} */
            status: "QUEUED" | "DISPATCHED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED" | "EXPIRED";
            success: boolean;
        };
        /**
         * @example {
         *       "schedule": "0 4 * * *",
         *       "timezone": "Europe/Berlin",
         *       "runs": [
         *         "2026-11-25T03:00:00.000Z",
         *         "2026-11-26T03:00:00.000Z",
         *         "2026-11-27T03:00:00.000Z",
         *         "2026-11-28T03:00:00.000Z",
         *         "2026-11-29T03:00:00.000Z"
         *       ]
         *     }
         */
        SchedulePreview: {
            /** @description The next runs, oldest first (UTC instants; show them in `timezone`). */
            runs: string[];
            schedule: string;
            timezone: string;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000004",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "machineId": "01a20f00-0000-7000-8000-000000000003",
         *       "name": "EU Main",
         *       "gameType": "RUST",
         *       "gamePort": 28015,
         *       "queryPort": 28016,
         *       "rconPort": 28017,
         *       "maxPlayers": 100,
         *       "status": "ONLINE",
         *       "desiredStatus": "RUNNING",
         *       "playersOnline": 42,
         *       "autoRestart": true,
         *       "startCommand": null,
         *       "env": null,
         *       "memoryLimitMb": 12288,
         *       "cpuLimitPercent": 400,
         *       "lastStatusAt": "2026-11-24T03:00:00.000Z",
         *       "statusReason": null,
         *       "lastExitCode": null,
         *       "stats": {
         *         "cpuPercent": 37.5,
         *         "memoryBytes": 6442450944,
         *         "at": "2026-11-24T03:00:00.000Z"
         *       },
         *       "version": null,
         *       "installedVersion": null,
         *       "installedAt": "2026-10-01T18:30:00.000Z",
         *       "osUser": "gsm-5d41402abc4b",
         *       "acceptEula": false,
         *       "installCommand": null,
         *       "backupRetention": 5,
         *       "ready": null,
         *       "consoleMode": null,
         *       "stop": null,
         *       "templateId": "rust",
         *       "templateVersion": 1,
         *       "templateLatestVersion": 1,
         *       "variables": {},
         *       "secretVariables": {},
         *       "ports": [
         *         {
         *           "name": "game",
         *           "port": 28015,
         *           "protocol": "UDP"
         *         },
         *         {
         *           "name": "query",
         *           "port": 28016,
         *           "protocol": "UDP"
         *         },
         *         {
         *           "name": "rcon",
         *           "port": 28017,
         *           "protocol": "TCP"
         *         },
         *         {
         *           "name": "app",
         *           "port": 28082,
         *           "protocol": "TCP"
         *         }
         *       ],
         *       "queryProtocol": null,
         *       "query": {
         *         "protocol": "A2S",
         *         "answering": true,
         *         "players": 2,
         *         "playerNames": [
         *           "Alice",
         *           "Bob"
         *         ],
         *         "maxPlayers": 100,
         *         "map": "Procedural Map",
         *         "version": "2590",
         *         "latencyMs": 0.8,
         *         "failures": 0,
         *         "error": null,
         *         "checkedAt": "2026-11-24T03:00:00.000Z"
         *       },
         *       "unresponsiveAfter": 5,
         *       "restartWhenUnresponsive": false,
         *       "createdAt": "2026-10-01T18:30:00.000Z",
         *       "updatedAt": "2026-11-24T03:00:00.000Z"
         *     }
         */
        Server: {
            /** @description MINECRAFT: you accept Mojang's EULA; the agent writes `eula=true` only then. */
            acceptEula: boolean;
            autoRestart: boolean;
            backupRetention: number;
            clusterId: string;
            /** @description CUSTOM servers: where console commands go. RCON: Source RCON on rconPort; STDIN: the process’s standard input (the answer is the output that follows); NONE: no console (console commands are refused with 409). null: RCON. */
            consoleMode: ("RCON" | "STDIN" | "NONE") | null;
            /** @description CPU limit in percent of one core (150 = one and a half cores); null: no limit. */
            cpuLimitPercent: number | null;
            /** Format: date-time */
            createdAt: string;
            /** @enum {string} */
            desiredStatus: "RUNNING" | "STOPPED";
            env: {
                [key: string]: string;
            } | null;
            gamePort: number;
            /** @enum {string} */
            gameType: "MINECRAFT" | "RUST" | "ARK_SURVIVAL_EVOLVED" | "CS2" | "VALHEIM" | "CUSTOM";
            id: string;
            installCommand: string | null;
            installedAt: string | null;
            /** @description What the last successful INSTALL or UPDATE installed (null: never installed by the agent). */
            installedVersion: string | null;
            /** @description How its process last ended (null: never ended, or ended by a signal). */
            lastExitCode: number | null;
            lastStatusAt: string | null;
            machineId: string;
            maxPlayers: number;
            /** @description Memory limit of the game process in MiB; null: no limit. */
            memoryLimitMb: number | null;
            name: string;
            /** @description The OS account the server runs as on its machine, as its agent reported it (null: not reported yet). */
            osUser: string | null;
            playersOnline: number;
            /** @description The named ports the server holds on its machine (game, query, rcon, extras), by name. */
            ports: components["schemas"]["ServerPort"][];
            /** @description What the latest query found (null: never queried). */
            query: components["schemas"]["ServerQuery"] | null;
            queryPort: number;
            /** @description The server's own query protocol (null: its game's; NONE: never queried). */
            queryProtocol: ("A2S" | "MINECRAFT" | "TCP" | "NONE") | null;
            rconPort: number;
            /**
             * @description CUSTOM servers: when the server counts as ONLINE. LINE: an output line matches `pattern`; PORT: `port` (default gamePort) accepts a TCP connection; RCON: RCON answers on rconPort; IMMEDIATE: as soon as the process runs. null: RCON (the CUSTOM default).
             * @example {
             *       "mode": "LINE",
             *       "pattern": "Server started",
             *       "timeoutSeconds": 120
             *     }
             */
            ready: {
                /** @enum {string} */
                mode: "LINE" | "PORT" | "RCON" | "IMMEDIATE";
                /** @description LINE: a regular expression (JavaScript syntax, run in linear time: no backreferences, lookahead or lookbehind) that an output line (its first 1024 characters) must match, e.g. `Server started`. */
                pattern?: string;
                /** @description PORT: the TCP port on 127.0.0.1 that must accept a connection: one of the server’s own ports (default its gamePort; a UDP-only port never accepts one). */
                port?: number;
                /** @description How long STARTING may last before the server is CRASHED (default 300, at most 420). */
                timeoutSeconds?: number;
            } | null;
            /** @description An UNRESPONSIVE server is restarted by its crash policy. */
            restartWhenUnresponsive: boolean;
            /** @description The secret variables that have a value of their own, each as true (their values are never returned); one not listed has none. */
            secretVariables: {
                [key: string]: boolean;
            };
            startCommand: string | null;
            /** @description The latest CPU and memory sample, while it runs (null before the first one). */
            stats: components["schemas"]["ServerStats"] | null;
            /** @enum {string} */
            status: "INSTALLING" | "INSTALL_FAILED" | "OFFLINE" | "STARTING" | "ONLINE" | "UNRESPONSIVE" | "STOPPING" | "RESTARTING" | "CRASHED" | "UNKNOWN";
            /** @description Why the server is in its status, from its agent: e.g. `command not found: ./RustDedicated`, `exited with code 1`. */
            statusReason: string | null;
            /**
             * @description CUSTOM servers: how a STOP asks the game to exit. COMMAND: `command` on the console; SIGNAL: `signal` to the process. After `graceSeconds` it is killed. null: the RCON command `quit`, then SIGTERM, then SIGKILL.
             * @example {
             *       "mode": "SIGNAL",
             *       "signal": "SIGINT",
             *       "graceSeconds": 20
             *     }
             */
            stop: {
                /** @description COMMAND: sent on the console, e.g. `stop`. */
                command?: string;
                /** @description How long the server may take to exit before SIGTERM (default 30, at most 120); SIGKILL follows 30 s later. */
                graceSeconds?: number;
                /** @enum {string} */
                mode: "COMMAND" | "SIGNAL";
                /** @enum {string} */
                signal?: "SIGINT" | "SIGTERM" | "SIGQUIT" | "SIGHUP" | "SIGUSR1" | "SIGUSR2";
            } | null;
            /** @description Its game template (docs/templates.md): a built-in's id (`rust`) or a cluster template's id; null: none (a CUSTOM server's own command). */
            templateId: string | null;
            /** @description The newest version of its template: its next start runs it (above templateVersion: a newer one is available). */
            templateLatestVersion?: number | null;
            /** @description The version of its template its running process (or its last run) was started with, as its agent reports it (a change applies at its next start). */
            templateVersion: number | null;
            /** @description Failed queries in a row (15 s apart) after which an ONLINE server is UNRESPONSIVE. */
            unresponsiveAfter: number;
            /** Format: date-time */
            updatedAt: string;
            /** @description Its values of the template's variables (secret ones are never shown: see secretVariables). */
            variables: {
                [key: string]: string;
            };
            /** @description The game version an INSTALL or UPDATE installs (null: the latest release). */
            version: string | null;
        };
        /**
         * @example {
         *       "step": "1h",
         *       "from": "2026-11-23T03:00:00.000Z",
         *       "to": "2026-11-24T03:00:00.000Z",
         *       "points": [
         *         {
         *           "at": "2026-11-24T02:00:00.000Z",
         *           "cpuPercent": {
         *             "avg": 35.2,
         *             "max": 61
         *           },
         *           "memoryBytes": {
         *             "avg": 6190000000,
         *             "max": 6442450944
         *           },
         *           "playersOnline": {
         *             "avg": 38.4,
         *             "max": 44
         *           }
         *         }
         *       ]
         *     }
         */
        ServerMetrics: {
            /** Format: date-time */
            from: string;
            points: {
                /** Format: date-time */
                at: string;
                cpuPercent: {
                    avg: number;
                    max: number;
                };
                memoryBytes: {
                    avg: number;
                    max: number;
                };
                playersOnline: {
                    avg: number;
                    max: number;
                };
            }[];
            /** @enum {string} */
            step: "1m" | "5m" | "15m" | "1h" | "6h" | "1d";
            /** Format: date-time */
            to: string;
        };
        /**
         * @example {
         *       "online": 1,
         *       "max": 100,
         *       "players": [
         *         {
         *           "id": "01a20f00-0000-7000-8000-000000000006",
         *           "username": "RustLord",
         *           "steamId": "76561198000000042",
         *           "joinedAt": "2026-11-24T03:00:00.000Z",
         *           "ping": 38
         *         }
         *       ]
         *     }
         */
        ServerPlayers: {
            max: number;
            online: number;
            players: components["schemas"]["OnlinePlayer"][];
        };
        /**
         * @example {
         *       "name": "game",
         *       "port": 28015,
         *       "protocol": "UDP"
         *     }
         */
        ServerPort: {
            /** @description `game`, `query`, `rcon`, or an extra its game asks for (e.g. Rust’s `app`). */
            name: string;
            port: number;
            /** @enum {string} */
            protocol: "TCP" | "UDP" | "BOTH";
        };
        /**
         * @example {
         *       "protocol": "A2S",
         *       "answering": true,
         *       "players": 2,
         *       "playerNames": [
         *         "Alice",
         *         "Bob"
         *       ],
         *       "maxPlayers": 100,
         *       "map": "Procedural Map",
         *       "version": "2590",
         *       "latencyMs": 0.8,
         *       "failures": 0,
         *       "error": null,
         *       "checkedAt": "2026-11-24T03:00:00.000Z"
         *     }
         */
        ServerQuery: {
            answering: boolean;
            /** Format: date-time */
            checkedAt: string;
            /** @description Why the latest query failed. */
            error: string | null;
            /** @description Failed queries in a row (0 while it answers). */
            failures: number;
            latencyMs: number | null;
            map: string | null;
            maxPlayers: number | null;
            /** @description Names of the players online, where the game gives them. */
            playerNames: string[] | null;
            players: number | null;
            /** @enum {string} */
            protocol: "A2S" | "MINECRAFT" | "TCP";
            version: string | null;
        };
        /**
         * @example {
         *       "cpuPercent": 37.5,
         *       "memoryBytes": 2147483648,
         *       "diskBytes": 3221225472,
         *       "at": "2026-11-24T03:00:00.000Z"
         *     }
         */
        ServerStats: {
            /** Format: date-time */
            at: string;
            cpuPercent: number;
            /** @description Bytes the server's directory takes on disk, as last measured by its agent (every 5 minutes by default; absent before the first measurement). */
            diskBytes?: number;
            memoryBytes: number;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-00000000000d",
         *       "serverId": "01a20f00-0000-7000-8000-000000000004",
         *       "serverName": "EU Main",
         *       "joinedAt": "2026-11-24T03:00:00.000Z",
         *       "leftAt": null,
         *       "duration": 1800
         *     }
         */
        Session: {
            /** @description Seconds; for an open session, so far */
            duration: number;
            id: string;
            /** Format: date-time */
            joinedAt: string;
            /** @description Null while the session is open */
            leftAt: string | null;
            serverId: string;
            serverName: string;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-00000000005a",
         *       "name": "laptop",
         *       "algorithm": "ssh-ed25519",
         *       "bits": 256,
         *       "fingerprint": "SHA256:6kCj4Cz0m7VxmH0ZkD2rCdoS3bQ1nYw2k9G5o7Vb8hE",
         *       "publicKey": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
         *       "createdAt": "2026-10-01T18:30:00.000Z",
         *       "lastUsedAt": "2026-11-24T03:00:00.000Z"
         *     }
         */
        SshKey: {
            /** @enum {string} */
            algorithm: "ssh-ed25519" | "ssh-rsa" | "ecdsa-sha2-nistp256" | "ecdsa-sha2-nistp384" | "ecdsa-sha2-nistp521";
            bits: number;
            /** Format: date-time */
            createdAt: string;
            /**
             * @description SHA256 fingerprint as `ssh-keygen -l` prints it.
             * @example SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s
             */
            fingerprint: string;
            id: string;
            lastUsedAt: string | null;
            name: string;
            /** @description The key in OpenSSH form (`<type> <base64>`), without its comment. */
            publicKey: string;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000008",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "name": "Nightly restart",
         *       "description": null,
         *       "schedule": "0 4 * * *",
         *       "timezone": "Europe/Berlin",
         *       "serverIds": [
         *         "01a20f00-0000-7000-8000-000000000004"
         *       ],
         *       "steps": [
         *         {
         *           "type": "BROADCAST",
         *           "message": "Restart in 5 minutes",
         *           "delaySeconds": 0,
         *           "continueOnFailure": false
         *         },
         *         {
         *           "type": "RESTART",
         *           "delaySeconds": 300,
         *           "continueOnFailure": false
         *         }
         *       ],
         *       "onlyWhenOnline": false,
         *       "enabled": true,
         *       "nextRunAt": "2026-11-25T03:00:00.000Z",
         *       "lastRunAt": "2026-11-24T03:00:00.000Z",
         *       "lastRunStatus": "SUCCEEDED",
         *       "createdAt": "2026-10-01T18:30:00.000Z",
         *       "updatedAt": "2026-10-01T18:30:00.000Z"
         *     }
         */
        Task: {
            clusterId: string;
            /** Format: date-time */
            createdAt: string;
            description: string | null;
            enabled: boolean;
            id: string;
            lastRunAt: string | null;
            lastRunStatus: ("RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED" | "EXPIRED" | "MISSED" | "SKIPPED") | null;
            name: string;
            /** @description The pending occurrence; null while disabled. */
            nextRunAt: string | null;
            onlyWhenOnline: boolean;
            schedule: string;
            serverIds: string[];
            steps: {
                command?: string;
                continueOnFailure: boolean;
                delaySeconds: number;
                message?: string;
                /** @enum {string} */
                type: "START" | "STOP" | "RESTART" | "RCON" | "BROADCAST" | "WIPE" | "BACKUP";
            }[];
            timezone: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "type": "BROADCAST",
         *       "message": "Restart in 5 minutes",
         *       "delaySeconds": 0,
         *       "continueOnFailure": false
         *     }
         */
        TaskStep: {
            /** @description RCON steps: the console command. */
            command?: string;
            /**
             * @description Go on with the next step when this one fails on some server.
             * @default false
             */
            continueOnFailure: boolean;
            /**
             * @description Seconds to wait after the previous step before this one (0..3600).
             * @default 0
             */
            delaySeconds: number;
            /** @description BROADCAST steps: the message players see. */
            message?: string;
            /** @enum {string} */
            type: "START" | "STOP" | "RESTART" | "RCON" | "BROADCAST" | "WIPE" | "BACKUP";
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000031",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "builtIn": false,
         *       "slug": "my-game",
         *       "name": "My game",
         *       "version": 3,
         *       "description": null,
         *       "gameType": "CUSTOM",
         *       "tags": [
         *         "survival"
         *       ],
         *       "platforms": [
         *         "linux"
         *       ],
         *       "createdAt": "2026-10-01T18:30:00.000Z",
         *       "updatedAt": "2026-10-01T18:30:00.000Z",
         *       "document": {
         *         "id": "my-game",
         *         "name": "My game",
         *         "version": 3,
         *         "gameType": "CUSTOM",
         *         "tags": [
         *           "survival"
         *         ],
         *         "variables": [
         *           {
         *             "name": "WORLD",
         *             "description": "The world to load",
         *             "default": "main",
         *             "validation": {
         *               "type": "string",
         *               "regex": "^[a-z]+$",
         *               "maxLength": 32
         *             }
         *           }
         *         ],
         *         "start": {
         *           "command": "./server --port {{GAME_PORT}} --world {{WORLD}}"
         *         },
         *         "ready": {
         *           "mode": "LINE",
         *           "pattern": "^\\[INFO\\] Server ready$",
         *           "timeoutSeconds": 120
         *         },
         *         "stop": {
         *           "mode": "COMMAND",
         *           "command": "shutdown",
         *           "graceSeconds": 30
         *         },
         *         "console": {
         *           "mode": "STDIN",
         *           "commands": {
         *             "broadcast": {
         *               "command": "say {{MESSAGE}}"
         *             }
         *           }
         *         },
         *         "players": {
         *           "join": "^\\[INFO\\] (?<name>\\w{1,16}) joined \\((?<id>\\d{1,16})\\)$"
         *         },
         *         "install": {
         *           "steps": [
         *             {
         *               "type": "download",
         *               "url": "https://example.com/my-game/server.tar.gz",
         *               "path": "server.tar.gz"
         *             },
         *             {
         *               "type": "unpack",
         *               "archive": "server.tar.gz"
         *             }
         *           ]
         *         },
         *         "ports": [
         *           {
         *             "name": "game",
         *             "protocol": "udp",
         *             "default": 7777
         *           }
         *         ],
         *         "sources": [
         *           {
         *             "fact": "ready",
         *             "url": "https://example.com/my-game/docs"
         *           }
         *         ]
         *       }
         *     }
         */
        Template: {
            builtIn: boolean;
            /** @description The cluster it belongs to; null: built in. */
            clusterId: string | null;
            createdAt: string | null;
            description: string | null;
            /** @description The whole template (docs/templates.md); secret variables without their `default`. */
            document: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            gameType: "MINECRAFT" | "RUST" | "ARK_SURVIVAL_EVOLVED" | "CS2" | "VALHEIM" | "CUSTOM";
            /** @description A built-in's id is its slug (`rust`); a cluster template's is a uuid. */
            id: string;
            name: string;
            platforms: ("linux" | "windows")[];
            /** @description The secret variables that have a default: never returned; a PATCH that leaves out their `default` keeps it. */
            secretDefaults?: string[];
            slug: string;
            tags: string[];
            updatedAt: string | null;
            version: number;
        };
        /**
         * @example {
         *       "id": "my-game",
         *       "name": "My game",
         *       "version": 3,
         *       "gameType": "CUSTOM",
         *       "tags": [
         *         "survival"
         *       ],
         *       "variables": [
         *         {
         *           "name": "WORLD",
         *           "description": "The world to load",
         *           "default": "main",
         *           "validation": {
         *             "type": "string",
         *             "regex": "^[a-z]+$",
         *             "maxLength": 32
         *           }
         *         }
         *       ],
         *       "start": {
         *         "command": "./server --port {{GAME_PORT}} --world {{WORLD}}"
         *       },
         *       "ready": {
         *         "mode": "LINE",
         *         "pattern": "^\\[INFO\\] Server ready$",
         *         "timeoutSeconds": 120
         *       },
         *       "stop": {
         *         "mode": "COMMAND",
         *         "command": "shutdown",
         *         "graceSeconds": 30
         *       },
         *       "console": {
         *         "mode": "STDIN",
         *         "commands": {
         *           "broadcast": {
         *             "command": "say {{MESSAGE}}"
         *           }
         *         }
         *       },
         *       "players": {
         *         "join": "^\\[INFO\\] (?<name>\\w{1,16}) joined \\((?<id>\\d{1,16})\\)$"
         *       },
         *       "install": {
         *         "steps": [
         *           {
         *             "type": "download",
         *             "url": "https://example.com/my-game/server.tar.gz",
         *             "path": "server.tar.gz"
         *           },
         *           {
         *             "type": "unpack",
         *             "archive": "server.tar.gz"
         *           }
         *         ]
         *       },
         *       "ports": [
         *         {
         *           "name": "game",
         *           "protocol": "udp",
         *           "default": 7777
         *         }
         *       ],
         *       "sources": [
         *         {
         *           "fact": "ready",
         *           "url": "https://example.com/my-game/docs"
         *         }
         *       ]
         *     }
         */
        TemplateDocument: {
            /** @default [] */
            configFiles: {
                /** @enum {string} */
                format: "properties" | "ini" | "json" | "yaml" | "xml" | "cfg" | "replace";
                path: string;
                replace?: {
                    find: string;
                    replace: string;
                }[];
                set?: {
                    [key: string]: string;
                };
                when?: string;
            }[];
            console: {
                /** @default {} */
                commands: {
                    ban?: {
                        command: string;
                        expect?: string;
                    };
                    broadcast?: {
                        command: string;
                        expect?: string;
                    };
                    kick?: {
                        command: string;
                        expect?: string;
                    };
                    list?: {
                        command: string;
                        expect?: string;
                        parse: {
                            answer?: string;
                            entry: string;
                            /** @constant */
                            format: "PATTERN";
                            separator?: string;
                        } | {
                            /** @constant */
                            format: "JSON";
                            id: string;
                            name: string;
                            /** @default [] */
                            path: string[];
                            ping?: string;
                            skip?: string;
                        };
                    };
                    unban?: {
                        command: string;
                        expect?: string;
                    };
                };
                /** @enum {string} */
                mode: "STDIN" | "RCON" | "NONE";
                quoteArguments?: boolean;
                rcon?: {
                    /**
                     * @description The password, usually `{{RCON_PASSWORD}}` (the server’s) or `{{SOME_VARIABLE}}`.
                     * @default {{RCON_PASSWORD}}
                     */
                    password: string;
                    /**
                     * @description The name of the port in `ports` RCON listens on.
                     * @default rcon
                     */
                    port: string;
                };
            };
            defaultMaxPlayers?: number;
            description?: string;
            /**
             * @default {
             *       "deny": [],
             *       "wipe": [],
             *       "backupSkip": [],
             *       "adminOnly": []
             *     }
             */
            files: {
                /**
                 * @description gitignore-style patterns of files that hold the server's RCON password: only members with the RCON permission (OWNER, ADMIN) may read or write them; for the others they are denied.
                 * @default []
                 */
                adminOnly: string[];
                /**
                 * @description gitignore-style patterns a backup leaves out.
                 * @default []
                 */
                backupSkip: string[];
                /**
                 * @description gitignore-style patterns members may not read or write.
                 * @default []
                 */
                deny: string[];
                /**
                 * @description Paths (globs with `*`) a WIPE removes.
                 * @default []
                 */
                wipe: string[];
            };
            /**
             * @default CUSTOM
             * @enum {string}
             */
            gameType: "MINECRAFT" | "RUST" | "ARK_SURVIVAL_EVOLVED" | "CS2" | "VALHEIM" | "CUSTOM";
            id: string;
            install?: {
                steps: ({
                    executable?: boolean;
                    path: string;
                    sha1?: string;
                    sha256?: string;
                    /** @constant */
                    type: "download";
                    /** @description http(s) URL, with placeholders. */
                    url: string;
                } | {
                    appId: number;
                    /** @description Usually a secret variable: `{{BETA_PASSWORD}}`; the same characters as a branch. */
                    betaPassword?: string;
                    /** @description A beta branch: letters, digits, `.`, `_`, `-` (at most 64), or one `{{VARIABLE}}`. */
                    branch?: string;
                    /**
                     * @description Force the download of this platform’s build (`+@sSteamCmdForcePlatformType`).
                     * @enum {string}
                     */
                    platform?: "linux" | "windows";
                    /** @constant */
                    type: "steamcmd";
                    /** @default false */
                    validate: boolean;
                } | {
                    /** @default server.jar */
                    path: string;
                    /** @constant */
                    type: "minecraftManifest";
                    /**
                     * @description A Minecraft version, or `latest` / empty for the latest release.
                     * @default {{VERSION}}
                     */
                    version: string;
                } | {
                    archive: string;
                    /** @default . */
                    destination: string;
                    /**
                     * @default auto
                     * @enum {string}
                     */
                    format: "auto" | "zip" | "tar" | "tar.gz" | "tar.xz";
                    /** @default true */
                    removeArchive: boolean;
                    stripComponents?: number;
                    /** @constant */
                    type: "unpack";
                } | {
                    env?: {
                        [key: string]: string;
                    };
                    script: string;
                    /**
                     * @default sh
                     * @enum {string}
                     */
                    shell: "sh" | "bash";
                    /** @default 600 */
                    timeoutSeconds: number;
                    /** @constant */
                    type: "script";
                })[];
                tools?: string[];
            };
            /** @default [] */
            links: {
                title: string;
                /** Format: uri */
                url: string;
            }[];
            name: string;
            /**
             * @description Where its dedicated server runs; a template without `linux` is refused for servers (agents run Linux).
             * @default [
             *       "linux"
             *     ]
             */
            platforms: ("linux" | "windows")[];
            /**
             * @default {
             *       "identity": "id"
             *     }
             */
            players: {
                /** @description A line printed before the join that ties `name` to `id` (Minecraft’s `UUID of player <name> is <uuid>`). */
                identify?: string;
                /**
                 * @description What identifies a player: the id the game prints (Steam id, UUID) or its name.
                 * @default id
                 * @enum {string}
                 */
                identity: "id" | "name";
                /** @description An id matching this identifies nothing (offline-mode UUIDs): the name is used. */
                ignoreId?: string;
                /** @description A whole line of the game’s own (anchored with ^…$ to its log prefix; chat must never match) with named groups `name` and `id`. */
                join?: string;
                leave?: string;
            };
            ports: {
                default?: number;
                description?: string;
                name: string;
                /** @description From the game port (gamePort + offset). */
                offset?: number;
                /** @enum {string} */
                protocol: "tcp" | "udp" | "tcp+udp";
            }[];
            query?: {
                /**
                 * @description The name of the port in `ports` it answers on.
                 * @default query
                 */
                port: string;
                /** @enum {string} */
                protocol: "A2S" | "MINECRAFT" | "MINECRAFT_BEDROCK" | "GAMESPY1" | "GAMESPY2" | "GAMESPY3" | "EOS" | "TERRARIA" | "FACTORIO" | "RCON";
            };
            ready: {
                /** @constant */
                mode: "LINE";
                pattern: string;
                timeoutSeconds?: number;
            } | {
                /** @constant */
                mode: "RCON";
                timeoutSeconds?: number;
            } | {
                /** @constant */
                mode: "QUERY";
                timeoutSeconds?: number;
            } | {
                /** @constant */
                mode: "PORT";
                /**
                 * @description The name of a TCP port in `ports` that must accept a connection.
                 * @default game
                 */
                port: string;
                timeoutSeconds?: number;
            } | {
                /** @constant */
                mode: "IMMEDIATE";
                timeoutSeconds?: number;
            };
            samples?: {
                /**
                 * @description Chat and other lines players control: no pattern may match them.
                 * @default []
                 */
                chat: string[];
                /** @default [] */
                join: {
                    id?: string;
                    line: string;
                    name: string;
                }[];
                /** @default [] */
                leave: {
                    id?: string;
                    line: string;
                    name: string;
                }[];
                /** @default [] */
                ready: string[];
            };
            /** @default [] */
            sources: {
                /** @description What it backs, e.g. `steamcmd.appId`, `ready`, `players.join`, `ports`. */
                fact: string;
                note?: string;
                /** Format: uri */
                url?: string;
            }[];
            start: {
                /** @description The command line, split like a POSIX shell line (never run through a shell), with `{{VARIABLE}}` and built-in placeholders. */
                command: string;
                env?: {
                    [key: string]: string;
                };
                /** @description Relative to the server directory (default: the server directory). */
                workingDirectory?: string;
            };
            stop: {
                command: string;
                graceSeconds?: number;
                /** @constant */
                mode: "COMMAND";
            } | {
                graceSeconds?: number;
                /** @constant */
                mode: "SIGNAL";
                /** @enum {string} */
                signal: "SIGINT" | "SIGTERM" | "SIGQUIT" | "SIGHUP" | "SIGUSR1" | "SIGUSR2";
            };
            /** @default [] */
            tags: string[];
            /** @description Absent: the install steps again (each is a no-op when current). */
            update?: {
                steps: ({
                    executable?: boolean;
                    path: string;
                    sha1?: string;
                    sha256?: string;
                    /** @constant */
                    type: "download";
                    /** @description http(s) URL, with placeholders. */
                    url: string;
                } | {
                    appId: number;
                    /** @description Usually a secret variable: `{{BETA_PASSWORD}}`; the same characters as a branch. */
                    betaPassword?: string;
                    /** @description A beta branch: letters, digits, `.`, `_`, `-` (at most 64), or one `{{VARIABLE}}`. */
                    branch?: string;
                    /**
                     * @description Force the download of this platform’s build (`+@sSteamCmdForcePlatformType`).
                     * @enum {string}
                     */
                    platform?: "linux" | "windows";
                    /** @constant */
                    type: "steamcmd";
                    /** @default false */
                    validate: boolean;
                } | {
                    /** @default server.jar */
                    path: string;
                    /** @constant */
                    type: "minecraftManifest";
                    /**
                     * @description A Minecraft version, or `latest` / empty for the latest release.
                     * @default {{VERSION}}
                     */
                    version: string;
                } | {
                    archive: string;
                    /** @default . */
                    destination: string;
                    /**
                     * @default auto
                     * @enum {string}
                     */
                    format: "auto" | "zip" | "tar" | "tar.gz" | "tar.xz";
                    /** @default true */
                    removeArchive: boolean;
                    stripComponents?: number;
                    /** @constant */
                    type: "unpack";
                } | {
                    env?: {
                        [key: string]: string;
                    };
                    script: string;
                    /**
                     * @default sh
                     * @enum {string}
                     */
                    shell: "sh" | "bash";
                    /** @default 600 */
                    timeoutSeconds: number;
                    /** @constant */
                    type: "script";
                })[];
                tools?: string[];
            };
            /** @default [] */
            variables: {
                /** @default  */
                default: string;
                description?: string;
                label?: string;
                name: string;
                /**
                 * @description Never returned by the API once set (shown as set / not set).
                 * @default false
                 */
                secret: boolean;
                /**
                 * @description Members with server write (not only OWNER/ADMIN) may change it.
                 * @default false
                 */
                userEditable: boolean;
                /**
                 * @description Members who are not OWNER/ADMIN see it.
                 * @default true
                 */
                userViewable: boolean;
                /**
                 * @default {
                 *       "type": "string"
                 *     }
                 */
                validation: {
                    enum?: string[];
                    /** @description integer/number: the largest value. */
                    max?: number;
                    maxLength?: number;
                    /** @description integer/number: the smallest value. */
                    min?: number;
                    minLength?: number;
                    /** @description string: the whole value must match (anchor it yourself). */
                    regex?: string;
                    /** @description The value may not be empty. */
                    required?: boolean;
                    /**
                     * @default string
                     * @enum {string}
                     */
                    type: "string" | "integer" | "number" | "boolean";
                };
            }[];
            /** @default 1 */
            version: number;
        };
        /**
         * @example {
         *       "template": {
         *         "id": "01a20f00-0000-7000-8000-000000000031",
         *         "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *         "builtIn": false,
         *         "slug": "my-game",
         *         "name": "My game",
         *         "version": 1,
         *         "description": null,
         *         "gameType": "CUSTOM",
         *         "tags": [
         *           "survival"
         *         ],
         *         "platforms": [
         *           "linux"
         *         ],
         *         "createdAt": "2026-10-01T18:30:00.000Z",
         *         "updatedAt": "2026-10-01T18:30:00.000Z",
         *         "document": {
         *           "id": "my-game",
         *           "name": "My game",
         *           "version": 1,
         *           "gameType": "CUSTOM",
         *           "tags": [
         *             "egg"
         *           ],
         *           "variables": [
         *             {
         *               "name": "WORLD",
         *               "description": "The world to load",
         *               "default": "main",
         *               "validation": {
         *                 "type": "string",
         *                 "regex": "^[a-z]+$",
         *                 "maxLength": 32
         *               }
         *             }
         *           ],
         *           "start": {
         *             "command": "./server --port {{GAME_PORT}} --world {{WORLD}}"
         *           },
         *           "ready": {
         *             "mode": "LINE",
         *             "pattern": "^\\[INFO\\] Server ready$",
         *             "timeoutSeconds": 120
         *           },
         *           "stop": {
         *             "mode": "COMMAND",
         *             "command": "shutdown",
         *             "graceSeconds": 30
         *           },
         *           "console": {
         *             "mode": "STDIN",
         *             "commands": {
         *               "broadcast": {
         *                 "command": "say {{MESSAGE}}"
         *               }
         *             }
         *           },
         *           "players": {
         *             "join": "^\\[INFO\\] (?<name>\\w{1,16}) joined \\((?<id>\\d{1,16})\\)$"
         *           },
         *           "install": {
         *             "steps": [
         *               {
         *                 "type": "download",
         *                 "url": "https://example.com/my-game/server.tar.gz",
         *                 "path": "server.tar.gz"
         *               },
         *               {
         *                 "type": "unpack",
         *                 "archive": "server.tar.gz"
         *               }
         *             ]
         *           },
         *           "ports": [
         *             {
         *               "name": "game",
         *               "protocol": "udp",
         *               "default": 7777
         *             }
         *           ],
         *           "sources": [
         *             {
         *               "fact": "ready",
         *               "url": "https://example.com/my-game/docs"
         *             }
         *           ]
         *         }
         *       },
         *       "format": "PTDL_v2",
         *       "unmapped": [
         *         "installation script: 1 line(s) installing packages are not run (the machine needs: curl)",
         *         "players: eggs do not describe join and leave lines or player commands; add players and console.commands to list them"
         *       ],
         *       "tools": [
         *         "bash",
         *         "curl"
         *       ],
         *       "skippedLines": [
         *         "apt install -y curl"
         *       ]
         *     }
         */
        TemplateImport: {
            /**
             * @description The egg’s format version.
             * @enum {string}
             */
            format: "PTDL_v1" | "PTDL_v2" | "PLCN_v1" | "PLCN_v2" | "PLCN_v3";
            /** @description Lines of the installation script that are not run (they install packages as root). */
            skippedLines: string[];
            template: components["schemas"]["Template"];
            /** @description Programs the installation script runs, which the machine must have. */
            tools: string[];
            /** @description Every part of the egg not carried over, or carried over with a difference, in words. */
            unmapped: string[];
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000031",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "builtIn": false,
         *       "slug": "my-game",
         *       "name": "My game",
         *       "version": 3,
         *       "description": null,
         *       "gameType": "CUSTOM",
         *       "tags": [
         *         "survival"
         *       ],
         *       "platforms": [
         *         "linux"
         *       ],
         *       "createdAt": "2026-10-01T18:30:00.000Z",
         *       "updatedAt": "2026-10-01T18:30:00.000Z"
         *     }
         */
        TemplateSummary: {
            builtIn: boolean;
            /** @description The cluster it belongs to; null: built in. */
            clusterId: string | null;
            createdAt: string | null;
            description: string | null;
            /** @enum {string} */
            gameType: "MINECRAFT" | "RUST" | "ARK_SURVIVAL_EVOLVED" | "CS2" | "VALHEIM" | "CUSTOM";
            /** @description A built-in's id is its slug (`rust`); a cluster template's is a uuid. */
            id: string;
            name: string;
            platforms: ("linux" | "windows")[];
            slug: string;
            tags: string[];
            updatedAt: string | null;
            version: number;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-00000000000b",
         *       "name": "restart script",
         *       "clusterIds": [
         *         "01a20f00-0000-7000-8000-000000000001"
         *       ],
         *       "createdAt": "2026-10-01T18:30:00.000Z",
         *       "lastUsedAt": null,
         *       "expiresAt": null,
         *       "token": "gsm_live_0123456789abcdefghijABCDEFGHIJklmnopqrstuvw",
         *       "userId": "01a20f00-0000-7000-8000-000000000002"
         *     }
         */
        TokenCreated: {
            clusterIds: string[];
            /** Format: date-time */
            createdAt: string;
            expiresAt: string | null;
            id: string;
            lastUsedAt: string | null;
            name: string;
            /** @description The secret, shown only in this answer. */
            token: string;
            userId: string;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-00000000000b",
         *       "name": "restart script",
         *       "clusterIds": [
         *         "01a20f00-0000-7000-8000-000000000001"
         *       ],
         *       "createdAt": "2026-10-01T18:30:00.000Z",
         *       "lastUsedAt": "2026-11-24T03:00:00.000Z",
         *       "expiresAt": null
         *     }
         */
        TokenListItem: {
            clusterIds: string[];
            /** Format: date-time */
            createdAt: string;
            expiresAt: string | null;
            id: string;
            lastUsedAt: string | null;
            name: string;
        };
        /**
         * @example {
         *       "accessToken": "v4.local.eyJzdWIi…",
         *       "refreshToken": "gsm_refresh_…",
         *       "tokenType": "Bearer",
         *       "expiresIn": 900
         *     }
         */
        TokenPair: {
            accessToken: string;
            /** @description Seconds the access token is valid (86400). */
            expiresIn: number;
            refreshToken: string;
            /** @constant */
            tokenType: "Bearer";
        };
        /**
         * @example {
         *       "machineId": "01a20f00-0000-7000-8000-000000000045",
         *       "keepSource": false,
         *       "includeBackups": true,
         *       "bandwidthLimit": 50000000
         *     }
         */
        TransferRequest: {
            /**
             * @description Ports on the target by name (`game`, `query`, `rcon`, extras); those not given are picked free from the target’s port ranges. They are reserved at once.
             * @example {
             *       "game": 27015,
             *       "query": 27016,
             *       "rcon": 27017
             *     }
             */
            allocations?: {
                [key: string]: number;
            };
            /** @description Bytes per second the copy may use (default: no limit). */
            bandwidthLimit?: number;
            /**
             * @description Copy the server’s local backups to the target (default true); false: they are deleted at the switch (the job’s `params.backupsToDelete` lists them). Those on S3 are re-pointed either way.
             * @default true
             */
            includeBackups: boolean;
            /**
             * @description Keep the server’s files on the source machine after the switch (default false).
             * @default false
             */
            keepSource: boolean;
            /** @description Not offered: `true` is refused (400). The server is stopped for the whole copy. */
            live?: boolean;
            /**
             * Format: uuid
             * @description The machine to move the server to: another machine of the server’s cluster.
             */
            machineId: string;
        };
        /**
         * @example {
         *       "success": true,
         *       "message": "Removed 1 ban",
         *       "bans": [
         *         {
         *           "id": "01a20f00-0000-7000-8000-000000000007",
         *           "playerId": "01a20f00-0000-7000-8000-000000000006",
         *           "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *           "serverId": null,
         *           "reason": "Cheating (aimbot)",
         *           "clusterWide": true,
         *           "expiresAt": null,
         *           "createdBy": "01a20f00-0000-7000-8000-000000000002",
         *           "createdAt": "2026-11-24T03:00:00.000Z",
         *           "revokedAt": "2026-11-24T03:00:04.250Z",
         *           "active": false,
         *           "player": {
         *             "id": "01a20f00-0000-7000-8000-000000000006",
         *             "username": "RustLord",
         *             "steamId": "76561198000000042"
         *           },
         *           "serverName": null
         *         }
         *       ],
         *       "jobIds": [
         *         "01a20f00-0000-7000-8000-000000000005"
         *       ]
         *     }
         */
        UnbanAnswer: {
            /** @description The bans revoked (each with `revokedAt`) */
            bans: components["schemas"]["Ban"][];
            /** @description UNBAN jobs, one per server where no ban of the player applies any more */
            jobIds: string[];
            message: string;
            success: boolean;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000002",
         *       "email": "alex@example.org",
         *       "displayName": "Alex",
         *       "handle": "alex",
         *       "steamId": "76561198000000001",
         *       "discordId": null,
         *       "hasPassword": true,
         *       "tier": "FREE",
         *       "createdAt": "2026-10-01T18:30:00.000Z"
         *     }
         */
        User: {
            /** Format: date-time */
            createdAt: string;
            discordId: string | null;
            displayName: string;
            email: string;
            /**
             * @description Your SFTP name: sign in to a server's files as `<handle>.<server short id>` (docs/sftp.md). Chosen from your e-mail address.
             * @example alex
             */
            handle: string;
            /** @description Whether the account has a password (one made with Steam or Discord has none until it sets one). */
            hasPassword: boolean;
            id: string;
            steamId: string | null;
            /** @enum {string} */
            tier: "FREE" | "PRO" | "ENTERPRISE";
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-00000000000a",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "url": "https://discord.com/api/webhooks/123/abc",
         *       "events": [
         *         "server.status",
         *         "ban.created"
         *       ],
         *       "format": "DISCORD",
         *       "description": "Crashes and bans to #staff",
         *       "enabled": true,
         *       "disabledReason": null,
         *       "createdAt": "2026-10-01T18:30:00.000Z",
         *       "updatedAt": "2026-11-24T03:00:00.000Z"
         *     }
         */
        Webhook: {
            clusterId: string;
            createdAt: string;
            description: string | null;
            disabledReason: string | null;
            enabled: boolean;
            events: ("*" | "server.status" | "machine.status" | "job.updated" | "player.joined" | "player.left" | "ban.created" | "ban.revoked" | "task.run.finished" | "webhook.disabled" | "server.transferred" | "webhook.dropped")[];
            /** @enum {string} */
            format: "JSON" | "DISCORD";
            id: string;
            updatedAt: string;
            url: string;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-00000000000a",
         *       "clusterId": "01a20f00-0000-7000-8000-000000000001",
         *       "url": "https://discord.com/api/webhooks/123/abc",
         *       "events": [
         *         "server.status",
         *         "ban.created"
         *       ],
         *       "format": "DISCORD",
         *       "description": "Crashes and bans to #staff",
         *       "enabled": true,
         *       "disabledReason": null,
         *       "createdAt": "2026-10-01T18:30:00.000Z",
         *       "updatedAt": "2026-11-24T03:00:00.000Z",
         *       "secret": "whsec_0123456789abcdefghijABCDEFGHIJklmnopqrstuvw"
         *     }
         */
        WebhookCreated: {
            clusterId: string;
            createdAt: string;
            description: string | null;
            disabledReason: string | null;
            enabled: boolean;
            events: ("*" | "server.status" | "machine.status" | "job.updated" | "player.joined" | "player.left" | "ban.created" | "ban.revoked" | "task.run.finished" | "webhook.disabled" | "server.transferred" | "webhook.dropped")[];
            /** @enum {string} */
            format: "JSON" | "DISCORD";
            id: string;
            /** @description Signs every delivery (GSM-Signature); shown only in this answer */
            secret: string;
            updatedAt: string;
            url: string;
        };
        /**
         * @example {
         *       "id": "01a20f00-0000-7000-8000-000000000011",
         *       "webhookId": "01a20f00-0000-7000-8000-00000000000a",
         *       "eventId": "0000000000001234",
         *       "eventType": "server.status",
         *       "status": "SUCCEEDED",
         *       "attempts": 1,
         *       "lastStatusCode": 204,
         *       "lastError": null,
         *       "durationMs": 143,
         *       "nextAttemptAt": null,
         *       "createdAt": "2026-11-24T03:00:00.000Z",
         *       "deliveredAt": "2026-11-24T03:00:04.250Z"
         *     }
         */
        WebhookDelivery: {
            attempts: number;
            createdAt: string;
            deliveredAt: string | null;
            durationMs: number | null;
            /** @description The event's id (its cursor); for a test delivery, the test's own id (`test_` and a UUID) that its body carries */
            eventId: string | null;
            eventType: string;
            id: string;
            lastError: string | null;
            lastStatusCode: number | null;
            nextAttemptAt: string | null;
            /** @enum {string} */
            status: "PENDING" | "SUCCEEDED" | "FAILED";
            webhookId: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTML page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentInstallScript: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/x-shellscript */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentPackage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description application/gzip */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not modified (If-None-Match) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exchangeInstallCode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The single-use registration code of an install line. */
                    code: string;
                };
            };
        };
        responses: {
            /** @description The machine and its agent token */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InstallCodeExchanged"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown code */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Unknown code",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The code was used, replaced or has expired */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 410,
                     *       "message": "The code was used, replaced or has expired",
                     *       "error": "Gone"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiReference: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTML page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiReferenceAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: "swagger-ui.css" | "swagger-ui-bundle.js" | "swagger-ui-standalone-preset.js" | "favicon-32x32.png" | "favicon-16x16.png";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The asset */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiReferenceScript: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JavaScript */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Required when the account has a password (one that signs in with Steam or Discord only may set its first without it). */
                    currentPassword?: string;
                    newPassword: string;
                };
            };
        };
        responses: {
            /** @description Changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description `currentPassword` is wrong or missing, or `newPassword` is not acceptable */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Called with an API token, or a first password from a session older than the sign-in it needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Called with an API token, or a first password from a session older than the sign-in it needs",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The password was changed meanwhile (another tab, a reset link): nothing was changed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The password was changed meanwhile (another tab, a reset link): nothing was changed",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The address's sign-in budget or the account's budget of wrong passwords is spent */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "The address's sign-in budget or the account's budget of wrong passwords is spent",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSshKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Your SSH keys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        keys: components["schemas"]["SshKey"][];
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addSshKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /**
                     * @description One OpenSSH public key line: ed25519, ecdsa (nistp256/384/521) or rsa of 2048 bits or more.
                     * @example ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE… me@laptop
                     */
                    publicKey: string;
                };
            };
        };
        responses: {
            /** @description The key */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SshKey"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key is already on your account, or you hold 50 keys */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The key is already on your account, or you hold 50 keys",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSshKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApiTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Your tokens, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tokens: components["schemas"]["TokenListItem"][];
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createApiToken: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    clusterIds: string[];
                    expiresAt?: string | null;
                    name: string;
                };
            };
        };
        responses: {
            /** @description The token, with its secret */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenCreated"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description You already hold 25 active tokens */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "You already hold 25 active tokens",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeApiToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tokenId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    signInWithDiscord: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider */
            302: {
                headers: {
                    /** @description The provider sign-in page */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An Authorization header was sent (to link an account) but its token is not valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "An Authorization header was sent (to link an account) but its token is not valid",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Discord sign-in is not configured */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Discord sign-in is not configured",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    discordSignInCallback: {
        parameters: {
            query: {
                code?: string;
                error?: string;
                error_description?: string;
                state: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed in (OAUTH_REDIRECT_URL unset) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            /** @description Signed in (OAUTH_REDIRECT_URL set) */
            302: {
                headers: {
                    /** @description OAUTH_REDIRECT_URL#accessToken=…&refreshToken=…&tokenType=Bearer&expiresIn=86400 */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, malformed, expired or foreign `state` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The provider did not confirm the sign-in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "The provider did not confirm the sign-in",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No user has this provider account and registration is closed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "No user has this provider account and registration is closed",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Discord sign-in is not configured */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Discord sign-in is not configured",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Linking: the provider account belongs to another user */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "Linking: the provider account belongs to another user",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The provider could not be reached */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The provider could not be reached",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startDiscordSignIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Started from this installation’s dashboard: a random value the page keeps. The callback returns to the dashboard (`/#accessToken=…&nonce=<this value>`), which accepts the pair only with its own value, so a link carrying someone else’s tokens cannot sign a browser in.
                     * @example k3J9x0Qm2bV7nW1pZs8tYc
                     */
                    dashboard?: string;
                    /** @description An invitation's token: the sign-in joins its cluster, creating the account if needed. */
                    invitation?: string;
                };
            };
        };
        responses: {
            /** @description The provider's sign-in page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthStart"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Authorization header was sent (to link an account) but its token is not valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "An Authorization header was sent (to link an account) but its token is not valid",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Discord sign-in is not configured, or no invitation has this token */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Discord sign-in is not configured, or no invitation has this token",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The invitation is no longer pending */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The invitation is no longer pending",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Signed in */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    requestPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Sent if the account exists */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description E-mail is not configured */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "E-mail is not configured",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    confirmPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description Password changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description The link is invalid, expired or used */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    refreshSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    refreshToken: string;
                };
            };
        };
        responses: {
            /** @description A new token pair */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    register: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    displayName: string;
                    /** Format: email */
                    email: string;
                    /** @description A pending invitation's token for this e-mail: the account is created whatever ALLOW_REGISTRATION says, and joins the cluster. */
                    invitationToken?: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Account created and signed in */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        accessToken: string;
                        /** @description Seconds the access token is valid (86400). */
                        expiresIn: number;
                        refreshToken: string;
                        /** @constant */
                        tokenType: "Bearer";
                        user: components["schemas"]["User"];
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Registration is closed (and no invitation was given), or the invitation is for another e-mail */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Registration is closed (and no invitation was given), or the invitation is for another e-mail",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No invitation has this token */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "No invitation has this token",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description E-mail already registered, or the invitation is no longer pending */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "E-mail already registered, or the invitation is no longer pending",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    signInWithSteam: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider */
            302: {
                headers: {
                    /** @description The provider sign-in page */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An Authorization header was sent (to link an account) but its token is not valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "An Authorization header was sent (to link an account) but its token is not valid",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    steamSignInCallback: {
        parameters: {
            query: {
                "openid.assoc_handle"?: string;
                "openid.claimed_id"?: string;
                "openid.identity"?: string;
                "openid.mode": string;
                "openid.ns"?: string;
                "openid.op_endpoint"?: string;
                "openid.response_nonce"?: string;
                "openid.return_to"?: string;
                "openid.sig"?: string;
                "openid.signed"?: string;
                state: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed in (OAUTH_REDIRECT_URL unset) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            /** @description Signed in (OAUTH_REDIRECT_URL set) */
            302: {
                headers: {
                    /** @description OAUTH_REDIRECT_URL#accessToken=…&refreshToken=…&tokenType=Bearer&expiresIn=86400 */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, malformed, expired or foreign `state` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The provider did not confirm the sign-in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "The provider did not confirm the sign-in",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No user has this provider account and registration is closed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "No user has this provider account and registration is closed",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Linking: the provider account belongs to another user */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "Linking: the provider account belongs to another user",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The provider could not be reached */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The provider could not be reached",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startSteamSignIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Started from this installation’s dashboard: a random value the page keeps. The callback returns to the dashboard (`/#accessToken=…&nonce=<this value>`), which accepts the pair only with its own value, so a link carrying someone else’s tokens cannot sign a browser in.
                     * @example k3J9x0Qm2bV7nW1pZs8tYc
                     */
                    dashboard?: string;
                    /** @description An invitation's token: the sign-in joins its cluster, creating the account if needed. */
                    invitation?: string;
                };
            };
        };
        responses: {
            /** @description The provider's sign-in page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthStart"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Authorization header was sent (to link an account) but its token is not valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "An Authorization header was sent (to link an account) but its token is not valid",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No invitation has this token */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "No invitation has this token",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The invitation is no longer pending */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The invitation is no longer pending",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBackup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The backup */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Backup"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteBackup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Being made or restored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "Being made or restored",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    restoreBackup: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The RESTORE job, accepted */
            202: {
                headers: {
                    /** @description The job */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server runs, or the backup is not completed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The server runs, or the backup is not completed",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ban */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ban"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeBan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        jobIds: string[];
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The ban is not active */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The ban is not active",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listClusters: {
        parameters: {
            query?: {
                /** @description Page size, 1..100. */
                limit?: number;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Sort field (name, createdAt); a leading - sorts descending. */
                sort?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Clusters you are a member of (for an API token: within its scope) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Cluster"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createCluster: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    name: string;
                };
            };
        };
        responses: {
            /** @description The new cluster */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cluster"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAuditLog: {
        parameters: {
            query?: {
                action?: string;
                actorId?: string;
                /** @description Page size, 1..100. */
                limit?: number;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Sort field (at); a leading - sorts descending. */
                sort?: string;
                targetId?: string;
            };
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Audit entries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AuditEntry"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listBans: {
        parameters: {
            query?: {
                active?: boolean;
                /** @description Page size, 1..100. */
                limit?: number;
                /** @description Page number, from 1. */
                page?: number;
                playerId?: string;
                /** @description Bans that apply to this server (its own and cluster-wide ones) */
                serverId?: string;
                /** @description Sort field (createdAt, expiresAt); a leading - sorts descending. */
                sort?: string;
            };
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Bans */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Ban"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description An event id: answers the events after it. */
                after?: string;
                /** @description Page size, 1..100. */
                limit?: number;
                /** @description Page number, from 1. */
                page?: number;
                serverId?: string;
                /**
                 * @deprecated
                 * @description The same filter as `types` (another name for it); give one of the two.
                 */
                type?: string;
                /** @description Comma list of: server.status, machine.status, job.updated, player.joined, player.left, ban.created, ban.revoked, task.run.finished, webhook.disabled, server.transferred, webhook.dropped */
                types?: string;
            };
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Event"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamEvents: {
        parameters: {
            query?: {
                /** @description An event id of the stream: resumes after it (`<id>:<console sequence>` resumes the console too). */
                after?: string;
                serverId?: string;
                /**
                 * @deprecated
                 * @description The same filter as `types` (another name for it); give one of the two.
                 */
                type?: string;
                /** @description Comma list of: server.status, machine.status, job.updated, player.joined, player.left, ban.created, ban.revoked, task.run.finished, webhook.disabled, server.transferred, webhook.dropped, server.console, server.stats (the live-only server.console and server.stats need serverId) */
                types?: string;
            };
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An event stream (text/event-stream) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInvitations: {
        parameters: {
            query?: {
                /** @description Page size, 1..100. */
                limit?: number;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Sort field (createdAt, email); a leading - sorts descending. */
                sort?: string;
                status?: "PENDING" | "ACCEPTED" | "REVOKED" | "EXPIRED";
            };
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Invitations (without their secrets) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Invitation"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @enum {string} */
                    role: "OWNER" | "ADMIN" | "MODERATOR" | "VIEWER";
                };
            };
        };
        responses: {
            /** @description The invitation, with its secret */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationCreated"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Already a member, or an invitation is pending */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "Already a member, or an invitation is pending",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clusterId: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No longer pending */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "No longer pending",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listJobs: {
        parameters: {
            query?: {
                /** @description Page size, 1..100. */
                limit?: number;
                /** @description Page number, from 1. */
                page?: number;
                serverId?: string;
                /** @description Sort field (createdAt); a leading - sorts descending. */
                sort?: string;
                status?: "QUEUED" | "DISPATCHED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED" | "EXPIRED";
                taskId?: string;
                type?: "START" | "STOP" | "RESTART" | "KILL" | "RCON" | "KICK" | "BAN" | "UNBAN" | "BROADCAST" | "WIPE" | "TASK_RUN" | "INSTALL" | "UPDATE" | "BACKUP" | "RESTORE" | "FILE_COMPRESS" | "FILE_EXTRACT" | "FILE_PULL" | "TRANSFER";
            };
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Jobs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Job"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMachines: {
        parameters: {
            query?: {
                /** @description Page size, 1..100. */
                limit?: number;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Sort field (name, createdAt, lastSeenAt); a leading - sorts descending. */
                sort?: string;
                status?: "ONLINE" | "OFFLINE";
            };
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Machines */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Machine"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    registerMachine: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description The machine, its agent token and connection hints */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MachineRegistered"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    upgradeAgents: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Machines upgraded at once; the next batch starts when every machine of this one is back.
                     * @example 1
                     */
                    batchSize: number;
                    /** @description The machines to upgrade, in this order. Default: every ONLINE machine of the cluster whose agent is older than the service's package, by name. */
                    machineIds?: string[];
                    /**
                     * @description How long each machine has to come back ONLINE on the new version with its servers RUNNING (default 300).
                     * @default 300
                     */
                    timeoutSeconds?: number;
                };
            };
        };
        responses: {
            /** @description The roll, started */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentUpgrade"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A roll of the cluster is running, no machine has an older agent, or the service's own version policy would refuse the package's agent */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "A roll of the cluster is running, no machine has an older agent, or the service's own version policy would refuse the package's agent",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAgentUpgrades: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Rolls */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AgentUpgrade"][];
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentUpgrade: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clusterId: string;
                upgradeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The roll and each machine’s result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentUpgrade"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelAgentUpgrade: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                clusterId: string;
                upgradeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The roll, cancelled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentUpgrade"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The roll has ended */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The roll has ended",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMembers: {
        parameters: {
            query?: {
                /** @description Page size, 1..100. */
                limit?: number;
                /** @description Page number, from 1. */
                page?: number;
                role?: "OWNER" | "ADMIN" | "MODERATOR" | "VIEWER";
                /** @description Sort field (joinedAt, displayName, email, role); a leading - sorts descending. */
                sort?: string;
            };
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Members */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Member"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clusterId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    changeMemberRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clusterId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role: "OWNER" | "ADMIN" | "MODERATOR" | "VIEWER";
                };
            };
        };
        responses: {
            /** @description The member */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    leaveCluster: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Left */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPlayers: {
        parameters: {
            query?: {
                /** @description Page size, 1..100. */
                limit?: number;
                online?: boolean;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Part of the username or platform id, any case */
                search?: string;
                /** @description Players who have played on this server (with online=true: who are on it now) */
                serverId?: string;
                /** @description Sort field (playtime, lastSeen, firstSeen, username); a leading - sorts descending. */
                sort?: string;
            };
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Players */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Player"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPlayersOnlineHistory: {
        parameters: {
            query?: {
                from?: string;
                step?: "1m" | "5m" | "15m" | "1h" | "6h" | "1d";
                to?: string;
            };
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Points, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClusterPlayersOnline"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPlayerStatistics: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Statistics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlayerStats"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listClusterServers: {
        parameters: {
            query?: {
                game?: "MINECRAFT" | "RUST" | "ARK_SURVIVAL_EVOLVED" | "CS2" | "VALHEIM" | "CUSTOM";
                gameType?: "MINECRAFT" | "RUST" | "ARK_SURVIVAL_EVOLVED" | "CS2" | "VALHEIM" | "CUSTOM";
                /** @description Page size, 1..100. */
                limit?: number;
                machineId?: string;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Sort field (name, createdAt, status, gameType, playersOnline); a leading - sorts descending. */
                sort?: string;
                status?: "INSTALLING" | "INSTALL_FAILED" | "OFFLINE" | "STARTING" | "ONLINE" | "UNRESPONSIVE" | "STOPPING" | "RESTARTING" | "CRASHED" | "UNKNOWN";
            };
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Servers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Server"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createServer: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    acceptEula?: boolean;
                    /** @description Install the game at once (an INSTALL job). Default: true when the server runs its game's default start command (no startCommand of its own), else false. */
                    autoInstall?: boolean;
                    autoRestart?: boolean;
                    /**
                     * @description Completed backups kept (1..100, default 5): the oldest beyond it are deleted when a backup completes.
                     * @example 5
                     */
                    backupRetention?: number;
                    /** @description CUSTOM servers: where console commands go. RCON: Source RCON on rconPort; STDIN: the process’s standard input (the answer is the output that follows); NONE: no console (console commands are refused with 409). null: RCON. */
                    consoleMode?: ("RCON" | "STDIN" | "NONE") | null;
                    /**
                     * @description CPU limit in percent of one core (1..102400; 150 = one and a half cores); null: no limit.
                     * @example 200
                     */
                    cpuLimitPercent?: number | null;
                    env?: {
                        [key: string]: string;
                    } | null;
                    /** @description Absent: picked free from the machine’s port ranges (docs/servers.md#ports-and-allocations). */
                    gamePort?: number;
                    /** @enum {string} */
                    gameType: "MINECRAFT" | "RUST" | "ARK_SURVIVAL_EVOLVED" | "CS2" | "VALHEIM" | "CUSTOM";
                    /** @description CUSTOM servers: the command an INSTALL or UPDATE runs in the server directory (split like a shell command line, not run by a shell). */
                    installCommand?: string | null;
                    /** Format: uuid */
                    machineId: string;
                    maxPlayers?: number;
                    /**
                     * @description Memory limit of the game process in MiB (64..1048576); null: no limit.
                     * @example 8192
                     */
                    memoryLimitMb?: number | null;
                    name: string;
                    /** @description Extra named ports, explicit (e.g. `{"app": 28082}`); those of its game not given here are picked. */
                    ports?: {
                        [key: string]: number;
                    };
                    queryPort?: number;
                    /** @description How the server is queried: A2S, MINECRAFT (Server List Ping), TCP (connect only), NONE; null: its game’s. */
                    queryProtocol?: ("A2S" | "MINECRAFT" | "TCP" | "NONE") | null;
                    rconPassword?: string;
                    rconPort?: number;
                    /**
                     * @description CUSTOM servers: when the server counts as ONLINE. LINE: an output line matches `pattern`; PORT: `port` (default gamePort) accepts a TCP connection; RCON: RCON answers on rconPort; IMMEDIATE: as soon as the process runs. null: RCON (the CUSTOM default).
                     * @example {
                     *       "mode": "LINE",
                     *       "pattern": "Server started",
                     *       "timeoutSeconds": 120
                     *     }
                     */
                    ready?: {
                        /** @enum {string} */
                        mode: "LINE" | "PORT" | "RCON" | "IMMEDIATE";
                        /** @description LINE: a regular expression (JavaScript syntax, run in linear time: no backreferences, lookahead or lookbehind) that an output line (its first 1024 characters) must match, e.g. `Server started`. */
                        pattern?: string;
                        /** @description PORT: the TCP port on 127.0.0.1 that must accept a connection: one of the server’s own ports (default its gamePort; a UDP-only port never accepts one). */
                        port?: number;
                        /** @description How long STARTING may last before the server is CRASHED (default 300, at most 420). */
                        timeoutSeconds?: number;
                    } | null;
                    restartWhenUnresponsive?: boolean;
                    startCommand?: string | null;
                    /**
                     * @description CUSTOM servers: how a STOP asks the game to exit. COMMAND: `command` on the console; SIGNAL: `signal` to the process. After `graceSeconds` it is killed. null: the RCON command `quit`, then SIGTERM, then SIGKILL.
                     * @example {
                     *       "mode": "SIGNAL",
                     *       "signal": "SIGINT",
                     *       "graceSeconds": 20
                     *     }
                     */
                    stop?: {
                        /** @description COMMAND: sent on the console, e.g. `stop`. */
                        command?: string;
                        /** @description How long the server may take to exit before SIGTERM (default 30, at most 120); SIGKILL follows 30 s later. */
                        graceSeconds?: number;
                        /** @enum {string} */
                        mode: "COMMAND" | "SIGNAL";
                        /** @enum {string} */
                        signal?: "SIGINT" | "SIGTERM" | "SIGQUIT" | "SIGHUP" | "SIGUSR1" | "SIGUSR2";
                    } | null;
                    /** @description The game template to run (GET /api/v1/templates). Default: the gameType's built-in one (none for CUSTOM). */
                    templateId?: string;
                    /**
                     * @description Failed queries in a row after which an ONLINE server is UNRESPONSIVE (default 5).
                     * @example 5
                     */
                    unresponsiveAfter?: number;
                    /** @description Values of the template's variables, by name; each checked against the variable's validation. */
                    variables?: {
                        [key: string]: string;
                    };
                    /**
                     * @description The game version to install: MINECRAFT a release or snapshot id (e.g. `1.21.4`), `latest` or null for the latest release.
                     * @example 1.21.4
                     */
                    version?: string | null;
                };
            };
        };
        responses: {
            /** @description The server */
            201: {
                headers: {
                    /** @description The INSTALL job, when the game is installed at once */
                    "GSM-Install-Job"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Server"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A port is taken on that machine */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "A port is taken on that machine",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTasks: {
        parameters: {
            query?: {
                enabled?: boolean;
                /** @description Page size, 1..100. */
                limit?: number;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Sort field (name, createdAt, nextRunAt, lastRunAt); a leading - sorts descending. */
                sort?: string;
            };
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tasks */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Task"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTask: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    enabled?: boolean;
                    name: string;
                    onlyWhenOnline?: boolean;
                    /**
                     * @description 5-field cron: minute hour day-of-month month day-of-week (names like `mon` and `jan` allowed).
                     * @example 0 4 * * *
                     */
                    schedule: string;
                    serverIds: string[];
                    steps: components["schemas"]["TaskStep"][];
                    /**
                     * @description IANA time zone the schedule is read in (default UTC).
                     * @example Europe/Berlin
                     */
                    timezone?: string;
                };
            };
        };
        responses: {
            /** @description The task */
            201: {
                headers: {
                    /** @description The task */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Task"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listClusterTemplates: {
        parameters: {
            query?: {
                /** @description Page size, 1..100. */
                limit?: number;
                /** @description Part of the name or id, in any case. */
                name?: string;
                /** @description Page number, from 1. */
                page?: number;
                /** @description A tag the template has. */
                tag?: string;
            };
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Templates (without their documents) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TemplateSummary"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createClusterTemplate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TemplateDocument"];
            };
        };
        responses: {
            /** @description The template */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The cluster has a template with that id (slug) already */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The cluster has a template with that id (slug) already",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClusterTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clusterId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The template with its document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteClusterTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clusterId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Servers use it */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "Servers use it",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateClusterTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clusterId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TemplateDocument"];
            };
        };
        responses: {
            /** @description The template */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    importEgg: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The template’s id; default: a slug of the egg’s name. */
                    id?: string;
                    /** @description The egg itself: PTDL_v1 or PTDL_v2 JSON, PLCN_v1 to PLCN_v3 JSON or YAML. */
                    text?: string;
                    /** @description Where to read the egg: http(s), public addresses only unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=true, redirects not followed, at most 512 KiB within 10 s. */
                    url?: string;
                };
            };
        };
        responses: {
            /** @description The template, and what the import could not map */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateImport"];
                };
            };
            /** @description Not an egg of these formats (each problem named), or the URL could not be read */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The cluster has a template with that id (slug) already */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The cluster has a template with that id (slug) already",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description Page size, 1..100. */
                limit?: number;
                /** @description Page number, from 1. */
                page?: number;
            };
            header?: never;
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Webhooks (without their secrets) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                clusterId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    enabled?: boolean;
                    /** @description Event types (server.status, machine.status, job.updated, player.joined, player.left, ban.created, ban.revoked, task.run.finished, webhook.disabled, server.transferred, webhook.dropped), or ["*"] for all */
                    events: string[];
                    format?: string;
                    /** @description http or https URL without credentials; private and loopback addresses are refused unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=true */
                    url: string;
                };
            };
        };
        responses: {
            /** @description The webhook, with its secret */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The cluster has 20 webhooks already */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The cluster has 20 webhooks already",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCluster: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cluster */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cluster"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteCluster: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateCluster: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    /** @description Default file deny list for the cluster's servers whose template has none; [] for none. */
                    fileDenyList?: string[];
                    name?: string;
                };
            };
        };
        responses: {
            /** @description The updated cluster */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cluster"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description The cluster joined */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cluster"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not pending, or already a member */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "Not pending, or already a member",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    previewInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description The invitation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationPreview"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No invitation has this token */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "No invitation has this token",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getJob: {
        parameters: {
            query?: {
                /** @description Seconds to wait for the job to end (0..60). */
                wait?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancelled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Cancel sent to the agent */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The job has ended */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The job has ended",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMachine: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The machine */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Machine"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeMachine: {
        parameters: {
            query?: {
                force?: boolean;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The machine still hosts servers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The machine still hosts servers",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setMachineAddresses: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The addresses players reach this machine at (IPv4, IPv6 or host names), in the order shown.
                     * @example [
                     *       "203.0.113.10"
                     *     ]
                     */
                    addresses: string[];
                };
            };
        };
        responses: {
            /** @description Its allocations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MachineAllocations"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMachineAllocations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Its allocations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MachineAllocations"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createMachineInstallCode: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The install line */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MachineInstallCode"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMachineMetrics: {
        parameters: {
            query?: {
                from?: string;
                step?: "1m" | "5m" | "15m" | "1h" | "6h" | "1d";
                to?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Points, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MachineMetricsHistory"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPortRange: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    firstPort: number;
                    lastPort: number;
                };
            };
        };
        responses: {
            /** @description The range */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortRange"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description It overlaps a range of the machine */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "It overlaps a range of the machine",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deletePortRange: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                rangeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateAgentToken: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new agent token */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentTokenRotated"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPlayer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The player */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlayerDetail"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updatePlayer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Replaces the set */
                    flags?: string[];
                    /** @description Adds a note by the caller */
                    notes?: string;
                };
            };
        };
        responses: {
            /** @description The player */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        flags: string[];
                        id: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    banPlayer: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default false */
                    clusterWide?: boolean;
                    /** @description Seconds; null or absent: permanent */
                    duration?: number | null;
                    /** @default  */
                    reason?: string;
                    /**
                     * Format: uuid
                     * @description Required unless clusterWide
                     */
                    serverId?: string;
                };
            };
        };
        responses: {
            /** @description The ban and its jobs */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BanAnswer"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    kickPlayer: {
        parameters: {
            query?: {
                /** @description Seconds to wait for the kick to happen (0..60, default 10). */
                wait?: number;
            };
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default  */
                    reason?: string;
                    /**
                     * Format: uuid
                     * @description Default: the player's current server
                     */
                    serverId?: string;
                };
            };
        };
        responses: {
            /** @description Done */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KickAnswer"];
                };
            };
            /** @description Still on its way */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KickAnswer"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The player is not on that server */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The player is not on that server",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recordPurchase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    amount: number;
                    currency?: string;
                    productName: string;
                };
            };
        };
        responses: {
            /** @description The purchase */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Purchase"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPlayerSessions: {
        parameters: {
            query?: {
                /** @description Page size, 1..100. */
                limit?: number;
                /** @description Page number, from 1. */
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sessions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Session"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    unbanPlayer: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bans revoked and their jobs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnbanAnswer"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The player has no active ban */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The player has no active ban",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    executeRconCommand: {
        parameters: {
            query?: {
                /** @description Seconds to wait for the job to end (0..60). */
                wait?: number;
            };
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    command: string;
                    /** Format: uuid */
                    serverId: string;
                };
            };
        };
        responses: {
            /** @description The command ran */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RconAnswer"];
                };
            };
            /** @description Still running */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RconAnswer"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is not running, or has no console (consoleMode NONE) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The server is not running, or has no console (consoleMode NONE)",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listServers: {
        parameters: {
            query?: {
                clusterId?: string;
                game?: "MINECRAFT" | "RUST" | "ARK_SURVIVAL_EVOLVED" | "CS2" | "VALHEIM" | "CUSTOM";
                gameType?: "MINECRAFT" | "RUST" | "ARK_SURVIVAL_EVOLVED" | "CS2" | "VALHEIM" | "CUSTOM";
                /** @description Page size, 1..100. */
                limit?: number;
                machineId?: string;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Sort field (name, createdAt, status, gameType, playersOnline); a leading - sorts descending. */
                sort?: string;
                status?: "INSTALLING" | "INSTALL_FAILED" | "OFFLINE" | "STARTING" | "ONLINE" | "UNRESPONSIVE" | "STOPPING" | "RESTARTING" | "CRASHED" | "UNKNOWN";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Servers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Server"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createServerWithClusterId: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    acceptEula?: boolean;
                    /** @description Install the game at once (an INSTALL job). Default: true when the server runs its game's default start command (no startCommand of its own), else false. */
                    autoInstall?: boolean;
                    autoRestart?: boolean;
                    /**
                     * @description Completed backups kept (1..100, default 5): the oldest beyond it are deleted when a backup completes.
                     * @example 5
                     */
                    backupRetention?: number;
                    /** Format: uuid */
                    clusterId: string;
                    /** @description CUSTOM servers: where console commands go. RCON: Source RCON on rconPort; STDIN: the process’s standard input (the answer is the output that follows); NONE: no console (console commands are refused with 409). null: RCON. */
                    consoleMode?: ("RCON" | "STDIN" | "NONE") | null;
                    /**
                     * @description CPU limit in percent of one core (1..102400; 150 = one and a half cores); null: no limit.
                     * @example 200
                     */
                    cpuLimitPercent?: number | null;
                    env?: {
                        [key: string]: string;
                    } | null;
                    /** @description Absent: picked free from the machine’s port ranges (docs/servers.md#ports-and-allocations). */
                    gamePort?: number;
                    /** @enum {string} */
                    gameType: "MINECRAFT" | "RUST" | "ARK_SURVIVAL_EVOLVED" | "CS2" | "VALHEIM" | "CUSTOM";
                    /** @description CUSTOM servers: the command an INSTALL or UPDATE runs in the server directory (split like a shell command line, not run by a shell). */
                    installCommand?: string | null;
                    /** Format: uuid */
                    machineId: string;
                    maxPlayers?: number;
                    /**
                     * @description Memory limit of the game process in MiB (64..1048576); null: no limit.
                     * @example 8192
                     */
                    memoryLimitMb?: number | null;
                    name: string;
                    /** @description Extra named ports, explicit (e.g. `{"app": 28082}`); those of its game not given here are picked. */
                    ports?: {
                        [key: string]: number;
                    };
                    queryPort?: number;
                    /** @description How the server is queried: A2S, MINECRAFT (Server List Ping), TCP (connect only), NONE; null: its game’s. */
                    queryProtocol?: ("A2S" | "MINECRAFT" | "TCP" | "NONE") | null;
                    rconPassword?: string;
                    rconPort?: number;
                    /**
                     * @description CUSTOM servers: when the server counts as ONLINE. LINE: an output line matches `pattern`; PORT: `port` (default gamePort) accepts a TCP connection; RCON: RCON answers on rconPort; IMMEDIATE: as soon as the process runs. null: RCON (the CUSTOM default).
                     * @example {
                     *       "mode": "LINE",
                     *       "pattern": "Server started",
                     *       "timeoutSeconds": 120
                     *     }
                     */
                    ready?: {
                        /** @enum {string} */
                        mode: "LINE" | "PORT" | "RCON" | "IMMEDIATE";
                        /** @description LINE: a regular expression (JavaScript syntax, run in linear time: no backreferences, lookahead or lookbehind) that an output line (its first 1024 characters) must match, e.g. `Server started`. */
                        pattern?: string;
                        /** @description PORT: the TCP port on 127.0.0.1 that must accept a connection: one of the server’s own ports (default its gamePort; a UDP-only port never accepts one). */
                        port?: number;
                        /** @description How long STARTING may last before the server is CRASHED (default 300, at most 420). */
                        timeoutSeconds?: number;
                    } | null;
                    restartWhenUnresponsive?: boolean;
                    startCommand?: string | null;
                    /**
                     * @description CUSTOM servers: how a STOP asks the game to exit. COMMAND: `command` on the console; SIGNAL: `signal` to the process. After `graceSeconds` it is killed. null: the RCON command `quit`, then SIGTERM, then SIGKILL.
                     * @example {
                     *       "mode": "SIGNAL",
                     *       "signal": "SIGINT",
                     *       "graceSeconds": 20
                     *     }
                     */
                    stop?: {
                        /** @description COMMAND: sent on the console, e.g. `stop`. */
                        command?: string;
                        /** @description How long the server may take to exit before SIGTERM (default 30, at most 120); SIGKILL follows 30 s later. */
                        graceSeconds?: number;
                        /** @enum {string} */
                        mode: "COMMAND" | "SIGNAL";
                        /** @enum {string} */
                        signal?: "SIGINT" | "SIGTERM" | "SIGQUIT" | "SIGHUP" | "SIGUSR1" | "SIGUSR2";
                    } | null;
                    /** @description The game template to run (GET /api/v1/templates). Default: the gameType's built-in one (none for CUSTOM). */
                    templateId?: string;
                    /**
                     * @description Failed queries in a row after which an ONLINE server is UNRESPONSIVE (default 5).
                     * @example 5
                     */
                    unresponsiveAfter?: number;
                    /** @description Values of the template's variables, by name; each checked against the variable's validation. */
                    variables?: {
                        [key: string]: string;
                    };
                    /**
                     * @description The game version to install: MINECRAFT a release or snapshot id (e.g. `1.21.4`), `latest` or null for the latest release.
                     * @example 1.21.4
                     */
                    version?: string | null;
                };
            };
        };
        responses: {
            /** @description The server */
            201: {
                headers: {
                    /** @description The INSTALL job, when the game is installed at once */
                    "GSM-Install-Job"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Server"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A port is taken on that machine */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "A port is taken on that machine",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getServer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The server */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Server"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteServer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateServer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    acceptEula?: boolean;
                    autoRestart?: boolean;
                    /**
                     * @description Completed backups kept (1..100, default 5): the oldest beyond it are deleted when a backup completes.
                     * @example 5
                     */
                    backupRetention?: number;
                    /** @description CUSTOM servers: where console commands go. RCON: Source RCON on rconPort; STDIN: the process’s standard input (the answer is the output that follows); NONE: no console (console commands are refused with 409). null: RCON. */
                    consoleMode?: ("RCON" | "STDIN" | "NONE") | null;
                    /**
                     * @description CPU limit in percent of one core (1..102400; 150 = one and a half cores); null: no limit.
                     * @example 200
                     */
                    cpuLimitPercent?: number | null;
                    env?: {
                        [key: string]: string;
                    } | null;
                    gamePort?: number;
                    /** @description CUSTOM servers: the command an INSTALL or UPDATE runs in the server directory (split like a shell command line, not run by a shell). */
                    installCommand?: string | null;
                    maxPlayers?: number;
                    /**
                     * @description Memory limit of the game process in MiB (64..1048576); null: no limit.
                     * @example 8192
                     */
                    memoryLimitMb?: number | null;
                    name?: string;
                    /** @description Extra named ports, explicit (e.g. `{"app": 28082}`); those of its game not given here are picked. */
                    ports?: {
                        [key: string]: number;
                    };
                    queryPort?: number;
                    /** @description How the server is queried: A2S, MINECRAFT (Server List Ping), TCP (connect only), NONE; null: its game’s. */
                    queryProtocol?: ("A2S" | "MINECRAFT" | "TCP" | "NONE") | null;
                    rconPassword?: string;
                    rconPort?: number;
                    /**
                     * @description CUSTOM servers: when the server counts as ONLINE. LINE: an output line matches `pattern`; PORT: `port` (default gamePort) accepts a TCP connection; RCON: RCON answers on rconPort; IMMEDIATE: as soon as the process runs. null: RCON (the CUSTOM default).
                     * @example {
                     *       "mode": "LINE",
                     *       "pattern": "Server started",
                     *       "timeoutSeconds": 120
                     *     }
                     */
                    ready?: {
                        /** @enum {string} */
                        mode: "LINE" | "PORT" | "RCON" | "IMMEDIATE";
                        /** @description LINE: a regular expression (JavaScript syntax, run in linear time: no backreferences, lookahead or lookbehind) that an output line (its first 1024 characters) must match, e.g. `Server started`. */
                        pattern?: string;
                        /** @description PORT: the TCP port on 127.0.0.1 that must accept a connection: one of the server’s own ports (default its gamePort; a UDP-only port never accepts one). */
                        port?: number;
                        /** @description How long STARTING may last before the server is CRASHED (default 300, at most 420). */
                        timeoutSeconds?: number;
                    } | null;
                    restartWhenUnresponsive?: boolean;
                    startCommand?: string | null;
                    /**
                     * @description CUSTOM servers: how a STOP asks the game to exit. COMMAND: `command` on the console; SIGNAL: `signal` to the process. After `graceSeconds` it is killed. null: the RCON command `quit`, then SIGTERM, then SIGKILL.
                     * @example {
                     *       "mode": "SIGNAL",
                     *       "signal": "SIGINT",
                     *       "graceSeconds": 20
                     *     }
                     */
                    stop?: {
                        /** @description COMMAND: sent on the console, e.g. `stop`. */
                        command?: string;
                        /** @description How long the server may take to exit before SIGTERM (default 30, at most 120); SIGKILL follows 30 s later. */
                        graceSeconds?: number;
                        /** @enum {string} */
                        mode: "COMMAND" | "SIGNAL";
                        /** @enum {string} */
                        signal?: "SIGINT" | "SIGTERM" | "SIGQUIT" | "SIGHUP" | "SIGUSR1" | "SIGUSR2";
                    } | null;
                    templateId?: string | null;
                    /**
                     * @description Failed queries in a row after which an ONLINE server is UNRESPONSIVE (default 5).
                     * @example 5
                     */
                    unresponsiveAfter?: number;
                    /** @description Values to set (the others stay as they are); an empty text sets the default again. */
                    variables?: {
                        [key: string]: string;
                    };
                    /**
                     * @description The game version to install: MINECRAFT a release or snapshot id (e.g. `1.21.4`), `latest` or null for the latest release.
                     * @example 1.21.4
                     */
                    version?: string | null;
                };
            };
        };
        responses: {
            /** @description The server */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Server"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A port is taken on that machine */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "A port is taken on that machine",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listBackups: {
        parameters: {
            query?: {
                /** @description Page size, 1..100. */
                limit?: number;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Sort field (createdAt); a leading - sorts descending. */
                sort?: string;
                status?: "PENDING" | "COMPLETED" | "FAILED";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Backups */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Backup"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createBackup: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Default: `backup <date and time, UTC>`. */
                    name?: string;
                    /** @description true: fail the backup rather than archive a running server that cannot be flushed (any running game but an ONLINE MINECRAFT server that answers `save-off`). Default false: such a backup completes with `consistent: false`, and its job’s `result.inconsistentReason` says why. */
                    requireConsistent?: boolean;
                };
            };
        };
        responses: {
            /** @description The BACKUP job, accepted */
            202: {
                headers: {
                    /** @description The backup */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getServerConsole: {
        parameters: {
            query?: {
                /** @description A console sequence: the lines after it */
                after?: number;
                /** @description How many lines (1..1000; default 100, or 1000 with `after`): the last ones, or with `after` the first ones after it */
                lines?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The recent console */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Console"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listServerFiles: {
        parameters: {
            query?: {
                /** @description The previous page's `next` (a cursor) */
                after?: string;
                limit?: number;
                path?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the directory */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileList"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteServerFile: {
        parameters: {
            query: {
                path: string;
                recursive?: "true" | "false";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    chmodServerFile: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 0–0777 (511) */
                    mode: number;
                    path: string;
                };
            };
        };
        responses: {
            /** @description The entry */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileEntry"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    compressServerFiles: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The archive to write (replaced if it exists) */
                    archive: string;
                    /** @description Files and directories to compress, all in one directory */
                    paths: string[];
                };
            };
        };
        responses: {
            /** @description The FILE_COMPRESS job, accepted */
            202: {
                headers: {
                    /** @description The job */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    readServerFile: {
        parameters: {
            query: {
                /** @description `raw`: the bytes (Range, download); `text`: JSON with the content of a text file ≤ 1 MiB */
                format?: "raw" | "text";
                path: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file (bytes), or its text (JSON) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileText"];
                };
            };
            /** @description A range of the file */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too large to show as text */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "Too large to show as text",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not text */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "Not text",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The range is outside the file */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 416,
                     *       "message": "The range is outside the file",
                     *       "error": "Range Not Satisfiable"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    writeServerFile: {
        parameters: {
            query: {
                path: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Written */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileWriteResult"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The file changed since the version in If-Match */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 412,
                     *       "message": "The file changed since the version in If-Match",
                     *       "error": "Precondition Failed"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Larger than the upload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "Larger than the upload limit",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    copyServerFile: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    from: string;
                    to: string;
                };
            };
        };
        responses: {
            /** @description The copy */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileEntry"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createServerDirectory: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    path: string;
                    /** @default true */
                    recursive?: boolean;
                };
            };
        };
        responses: {
            /** @description The directory */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileEntry"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    extractServerArchive: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The directory to extract into (made when missing); default the archive's own directory */
                    destination?: string;
                    /** @description The archive */
                    path: string;
                };
            };
        };
        responses: {
            /** @description The FILE_EXTRACT job, accepted */
            202: {
                headers: {
                    /** @description The job */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pullServerFile: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The file to write (replaced if it exists) */
                    path: string;
                    /** @description An http(s) URL, under the same address rules as webhooks */
                    url: string;
                };
            };
        };
        responses: {
            /** @description The FILE_PULL job, accepted */
            202: {
                headers: {
                    /** @description The job */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    renameServerFile: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    from: string;
                    /** @default false */
                    overwrite?: boolean;
                    to: string;
                };
            };
        };
        responses: {
            /** @description The entry at its new path */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileEntry"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    searchServerFiles: {
        parameters: {
            query?: {
                /** @description A substring of text files’ contents */
                content?: string;
                maxDepth?: number;
                maxFiles?: number;
                maxResults?: number;
                /** @description A case-insensitive substring of names, or a glob with `*` and `?` */
                name?: string;
                path?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matches */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileSearchResult"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getServerFile: {
        parameters: {
            query: {
                path: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entry */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileEntry"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startServerFileUpload: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The ETag the file must still have when the upload completes (`*`: it exists; `none`: it does not) */
                    ifMatch?: string;
                    path: string;
                    /** @description The whole file’s size in bytes */
                    size: number;
                };
            };
        };
        responses: {
            /** @description The upload */
            201: {
                headers: {
                    /** @description The upload */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileUpload"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Larger than the upload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "Larger than the upload limit",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getServerFileUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                uploadId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The upload */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileUpload"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelServerFileUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                uploadId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancelled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    continueServerFileUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                uploadId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The upload after these bytes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileUpload"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Upload-Offset is not the current offset */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "Upload-Offset is not the current offset",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The target changed meanwhile */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 412,
                     *       "message": "The target changed meanwhile",
                     *       "error": "Precondition Failed"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listServerFileVersions: {
        parameters: {
            query: {
                path: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Versions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FileVersion"][];
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getServerFileVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                versionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The version and its content */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileVersionContent"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    diffServerFileVersion: {
        parameters: {
            query?: {
                /** @description `current` (the file as it is now) or another version id */
                against?: string;
            };
            header?: never;
            path: {
                id: string;
                versionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The diff */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileDiff"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    restoreServerFileVersion: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
                versionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ifMatch?: string;
                };
            };
        };
        responses: {
            /** @description Written */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileWriteResult"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The file changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 412,
                     *       "message": "The file changed",
                     *       "error": "Precondition Failed"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    installServer: {
        parameters: {
            query?: {
                /** @description Seconds to wait for the job to end (0..60). */
                wait?: number;
            };
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The finished job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description The job, accepted */
            202: {
                headers: {
                    /** @description The job */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is running, or it is a CUSTOM server without installCommand */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The server is running, or it is a CUSTOM server without installCommand",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    killServer: {
        parameters: {
            query?: {
                /** @description Seconds to wait for the job to end (0..60). */
                wait?: number;
            };
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The finished job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description The job, accepted */
            202: {
                headers: {
                    /** @description The job */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getServerMetrics: {
        parameters: {
            query?: {
                from?: string;
                step?: "1m" | "5m" | "15m" | "1h" | "6h" | "1d";
                to?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Points, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerMetrics"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listServerPlayers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Online players */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerPlayers"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    runRconCommand: {
        parameters: {
            query?: {
                /** @description Seconds to wait for the job to end (0..60). */
                wait?: number;
            };
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    command: string;
                };
            };
        };
        responses: {
            /** @description The command ran */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RconAnswer"];
                };
            };
            /** @description Still running */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RconAnswer"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is not running, or has no console (consoleMode NONE) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The server is not running, or has no console (consoleMode NONE)",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    restartServer: {
        parameters: {
            query?: {
                /** @description Seconds to wait for the job to end (0..60). */
                wait?: number;
            };
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The finished job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description The job, accepted */
            202: {
                headers: {
                    /** @description The job */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server was never installed: its install failed or never ran (the message says why; install it first) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The server was never installed: its install failed or never ran (the message says why; install it first)",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startServer: {
        parameters: {
            query?: {
                /** @description Seconds to wait for the job to end (0..60). */
                wait?: number;
            };
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The finished job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description The job, accepted */
            202: {
                headers: {
                    /** @description The job */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server was never installed: its install failed or never ran (the message says why; install it first) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The server was never installed: its install failed or never ran (the message says why; install it first)",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    stopServer: {
        parameters: {
            query?: {
                /** @description Seconds to wait for the job to end (0..60). */
                wait?: number;
            };
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The finished job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description The job, accepted */
            202: {
                headers: {
                    /** @description The job */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    transferServer: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransferRequest"];
            };
        };
        responses: {
            /** @description The TRANSFER job, accepted */
            202: {
                headers: {
                    /** @description The job */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description The target is not another machine of the server’s cluster */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A transfer of the server is under way, a job of the server is (`JOB_IN_PROGRESS`), a port asked for is taken on the target, or the target’s last reported free space cannot hold the server, its backups when they follow and the other transfers to it (`NO_SPACE`, with `freeBytes`, `neededBytes`, `reservedBytes`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "A transfer of the server is under way, a job of the server is (`JOB_IN_PROGRESS`), a port asked for is taken on the target, or the target’s last reported free space cannot hold the server, its backups when they follow and the other transfers to it (`NO_SPACE`, with `freeBytes`, `neededBytes`, `reservedBytes`)",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateServerGame: {
        parameters: {
            query?: {
                /** @description Seconds to wait for the job to end (0..60). */
                wait?: number;
            };
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The finished job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description The job, accepted */
            202: {
                headers: {
                    /** @description The job */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A CUSTOM server without installCommand */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "A CUSTOM server without installCommand",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Task"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    enabled?: boolean;
                    name?: string;
                    onlyWhenOnline?: boolean;
                    /**
                     * @description 5-field cron: minute hour day-of-month month day-of-week (names like `mon` and `jan` allowed).
                     * @example 0 4 * * *
                     */
                    schedule?: string;
                    serverIds?: string[];
                    steps?: components["schemas"]["TaskStep"][];
                    /**
                     * @description IANA time zone the schedule is read in (default UTC).
                     * @example Europe/Berlin
                     */
                    timezone?: string;
                };
            };
        };
        responses: {
            /** @description The task */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Task"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    runTask: {
        parameters: {
            query?: {
                /** @description Seconds to wait for the job to end (0..60). */
                wait?: number;
            };
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The finished run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description The run, started */
            202: {
                headers: {
                    /** @description The job */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A run of the task is under way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "A run of the task is under way",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    previewTaskSchedule: {
        parameters: {
            query: {
                /** @description How many runs (1..20, default 5). */
                count?: number;
                /** @description 5-field cron: minute hour day-of-month month day-of-week (names like `mon` and `jan` allowed). */
                schedule: string;
                /** @description IANA time zone the schedule is read in (default UTC). */
                timezone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The next runs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SchedulePreview"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTemplates: {
        parameters: {
            query?: {
                /** @description Only this cluster’s own templates. */
                clusterId?: string;
                /** @description Page size, 1..100. */
                limit?: number;
                /** @description Part of the name or id, in any case. */
                name?: string;
                /** @description Page number, from 1. */
                page?: number;
                /** @description A tag the template has. */
                tag?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Templates (without their documents) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TemplateSummary"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The template with its document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such template you can see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "No such template you can see",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    enabled?: boolean;
                    /** @description Event types (server.status, machine.status, job.updated, player.joined, player.left, ban.created, ban.revoked, task.run.finished, webhook.disabled, server.transferred, webhook.dropped), or ["*"] for all */
                    events?: string[];
                    format?: string;
                    /** @description http or https URL without credentials; private and loopback addresses are refused unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=true */
                    url?: string;
                };
            };
        };
        responses: {
            /** @description The webhook */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Page size, 1..100. */
                limit?: number;
                /** @description Page number, from 1. */
                page?: number;
                status?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deliveries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deliveryId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                deliveryId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, PENDING again */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Being sent right now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "Being sent right now",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test delivery */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not Found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    signInWithDiscordAlias: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider */
            302: {
                headers: {
                    /** @description The provider sign-in page */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An Authorization header was sent (to link an account) but its token is not valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "An Authorization header was sent (to link an account) but its token is not valid",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Discord sign-in is not configured */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Discord sign-in is not configured",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    discordSignInCallbackAlias: {
        parameters: {
            query: {
                code?: string;
                error?: string;
                error_description?: string;
                state: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed in (OAUTH_REDIRECT_URL unset) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            /** @description Signed in (OAUTH_REDIRECT_URL set) */
            302: {
                headers: {
                    /** @description OAUTH_REDIRECT_URL#accessToken=…&refreshToken=…&tokenType=Bearer&expiresIn=86400 */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, malformed, expired or foreign `state` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The provider did not confirm the sign-in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "The provider did not confirm the sign-in",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No user has this provider account and registration is closed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "No user has this provider account and registration is closed",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Discord sign-in is not configured */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Discord sign-in is not configured",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Linking: the provider account belongs to another user */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "Linking: the provider account belongs to another user",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The provider could not be reached */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The provider could not be reached",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startDiscordSignInAlias: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Started from this installation’s dashboard: a random value the page keeps. The callback returns to the dashboard (`/#accessToken=…&nonce=<this value>`), which accepts the pair only with its own value, so a link carrying someone else’s tokens cannot sign a browser in.
                     * @example k3J9x0Qm2bV7nW1pZs8tYc
                     */
                    dashboard?: string;
                    /** @description An invitation's token: the sign-in joins its cluster, creating the account if needed. */
                    invitation?: string;
                };
            };
        };
        responses: {
            /** @description The provider's sign-in page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthStart"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Authorization header was sent (to link an account) but its token is not valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "An Authorization header was sent (to link an account) but its token is not valid",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Discord sign-in is not configured, or no invitation has this token */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Discord sign-in is not configured, or no invitation has this token",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The invitation is no longer pending */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The invitation is no longer pending",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    loginAlias: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Signed in */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    logoutAlias: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first answer to this key for 24 h; another body with the same key is 422. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Unauthorized",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Forbidden",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    requestPasswordResetAlias: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Sent if the account exists */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description E-mail is not configured */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "E-mail is not configured",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    confirmPasswordResetAlias: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description Password changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description The link is invalid, expired or used */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    refreshSessionAlias: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    refreshToken: string;
                };
            };
        };
        responses: {
            /** @description A new token pair */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    registerAlias: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    displayName: string;
                    /** Format: email */
                    email: string;
                    /** @description A pending invitation's token for this e-mail: the account is created whatever ALLOW_REGISTRATION says, and joins the cluster. */
                    invitationToken?: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Account created and signed in */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        accessToken: string;
                        /** @description Seconds the access token is valid (86400). */
                        expiresIn: number;
                        refreshToken: string;
                        /** @constant */
                        tokenType: "Bearer";
                        user: components["schemas"]["User"];
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Registration is closed (and no invitation was given), or the invitation is for another e-mail */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "Registration is closed (and no invitation was given), or the invitation is for another e-mail",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No invitation has this token */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "No invitation has this token",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description E-mail already registered, or the invitation is no longer pending */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "E-mail already registered, or the invitation is no longer pending",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    signInWithSteamAlias: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider */
            302: {
                headers: {
                    /** @description The provider sign-in page */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An Authorization header was sent (to link an account) but its token is not valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "An Authorization header was sent (to link an account) but its token is not valid",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    steamSignInCallbackAlias: {
        parameters: {
            query: {
                "openid.assoc_handle"?: string;
                "openid.claimed_id"?: string;
                "openid.identity"?: string;
                "openid.mode": string;
                "openid.ns"?: string;
                "openid.op_endpoint"?: string;
                "openid.response_nonce"?: string;
                "openid.return_to"?: string;
                "openid.sig"?: string;
                "openid.signed"?: string;
                state: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed in (OAUTH_REDIRECT_URL unset) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            /** @description Signed in (OAUTH_REDIRECT_URL set) */
            302: {
                headers: {
                    /** @description OAUTH_REDIRECT_URL#accessToken=…&refreshToken=…&tokenType=Bearer&expiresIn=86400 */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, malformed, expired or foreign `state` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The provider did not confirm the sign-in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "The provider did not confirm the sign-in",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No user has this provider account and registration is closed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "No user has this provider account and registration is closed",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Linking: the provider account belongs to another user */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "Linking: the provider account belongs to another user",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The provider could not be reached */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The provider could not be reached",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startSteamSignInAlias: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Started from this installation’s dashboard: a random value the page keeps. The callback returns to the dashboard (`/#accessToken=…&nonce=<this value>`), which accepts the pair only with its own value, so a link carrying someone else’s tokens cannot sign a browser in.
                     * @example k3J9x0Qm2bV7nW1pZs8tYc
                     */
                    dashboard?: string;
                    /** @description An invitation's token: the sign-in joins its cluster, creating the account if needed. */
                    invitation?: string;
                };
            };
        };
        responses: {
            /** @description The provider's sign-in page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthStart"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": "Validation failed",
                     *       "error": "Bad Request",
                     *       "details": [
                     *         {
                     *           "field": "name",
                     *           "message": "must not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Authorization header was sent (to link an account) but its token is not valid */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "An Authorization header was sent (to link an account) but its token is not valid",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No invitation has this token */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "No invitation has this token",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The invitation is no longer pending */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The invitation is no longer pending",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too Many Requests",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDashboardAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The asset */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not modified (If-None-Match) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No such asset */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "No such asset",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is up */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                        uptimeSeconds: number;
                        version: string;
                    };
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInvitationPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTML page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPrometheusMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition format */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description METRICS_TOKEN is set and the request does not carry it */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description METRICS_TOKEN is not set: metrics are served on the metrics listener only */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOnboardingScript: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JavaScript */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checks: {
                            /** @constant */
                            database: "ok";
                            /** @constant */
                            migrations: "ok";
                            /** @constant */
                            redis?: "ok";
                        };
                        /** @constant */
                        status: "ready";
                    };
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is down; `details` says which */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPasswordResetPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTML page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "Internal Server Error",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
