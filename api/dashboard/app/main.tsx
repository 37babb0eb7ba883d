/**
 * The dashboard's entry: sign-in when there is no session, otherwise the page the address's fragment names
 * (`#/c/<clusterId>/servers`, …) inside the shell with the cluster switcher and the navigation. The fragment keeps
 * every page addressable and clear of the API's own paths.
 */
import './style.css';
import { Component, render, type ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, refusedSignInLink, session } from './session.ts';
import { can, Notice, Show, useLoad } from './ui.tsx';
import { link, type Cluster, type PageProps } from './nav.ts';
import { SignIn } from './pages/signIn.tsx';
import { ServersPage } from './pages/servers.tsx';
import { ServerPage } from './pages/server.tsx';
import { PlayersPage, PlayerPage } from './pages/players.tsx';
import { BansPage } from './pages/bans.tsx';
import { TasksPage } from './pages/tasks.tsx';
import { MachinesPage } from './pages/machines.tsx';
import { MembersPage } from './pages/members.tsx';
import { AccountPage } from './pages/account.tsx';
import { AuditPage } from './pages/audit.tsx';
import { CreateCluster } from './pages/clusters.tsx';
import { ServerEditPage } from './pages/serverEdit.tsx';
import { WebhooksPage } from './pages/webhooks.tsx';
import { TaskPage } from './pages/task.tsx';
import { FilesPage } from './pages/files.tsx';

const PAGES: { path: string; title: string; page: (props: PageProps) => preact.JSX.Element; needs?: 'manage' }[] = [
  { path: 'servers', title: 'Servers', page: ServersPage },
  { path: 'players', title: 'Players', page: PlayersPage },
  { path: 'bans', title: 'Bans', page: BansPage },
  { path: 'tasks', title: 'Tasks', page: TasksPage },
  { path: 'machines', title: 'Machines', page: MachinesPage },
  { path: 'members', title: 'Members', page: MembersPage },
  { path: 'audit', title: 'Audit log', page: AuditPage, needs: 'manage' },
  { path: 'webhooks', title: 'Webhooks', page: WebhooksPage, needs: 'manage' },
];

/** The cluster last opened in this browser (the invitation page sets it too, for the cluster just joined). */
const LAST_CLUSTER = 'gsm.cluster';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function useHash(): string[] {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const follow = () => setHash(location.hash);
    addEventListener('hashchange', follow);
    follow(); // an address changed before this listened (see useSignedIn)
    return () => removeEventListener('hashchange', follow);
  }, []);
  return hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part; // a stray % in a typed address: no page has that name, so "not found" follows
      }
    });
}

/** Signed in, and as which sign-in: '' when signed out. */
function useSignedIn() {
  const current = () => (session.signedIn ? session.identity || 'signed-in' : '');
  const [identity, setIdentity] = useState(current);
  useEffect(() => {
    const follow = () => setIdentity(current());
    const unsubscribe = session.subscribe(follow);
    // A change between the first drawing and this subscription (Preact runs effects after the next frame, or 35 ms
    // later when no frame is drawn; the browser may grant a sign-in link's lock before that) is read now, or the page
    // would stay on the sign-in form while signed in.
    follow();
    return unsubscribe;
  }, []);
  return identity;
}

function App() {
  const identity = useSignedIn();
  // Another sign-in (in this tab or another) is another account, perhaps: every page starts over with it.
  return <Contained>{identity ? <Shell key={identity} /> : <SignIn />}</Contained>;
}

/** A fault in a page's code shows a message with a way out instead of a blank page. */
class Contained extends Component<{ children: ComponentChildren }, { failed: string | null }> {
  state = { failed: null as string | null };
  static getDerivedStateFromError(error: unknown) {
    return { failed: error instanceof Error ? error.message : String(error) };
  }
  componentDidCatch(error: unknown) {
    console.error(error);
  }
  render() {
    if (this.state.failed === null) return this.props.children;
    return (
      <main class="content">
        <p class="notice error" role="alert">
          Something went wrong on this page: {this.state.failed}
        </p>
        <p>
          <a href="#/" onClick={() => this.setState({ failed: null })}>
            Back to the start page
          </a>{' '}
          or{' '}
          <button type="button" class="link" onClick={() => location.reload()}>
            reload
          </button>
          .
        </p>
      </main>
    );
  }
}

