/**
 * A server's files (docs/files.md): breadcrumbs, the directory (a page of 500 entries at a time, **Show more** for
 * the rest), multi-select, new folder, rename, delete, download, and uploads with progress that go on after a break
 * (the resumable protocol; a file chosen again after a reload resumes where the service has it). Text files open in the
 * editor page (loaded on demand with its highlighter). The SFTP address and host key are shown for those who may use it.
 */
import { useState } from 'preact/hooks';
import type { Schemas } from '../../../clients/typescript/src/client.ts';
import { ServerFiles, type FileEntry, type UploadMemory } from '../../../clients/typescript/src/files.ts';
import { api, messageOf } from '../session.ts';
import { link, type Cluster } from '../nav.ts';
import { Action, can, Field, Form, formatBytes, formatTime, Notice, Show, useLoad } from '../ui.tsx';

const PAGE = 500;

/** `rwxr-xr-x` of a mode's permission bits, after the type's letter. */
export function modeText(type: FileEntry['type'], mode: number): string {
  const letter = type === 'directory' ? 'd' : type === 'symlink' ? 'l' : type === 'file' ? '-' : '?';
  const bits = 'rwxrwxrwx'
    .split('')
    .map((char, index) => (mode & (0o400 >> index) ? char : '-'))
    .join('');
  return letter + bits;
}

/** A path's parts, for links: `['plugins', 'a b']` of `/plugins/a b`. */
export const partsOf = (path: string) => path.split('/').filter(Boolean);
const joinPath = (parts: string[]) => `/${parts.join('/')}`;

/** Unfinished uploads' ids in this browser, so choosing the same file again (after a reload, a crash) resumes it. */
const browserMemory: UploadMemory = {
  get: (key) => localStorage.getItem(`gsm.upload.${key}`) ?? undefined,
  set: (key, id) => localStorage.setItem(`gsm.upload.${key}`, id),
  delete: (key) => localStorage.removeItem(`gsm.upload.${key}`),
};

type Upload = {
  key: string;
  name: string;
  sent: number;
  size: number;
  resumedAt: number | null;
  state: 'sending' | 'done' | 'failed' | 'cancelled';
  error?: string;
};

/** Saves `blob` under `name` through a temporary link (the API needs the bearer token, so a plain link cannot do). */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export async function downloadFile(files: ServerFiles, path: string) {
  const response = await files.download(path);
  saveBlob(await response.blob(), partsOf(path).at(-1) ?? 'download');
}

