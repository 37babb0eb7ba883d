/** Addresses of the dashboard's pages (the fragment: `#/c/<clusterId>/servers/<serverId>`) and what a page is given. */
import type { Role } from './ui.tsx';

export type Cluster = { id: string; name: string; role: Role; description: string | null };
export type PageProps = { cluster: Cluster; id?: string };

export const link = (...parts: string[]) => `#/${parts.map(encodeURIComponent).join('/')}`;