function Shell() {
  const route = useHash();
  const clusters = useLoad(() => api.get<{ data: Cluster[] }>('/api/v1/clusters', { limit: 100, sort: 'name' }).then((answer) => answer.data), []);
  const account = useLoad(() => api.get<{ displayName: string; email: string }>('/api/v1/account'), []);
  const [section, clusterId, page, id] = route;
  const part = route[4]; // a record's own page: `servers/<id>/edit`
  const cluster = section === 'c' ? clusters.data?.find((candidate) => candidate.id === clusterId) : undefined;

  // The start page: the servers of the cluster last opened here, while still a member of it; else of the first one.
  useEffect(() => {
    // The address as it is now, not as the last render saw it: one opened while the clusters loaded is left alone.
    if (route.length !== 0 || !clusters.data?.[0] || location.hash.replace(/^#\/?/, '') !== '') return;
    const last = localStorage.getItem(LAST_CLUSTER);
    const start = clusters.data.find((candidate) => candidate.id === last) ?? clusters.data[0];
    location.replace(link('c', start.id, 'servers'));
  }, [route.length, clusters.data]);
  useEffect(() => {
    if (cluster) localStorage.setItem(LAST_CLUSTER, cluster.id);
  }, [cluster?.id]);

  const current = PAGES.find((candidate) => candidate.path === page);
  let main;
  if (section === 'account') main = <AccountPage clusters={clusters.data ?? []} />;
  else if (section === 'new-cluster') main = <CreateCluster onCreated={clusters.reload} />;
  else if (clusters.data && clusters.data.length === 0) main = <CreateCluster onCreated={clusters.reload} first />;
  else if (section === 'c' && clusters.data && !cluster) main = <p class="notice error">This cluster does not exist or you are not a member of it.</p>;
  // A record's id goes into API paths: only an id is taken (`..%2Fmachines%2F…` in a crafted link must not make a
  // page's buttons call another route).
  else if (cluster && (page === 'servers' || page === 'players') && id && !UUID.test(id))
    main = <p class="notice error">There is no such {page === 'servers' ? 'server' : 'player'}: the address is not one of this dashboard's.</p>;
  else if (cluster && page === 'tasks' && id && !UUID.test(id))
    main = <p class="notice error">There is no such task: the address is not one of this dashboard's.</p>;
  else if (cluster && page === 'servers' && id && part === 'edit') main = <ServerEditPage key={id} cluster={cluster} id={id} />;
  else if (cluster && page === 'servers' && id && part === 'files') main = <FilesPage key={id} cluster={cluster} id={id} path={route.slice(5)} />;
  else if (cluster && page === 'servers' && id && part === 'file' && route.length > 5)
    main = <FileEditor key={route.join('/')} cluster={cluster} id={id} path={route.slice(5)} />;
  else if (cluster && page === 'tasks' && id) main = <TaskPage key={id} cluster={cluster} id={id} />;
  else if (cluster && page === 'servers' && id) main = <ServerPage key={id} cluster={cluster} id={id} />;
  else if (cluster && page === 'players' && id) main = <PlayerPage key={id} cluster={cluster} id={id} />;
  else if (cluster && current) main = <current.page cluster={cluster} />;
  else main = <Show loaded={clusters}>{() => <p class="muted">Choose a page.</p>}</Show>;

  return (
    <div class="shell">
      <header class="top">
        <a class="brand" href="#/">
          Game servers
        </a>
        <label class="switcher">
          <span class="sr-only">Cluster</span>
          <select
            aria-label="Cluster"
            value={cluster?.id ?? ''}
            onChange={(event) => {
              const value = event.currentTarget.value;
              location.hash = value === '+' ? link('new-cluster') : link('c', value, page && page !== 'servers' ? page : 'servers');
            }}
          >
            {!cluster && <option value="">Choose a cluster</option>}
            {(clusters.data ?? []).map((item) => (
              <option key={item.id} value={item.id}>
                {item.name} ({item.role})
              </option>
            ))}
            <option value="+">+ New cluster…</option>
          </select>
        </label>
        <span class="spacer" />
        <a href={link('account')} class="account">
          {account.data?.displayName ?? 'Account'}
        </a>
        <button type="button" class="link" onClick={() => void session.signOut()}>
          Sign out
        </button>
      </header>
      {cluster && (
        <nav class="tabs" aria-label="Pages">
          {PAGES.filter((item) => !item.needs || can(cluster.role, item.needs)).map((item) => (
            <a key={item.path} href={link('c', cluster.id, item.path)} aria-current={item.path === page ? 'page' : undefined}>
              {item.title}
            </a>
          ))}
        </nav>
      )}
      <main class="content">
        {refusedSignInLink && <Notice kind="error">A sign-in link that this browser did not start was ignored: you are still signed in as before.</Notice>}
        {main}
      </main>
    </div>
  );
}

type EditorProps = { cluster: Cluster; id: string; path: string[] };
/**
 * The file editor, loaded when first opened (its highlighter stays out of the first load). A chunk that cannot be
 * loaded (the service was upgraded since this page was) says so with a reload.
 */
function FileEditor(props: EditorProps) {
  const [page, setPage] = useState<{ Page: (props: EditorProps) => preact.JSX.Element } | { failed: string } | null>(null);
  useEffect(() => {
    import('./editor/fileEditor.tsx').then(
      (module) => setPage({ Page: module.FileEditorPage }),
      (error: unknown) => setPage({ failed: error instanceof Error ? error.message : String(error) }),
    );
  }, []);
  if (!page) return <p class="muted">Loading the editor…</p>;
  if ('failed' in page)
    return (
      <p class="notice error" role="alert">
        The editor could not be loaded (the service may have just been upgraded).{' '}
        <button type="button" class="link" onClick={() => location.reload()}>
          Reload
        </button>
      </p>
    );
  return <page.Page {...props} />;
}

const root = document.getElementById('app')!;
root.replaceChildren(); // the page's "Loading…", or its message that the style sheet failed: the app works without it
root.setAttribute('data-started', ''); // the page's watch for assets that failed to load stands down
render(<App />, root);
