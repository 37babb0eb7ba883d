/**
 * The service's configuration: one zod-parsed object read from the environment once at start-up.
 * Every setting documents its default here and in docs/configuration.md.
 */
import { z } from 'zod';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const portFromEnv = z.coerce
  .number({ message: 'expected a port number' })
  .int('expected a whole number')
  .min(0, 'expected 0..65535')
  .max(65535, 'expected 0..65535');

const positiveInt = z.coerce.number({ message: 'expected a number' }).int('expected a whole number').positive('expected a positive number');

const postgresUrl = z.string().refine((value) => /^postgres(ql)?:\/\//.test(value), 'expected a postgres:// or postgresql:// URL');

export const ROLES = ['all', 'web', 'orchestrator'] as const;
export type Role = (typeof ROLES)[number];

export const configSchema = z
  .object({
    /** HTTP port of the API (and, in the orchestrator and all-in-one roles, of the agent gateway). 0 picks a free port. */
    PORT: portFromEnv.default(3000),
    /** Interface the HTTP server binds to. */
    HOST: z.string().min(1).default('0.0.0.0'),
    /** Which parts this process runs: `all` (API + orchestrator), `web` (API only) or `orchestrator`. `--role=` overrides it. */
    ROLE: z.enum(ROLES).default('all'),
    /** Postgres connection string. Unset: an embedded Postgres is started with its data under DATA_DIR. */
    DATABASE_URL: postgresUrl.optional(),
    /** Where the embedded database, generated secrets and agent data live. */
    DATA_DIR: z.string().min(1).default('./data'),
    /** Port of the embedded Postgres. 0 picks a free port at every start. */
    EMBEDDED_POSTGRES_PORT: portFromEnv.default(0),
    /** Connections in the service's database pool. */
    DATABASE_POOL_SIZE: positiveInt.max(200, 'expected at most 200').default(10),
    /** pino log level. */
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** PASERK `k4.local.…` key for session access tokens. Unset: generated on first start and kept in DATA_DIR/secrets. */
    PASETO_KEY: z
      .string()
      .regex(/^k4\.local\.[A-Za-z0-9_-]{43}$/, 'expected a PASERK k4.local key')
      .optional(),
    /** The address clients use to reach this installation (docs link, agent connect hints). Default http://localhost:PORT. */
    PUBLIC_URL: z.url({ message: 'expected an absolute URL' }).optional(),
    /**
     * Origins of browser apps allowed to call the API (comma-separated, e.g. `https://panel.example.org`; `*`: any).
     * Default none: only pages of this installation's own origin.
     */
    CORS_ORIGINS: z
      .string()
      .transform((value, context) => {
        const origins = value
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part !== '');
        const out: string[] = [];
        for (const origin of origins) {
          if (origin === '*') {
            out.push('*');
            continue;
          }
          let parsed: URL | undefined;
          try {
            parsed = new URL(origin);
          } catch {
            parsed = undefined;
          }
          if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin.replace(/\/$/, '')) {
            context.addIssue({ code: 'custom', message: `${origin} is not an origin (scheme://host[:port], no path)` });
            return z.NEVER;
          }
          out.push(parsed.origin);
        }
        return out;
      })
      .default([]),
    /** Trust X-Forwarded-* headers from a reverse proxy (client IP, protocol). */
    TRUST_PROXY: booleanFromEnv.default(false),
    /** How long a shutdown waits for in-flight requests before closing their connections. */
    SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
    /** On SIGTERM: how long /readyz answers 503 (everything else still served) before the process stops accepting. */
    SHUTDOWN_READY_DELAY_MS: z.coerce.number().int().min(0, 'expected 0..300000').max(300_000, 'expected 0..300000').default(5_000),
    /** How often agents send heartbeats; three missed beats mark the machine OFFLINE. */
    AGENT_HEARTBEAT_SECONDS: positiveInt.max(3600, 'expected at most 3600').default(10),
    /**
     * How long a disconnected agent has to reconnect before its machine's servers become UNKNOWN (0: at once). An
     * agent restart or upgrade leaves the game servers running; within this time their status does not change.
     */
    AGENT_RECONNECT_GRACE_SECONDS: z.coerce
      .number({ message: 'expected a number' })
      .int('expected a whole number')
      .min(0)
      .max(600, 'expected at most 600')
      .default(15),
    /** How long a new gateway connection may take to send `auth`. */
    AGENT_AUTH_TIMEOUT_MS: positiveInt.default(10_000),
    /**
     * A prebuilt agent package (npm tarball) to serve at /agent/package.tgz and install by fleet upgrades, instead of the
     * one built from the service's own sources. Unset: built on first use.
     */
    AGENT_PACKAGE_FILE: z.string().min(1).optional(),
    /**
     * Agents reporting an older version (or another major version than the service's) are refused with
     * UNSUPPORTED_VERSION. Unset: the service's previous minor version (schema/agentVersions.ts).
     */
    MIN_AGENT_VERSION: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/, 'expected a version like 1.2.3')
      .optional(),
    /** `off` disables rate limiting (for installations behind their own limiter); `on` follows docs/access.md */
    RATE_LIMIT: z.enum(['on', 'off']).default('on'),
    /** redis:// URL. Set: rate-limit buckets (and later Socket.IO rooms) live in Redis, shared by every node. */
    REDIS_URL: z
      .string()
      .refine((value) => /^rediss?:\/\//.test(value), 'expected a redis:// or rediss:// URL')
      .optional(),
    /** Prefix of this installation's keys and channels in Redis (several installations may share one Redis). */
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9:_-]{1,64}$/, 'expected 1..64 letters, digits, colons, dashes or underscores')
      .default('gsm:'),
    /**
     * `true`: webhooks may point at private, loopback and link-local addresses (receivers on the installation's own
     * network). Default false: such targets are refused at creation and at every delivery (docs/webhooks.md).
     */
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: booleanFromEnv.default(false),
    /** Pending deliveries one webhook may have; past it the oldest are dropped and a `webhook.dropped` event recorded. */
    WEBHOOK_MAX_PENDING: z.coerce.number().int().min(100, 'expected 100..10000000').max(10_000_000, 'expected 100..10000000').default(10_000),
    /** How long resolving a webhook's host may take (c-ares, not the thread pool), in ms. */
    WEBHOOK_DNS_TIMEOUT_MS: z.coerce.number().int().min(100, 'expected 100..60000').max(60_000, 'expected 100..60000').default(5_000),
    /** Name servers for webhook deliveries, comma-separated `address` or `address:port` (`[v6]:port`); default the system's. */
    WEBHOOK_DNS_SERVERS: z
      .string()
      .transform((value, context) => {
        const servers = value
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean);
        const valid = servers.every((entry) => /^(?:\[[0-9A-Fa-f:.]+\](?::\d{1,5})?|[0-9A-Fa-f:]+|\d+\.\d+\.\d+\.\d+(?::\d{1,5})?)$/.test(entry));
        if (!valid || servers.length === 0) {
          context.addIssue({ code: 'custom', message: 'expected comma-separated IP addresses, each with an optional :port' });
          return z.NEVER;
        }
        return servers;
      })
      .optional(),
    /**
     * Where Prometheus metrics are served (`/metrics`), apart from the API: `host:port` (`[::1]:9464` for IPv6), or
     * `off`. Default loopback only: 127.0.0.1:9464, and 127.0.0.1:9465 for an orchestrator-only process, so the
     * Procfile's two roles can share a host; further processes on one host need a port each (or `off`).
     */
    METRICS_LISTEN: z
      .string()
      .transform((value, context) => {
        if (value === 'off') return null;
        const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(value);
        const port = Number(match?.[3]);
        if (!match || port > 65535) {
          context.addIssue({ code: 'custom', message: 'expected host:port (e.g. 127.0.0.1:9464 or [::1]:9464) or off' });
          return z.NEVER;
        }
        return { host: (match[1] ?? match[2])!, port };
      })
      .optional(),
    /**
     * Set: `/metrics` asks for `Authorization: Bearer <METRICS_TOKEN>` on the metrics listener, and is served on the API
     * port too (otherwise 404 there). At least 16 characters.
     */
    METRICS_TOKEN: z.string().min(16, 'expected at least 16 characters').max(1024).optional(),
    /** `true`: `gsm_players_online` is labelled per cluster (`cluster_id`); default false, one figure for all. */
    METRICS_CLUSTER_LABELS: booleanFromEnv.default(false),
    /** Metrics history (docs/metrics.md): minute points are kept this many days, hourly points this many. */
    METRICS_MINUTE_RETENTION_DAYS: z.coerce.number().int().min(1, 'expected 1..90').max(90, 'expected 1..90').default(14),
    METRICS_HOUR_RETENTION_DAYS: z.coerce.number().int().min(1, 'expected 1..3650').max(3650, 'expected 1..3650').default(400),
    /** Server files (docs/files.md): the largest file an upload may write (default 1 GiB). */
    FILES_MAX_UPLOAD_BYTES: z.coerce
      .number()
      .int()
      .min(1024, 'expected at least 1024')
      .max(Number.MAX_SAFE_INTEGER)
      .default(1024 * 1024 * 1024),
    /** Server files (docs/files.md#archives-and-pulls): an extraction writing more uncompressed bytes is refused (default 10 GiB). */
    FILES_EXTRACT_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024, 'expected at least 1024')
      .max(Number.MAX_SAFE_INTEGER)
      .default(10 * 1024 * 1024 * 1024),
    /** Server files: an archive with more entries is not extracted (default 100,000). */
    FILES_EXTRACT_MAX_ENTRIES: z.coerce.number().int().min(1, 'expected 1..10000000').max(10_000_000, 'expected 1..10000000').default(100_000),
    /** Server files: the largest file a pull from a URL writes (default 1 GiB). */
    FILES_PULL_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024, 'expected at least 1024')
      .max(Number.MAX_SAFE_INTEGER)
      .default(1024 * 1024 * 1024),
    /** Server files: a pull whose URL sends nothing for this long fails with TIMEOUT (default 60 s). */
    FILES_PULL_IDLE_SECONDS: z.coerce.number().int().min(1, 'expected 1..3600').max(3600, 'expected 1..3600').default(60),
    /** Server files: a pull's download takes at most this long, else it fails with TIMEOUT (default 1 hour). */
    FILES_PULL_MAX_SECONDS: z.coerce.number().int().min(1, 'expected 1..86400').max(86_400, 'expected 1..86400').default(3600),
    /** Server files: uploads and downloads of one server at the same time, per service process (default 4). */
    FILES_MAX_TRANSFERS: z.coerce.number().int().min(1, 'expected 1..100').max(100, 'expected 1..100').default(4),
    /** SFTP: whether an account's password signs in too, besides its SSH keys (default false: the password passes through the machine's agent; docs/sftp.md). */
    SFTP_PASSWORD_SIGN_IN: booleanFromEnv.default(false),
    /** Days the event log keeps durable events (1..365). */
    EVENT_RETENTION_DAYS: z.coerce.number().int().min(1, 'expected 1..365').max(365, 'expected 1..365').default(7),
    /** With ADMIN_PASSWORD: the first user, created at start-up when no user exists. */
    ADMIN_EMAIL: z.email({ message: 'expected an e-mail address' }).optional(),
    ADMIN_PASSWORD: z.string().min(8, 'expected at least 8 characters').max(256).optional(),
    /**
     * smtp:// or smtps:// URL (user and password in it when the server asks for them): invitations and password resets
     * are e-mailed. Unset: nothing is e-mailed; invitation links are in the API's answers, self-service reset is off.
     */
    SMTP_URL: z
      .string()
      .refine((value) => {
        try {
          return ['smtp:', 'smtps:'].includes(new URL(value).protocol);
        } catch {
          return false;
        }
      }, 'expected an smtp:// or smtps:// URL')
      .optional(),
    /** The sender of those e-mails, e.g. `Game servers <noreply@example.com>`; default noreply@ the PUBLIC_URL host. */
    SMTP_FROM: z.string().min(3).max(320).optional(),
    /** Whether anyone may register. Unset: registration is open only while no user exists. */
    ALLOW_REGISTRATION: booleanFromEnv.optional(),
    /** Rate-limit tier of new users (FREE 60/min, PRO 300/min, ENTERPRISE 1000/min). */
    DEFAULT_TIER: z.enum(['FREE', 'PRO', 'ENTERPRISE']).default('FREE'),
    /** Set: OAuth callbacks redirect here with the token pair in the fragment; unset, they answer the pair as JSON. */
    OAUTH_REDIRECT_URL: z.url({ message: 'expected an absolute URL' }).optional(),
    /** Steam's OpenID 2.0 endpoint (a setting so tests can run a local provider). */
    STEAM_OPENID_URL: z.url({ message: 'expected an absolute URL' }).default('https://steamcommunity.com/openid/login'),
    /** Discord application credentials; Discord sign-in is off until both are set. */
    DISCORD_CLIENT_ID: z.string().min(1).optional(),
    DISCORD_CLIENT_SECRET: z.string().min(1).optional(),
    DISCORD_AUTHORIZE_URL: z.url({ message: 'expected an absolute URL' }).default('https://discord.com/oauth2/authorize'),
    DISCORD_TOKEN_URL: z.url({ message: 'expected an absolute URL' }).default('https://discord.com/api/oauth2/token'),
    DISCORD_USER_URL: z.url({ message: 'expected an absolute URL' }).default('https://discord.com/api/users/@me'),
  })
  .superRefine((config, context) => {
    if (Boolean(config.ADMIN_EMAIL) !== Boolean(config.ADMIN_PASSWORD)) {
      context.addIssue({
        code: 'custom',
        path: [config.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL'],
        message: 'ADMIN_EMAIL and ADMIN_PASSWORD go together',
      });
    }
    if (Boolean(config.DISCORD_CLIENT_ID) !== Boolean(config.DISCORD_CLIENT_SECRET)) {
      context.addIssue({
        code: 'custom',
        path: [config.DISCORD_CLIENT_ID ? 'DISCORD_CLIENT_SECRET' : 'DISCORD_CLIENT_ID'],
        message: 'DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET go together',
      });
    }
  });

export type Config = z.infer<typeof configSchema> & {
  /** PUBLIC_URL, or http://localhost:PORT when unset. */
  publicUrl: string;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; throws a ConfigError whose message names every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable counts as unset, as in most process managers' env files.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  return { ...config, publicUrl: (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '') };
}