export function FilesPage({ cluster, id, path: parts }: { cluster: Cluster; id: string; path: string[] }) {
  const serverId = id;
  const path = joinPath(parts);
  const files = new ServerFiles(api, serverId);
  const write = can(cluster.role, 'manage');
  const server = useLoad(() => api.get<Schemas['Server']>(`/api/v1/servers/${serverId}`), [serverId]);
  const [more, setMore] = useState<{ of: string; entries: FileEntry[]; next: string | null } | null>(null);
  const listing = useLoad(() => files.list(path, { limit: PAGE }), [serverId, path]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [renaming, setRenaming] = useState<string | null>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [aborts] = useState(() => new Map<string, AbortController>());
  const [notice, setNotice] = useState<string | null>(null);

  const reload = () => {
    setMore(null);
    setSelected(new Set());
    listing.reload();
  };
  const here = (name: string) => joinPath([...parts, name]);
  const update = (key: string, change: Partial<Upload>) => setUploads((all) => all.map((item) => (item.key === key ? { ...item, ...change } : item)));

  const upload = async (chosen: FileList | null) => {
    for (const file of Array.from(chosen ?? [])) {
      const target = here(file.name);
      const key = `${serverId}:${target}:${file.name}:${file.size}:${file.lastModified}`;
      const controller = new AbortController();
      aborts.set(key, controller);
      setUploads((all) => [...all.filter((item) => item.key !== key), { key, name: file.name, sent: 0, size: file.size, resumedAt: null, state: 'sending' }]);
      let first = true;
      try {
        await files.upload(target, file, {
          memory: browserMemory,
          key,
          signal: controller.signal,
          onProgress: (sent) => {
            update(key, first && sent > 0 ? { sent, resumedAt: sent } : { sent });
            first = false;
          },
        });
        update(key, { state: 'done', sent: file.size });
        reload();
      } catch (error) {
        update(key, controller.signal.aborted ? { state: 'cancelled' } : { state: 'failed', error: messageOf(error) });
      } finally {
        aborts.delete(key);
      }
    }
  };

  const cancel = async (key: string) => {
    aborts.get(key)?.abort();
    const uploadId = await browserMemory.get(key);
    if (uploadId) await files.cancelUpload(uploadId).catch(() => undefined);
    await browserMemory.delete(key);
  };

  const toggle = (name: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });

  const entriesOf = (first: Schemas['FileList']) => (more && more.of === path ? [...first.entries, ...more.entries] : first.entries);
  const nextOf = (first: Schemas['FileList']) => (more && more.of === path ? more.next : first.next);
  const fileLink = (name: string) => link('c', cluster.id, 'servers', serverId, 'file', ...parts, name);
  const dirLink = (upTo: string[]) => link('c', cluster.id, 'servers', serverId, 'files', ...upTo);

  return (
    <section class="files">
      <header class="page-head">
        <h1>Files of {server.data?.name ?? 'the server'}</h1>
        <a href={link('c', cluster.id, 'servers', serverId)}>Back to the server</a>
      </header>
      <nav class="breadcrumbs" aria-label="Folder">
        <a href={dirLink([])} aria-current={parts.length === 0 ? 'page' : undefined}>
          /
        </a>
        {parts.map((part, index) => (
          <span key={index}>
            {index > 0 && ' / '}
            <a href={dirLink(parts.slice(0, index + 1))} aria-current={index === parts.length - 1 ? 'page' : undefined}>
              {part}
            </a>
          </span>
        ))}
      </nav>
      {notice && <Notice kind="success">{notice}</Notice>}
      {write && (
        <div class="file-tools">
          <Form
            class="form inline"
            submit="New folder"
            onSubmit={async ({ folder }) => {
              await files.mkdir(here(folder!));
              reload();
              return true;
            }}
          >
            <Field name="folder" label="Folder name" required maxLength={255} />
          </Form>
          <label class="field upload">
            <span>Upload files</span>
            <input
              type="file"
              multiple
              onChange={(event) => {
                const input = event.currentTarget;
                void upload(input.files).then(() => (input.value = '')); // the same file may be chosen again, to resume it
              }}
            />
            <small class="muted">A break in the connection resumes by itself; after a reload, choose the same file again to go on.</small>
          </label>
        </div>
      )}
      {uploads.length > 0 && (
        <ul class="uploads" aria-label="Uploads">
          {uploads.map((item) => (
            <li key={item.key}>
              <span>{item.name}</span> <progress aria-label={`Upload of ${item.name}`} value={item.sent} max={item.size || 1} /> {formatBytes(item.sent)} of{' '}
              {formatBytes(item.size)}
              {item.resumedAt !== null && <span class="muted"> (resumed at {formatBytes(item.resumedAt)})</span>}
              {item.state === 'done' && <span class="status status-accepted"> Uploaded</span>}
              {item.state === 'cancelled' && <span class="muted"> Cancelled</span>}
              {item.state === 'failed' && (
                <span class="field-error" role="alert">
                  {' '}
                  {item.error} (choose the file again to resume)
                </span>
              )}
              {item.state === 'sending' && (
                <button type="button" class="link" onClick={() => void cancel(item.key)}>
                  Cancel
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <Show loaded={listing}>
        {(first) => {
          const entries = entriesOf(first);
          const next = nextOf(first);
          const chosen = entries.filter((entry) => selected.has(entry.name));
          return (
            <>
              {write && (
                <p class="selection">
                  {chosen.length} selected{' '}
                  {chosen.length > 0 && (
                    <Action
                      class="danger"
                      confirm={`Delete ${chosen.length} selected (folders with everything in them)?`}
                      run={async () => {
                        for (const entry of chosen) await files.remove(here(entry.name), entry.type === 'directory');
                        setNotice(`Deleted ${chosen.length}`);
                        reload();
                      }}
                    >
                      Delete selected
                    </Action>
                  )}
                </p>
              )}
              <div class="table-wrap">
                <table aria-label="Files">
                  <thead>
                    <tr>
                      {write && (
                        <th>
                          <input
                            type="checkbox"
                            aria-label="Select all"
                            checked={entries.length > 0 && chosen.length === entries.length}
                            onChange={(event) => setSelected(new Set(event.currentTarget.checked ? entries.map((entry) => entry.name) : []))}
                          />
                        </th>
                      )}
                      <th>Name</th>
                      <th class="number">Size</th>
                      <th>Mode</th>
                      <th>Modified</th>
                      <th>Actions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {parts.length > 0 && (
                      <tr>
                        {write && <td />}
                        <td colSpan={5}>
                          <a href={dirLink(parts.slice(0, -1))}>.. (up)</a>
                        </td>
                      </tr>
                    )}
                    {entries.length === 0 && (
                      <tr>
                        <td colSpan={6} class="muted">
                          This folder is empty.
                        </td>
                      </tr>
                    )}
                    {entries.map((entry) => (
                      <tr key={entry.name} data-key={entry.name}>
                        {write && (
                          <td>
                            <input type="checkbox" aria-label={`Select ${entry.name}`} checked={selected.has(entry.name)} onChange={() => toggle(entry.name)} />
                          </td>
                        )}
                        <td>
                          {renaming === entry.name ? (
                            <Form
                              class="form inline"
                              submit="Rename"
                              onSubmit={async ({ name }) => {
                                await files.rename(here(entry.name), name!.startsWith('/') ? name! : here(name!));
                                setRenaming(null);
                                reload();
                              }}
                            >
                              <Field name="name" label={`New name of ${entry.name}`} defaultValue={entry.name} required />
                            </Form>
                          ) : entry.type === 'directory' ? (
                            <a href={dirLink([...parts, entry.name])}>{entry.name}/</a>
                          ) : entry.type === 'file' ? (
                            <a href={fileLink(entry.name)}>{entry.name}</a>
                          ) : (
                            <span>
                              {entry.name}
                              {entry.linkTarget && <span class="muted"> → {entry.linkTarget}</span>}
                            </span>
                          )}
                        </td>
                        <td class="number">{entry.type === 'directory' ? '—' : formatBytes(entry.size)}</td>
                        <td>
                          <code>{modeText(entry.type, entry.mode)}</code>
                        </td>
                        <td>{formatTime(entry.modifiedAt)}</td>
                        <td>
                          {entry.type === 'file' && (
                            <Action label={`Download ${entry.name}`} class="secondary" run={() => downloadFile(files, here(entry.name))}>
                              Download
                            </Action>
                          )}
                          {write && (
                            <>
                              <button
                                type="button"
                                class="link"
                                aria-label={`Rename ${entry.name}`}
                                onClick={() => setRenaming(renaming === entry.name ? null : entry.name)}
                              >
                                Rename
                              </button>
                              <Action
                                class="danger"
                                label={`Delete ${entry.name}`}
                                confirm={entry.type === 'directory' ? `Delete the folder ${entry.name} and everything in it?` : `Delete ${entry.name}?`}
                                run={async () => {
                                  await files.remove(here(entry.name), entry.type === 'directory');
                                  reload();
                                }}
                              >
                                Delete
                              </Action>
                            </>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <p class="muted">
                {entries.length} of {first.total} entries
                {next && (
                  <>
                    {' '}
                    <Action
                      class="secondary"
                      run={async () => {
                        const page = await files.list(path, { after: next, limit: PAGE });
                        setMore({ of: path, entries: [...(more?.of === path ? more.entries : []), ...page.entries], next: page.next });
                      }}
                    >
                      Show more
                    </Action>
                  </>
                )}
              </p>
            </>
          );
        }}
      </Show>
      {can(cluster.role, 'manage') && server.data && <SftpAccess serverId={serverId} machineId={server.data.machineId} />}
    </section>
  );
}

/** How to reach these files over SFTP: the command, the host key to expect, and where to add a key. */
function SftpAccess({ serverId, machineId }: { serverId: string; machineId: string }) {
  const machine = useLoad(() => api.get<Schemas['Machine']>(`/api/v1/machines/${machineId}`), [machineId]);
  const account = useLoad(() => api.get<{ handle: string }>('/api/v1/account'), []);
  return (
    <section class="sftp" aria-label="SFTP">
      <h2>SFTP</h2>
      <Show loaded={machine}>
        {(found) => {
          if (!found.sftp) return <p class="muted">This machine's agent does not serve SFTP (or has not said so yet).</p>;
          const host = found.addresses[0] ?? found.hostname ?? found.name;
          const user = `${account.data?.handle ?? '<your handle>'}.${serverId.replace(/-/g, '').slice(-8)}`;
          return (
            <>
              <pre class="command">{`sftp -P ${found.sftp.port} ${user}@${host}`}</pre>
              <dl class="facts">
                <dt>Host key (ED25519)</dt>
                <dd>
                  <code>{found.sftp.hostKeyFingerprint ?? 'not reported yet'}</code>
                </dd>
              </dl>
              <p class="muted">
                Compare the fingerprint your client shows at the first connection with this one. Sign in with an SSH key added on{' '}
                <a href={link('account')}>your account</a> (or with your account's password, if the operator turned that on).
              </p>
            </>
          );
        }}
      </Show>
    </section>
  );
}
