/**
 * Cluster roles and what each may do (docs/access.md), in one table. Routes name a permission; the access layer
 * looks the caller's role up in the route's cluster and checks it here.
 */
export const ROLES = ['OWNER', 'ADMIN', 'MODERATOR', 'VIEWER'] as const;
export type Role = (typeof ROLES)[number];

const EVERYONE: readonly Role[] = ROLES;
const MANAGERS: readonly Role[] = ['OWNER', 'ADMIN'];

export const PERMISSIONS = {
  /** Read anything in the cluster: servers, machines, players, bans, tasks, jobs, members, stats. */
  'cluster.read': EVERYONE,
  'audit.read': MANAGERS,
  'cluster.update': MANAGERS,
  'cluster.delete': ['OWNER'],
  'machines.manage': MANAGERS,
  'servers.manage': MANAGERS,
  'players.moderate': ['OWNER', 'ADMIN', 'MODERATOR'],
  /** PATCH a server's variables that its template marks `userEditable` (OWNER and ADMIN: every setting, servers.manage). */
  'servers.variables': ['OWNER', 'ADMIN', 'MODERATOR'],
  'tasks.manage': MANAGERS,
  /** Invite, change roles, remove members. ADMIN only for MODERATOR and VIEWER: see `canManageRole`. */
  'members.manage': MANAGERS,
  /** Server files (docs/files.md): list, read, download, search, history. */
  'files.read': ['OWNER', 'ADMIN', 'MODERATOR'],
  /** Server files: write, upload, mkdir, rename, copy, delete, chmod, restore a version. */
  'files.write': MANAGERS,
  /** Server files over SFTP with an SSH key of one's account (docs/sftp.md; read-only without files.write). */
  'files.sftp': MANAGERS,
  /** Webhooks: their URLs may be secrets (a Discord webhook URL is), so only managers see them. */
  'webhooks.manage': MANAGERS,
  /** A cluster's own game templates: create, replace, delete (members read them with cluster.read). */
  'templates.manage': MANAGERS,
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export const can = (role: Role, permission: Permission): boolean => (PERMISSIONS[permission] as readonly Role[]).includes(role);

/** Whether a member with `actor` role may give, change or take away the role `target`. */
export const canManageRole = (actor: Role, target: Role): boolean =>
  actor === 'OWNER' || (actor === 'ADMIN' && (target === 'MODERATOR' || target === 'VIEWER'));
