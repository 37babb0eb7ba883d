/**
 * The editor page of a server's text file (loaded on demand: this module and its highlighter are a chunk of their own,
 * outside the first load). The text is edited in a plain textarea drawn over its highlighted copy; **Save** writes it
 * with `If-Match` (the ETag it was read with), so a change someone else saved meanwhile is never overwritten silently:
 * the page says so and offers their version or overwriting it. Below, the file's config history: each version's diff
 * to the file as it is, and **Restore**.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../../clients/typescript/src/client.ts';
import { ServerFiles, type FileVersion } from '../../../clients/typescript/src/files.ts';
import { api, messageOf } from '../session.ts';
import { link, type Cluster } from '../nav.ts';
import { Action, can, formatBytes, formatTime, Notice, Show, Table, useLoad } from '../ui.tsx';
import { downloadFile } from '../pages/files.tsx';
import { highlight, languageOf } from './highlight.ts';

/** Larger texts are edited without colours: thousands of spans per keystroke would make typing lag. */
const HIGHLIGHT_MAX = 256 * 1024;

type Conflict = { etag: string };

export function FileEditorPage({ cluster, id: serverId, path: parts }: { cluster: Cluster; id: string; path: string[] }) {
  const path = `/${parts.join('/')}`;
  const name = parts.at(-1) ?? '';
  const files = useMemo(() => new ServerFiles(api, serverId), [serverId]);
  const write = can(cluster.role, 'manage');
  const loaded = useLoad(() => files.readText(path), [serverId, path]);
  const versions = useLoad(() => files.versions(path), [serverId, path]);
  const [text, setText] = useState<string | null>(null);
  const [etag, setEtag] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [diff, setDiff] = useState<{ versionId: string; text: string } | null>(null);

  // The text read (again): what the editor starts from, and the version a save must still find.
  useEffect(() => {
    if (!loaded.data) return;
    setText(loaded.data.content);
    setEtag(loaded.data.etag);
    setConflict(null);
  }, [loaded.data]);

  const folder = link('c', cluster.id, 'servers', serverId, 'files', ...parts.slice(0, -1));
  const changed = text !== null && loaded.data !== undefined && text !== loaded.data.content;

  const save = async (ifMatch: string | null) => {
    if (text === null) return;
    setSaving(true);
    setError(null);
    setNotice(null);
    try {
      const written = await files.write(path, text, ifMatch === null ? {} : { ifMatch });
      setEtag(written.entry.etag ?? null);
      setConflict(null);
      loaded.setData((data) => ({ ...data, content: text, etag: written.entry.etag ?? data.etag, size: written.size }), false);
      setNotice(`Saved ${name} (${formatBytes(written.size)}).`);
      versions.reload();
    } catch (failure) {
      if (failure instanceof ApiError && failure.statusCode === 412) {
        const current = (failure.body as { etag?: string } | undefined)?.etag ?? '';
        setConflict({ etag: current });
      } else setError(messageOf(failure));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section class="file-editor">
      <header class="page-head">
        <h1>{name}</h1>
        <a href={folder}>Back to the folder</a>
      </header>
      <p class="muted">
        <code>{path}</code>
      </p>
      {loaded.error && loaded.data === undefined ? (
        <TooLarge error={loaded.error} files={files} path={path} />
      ) : (
        <Show loaded={loaded}>
          {(file) => (
            <>
              <p class="muted">
                {formatBytes(file.size)}, modified {formatTime(file.modifiedAt)}
                {!write && ' (read only: your role may not change files)'}
              </p>
              {conflict && (
                <div class="notice error" role="alert">
                  <p>
                    Someone else changed {name} since you opened it. Nothing was saved; your text is still here. Copy what you need, then load their version, or
                    save yours over theirs.
                  </p>
                  <button type="button" class="secondary" onClick={() => loaded.reload()}>
                    Load their version
                  </button>{' '}
                  <button type="button" class="danger" onClick={() => void save(conflict.etag)}>
                    Save mine over theirs
                  </button>
                </div>
              )}
              {notice && <Notice kind="success">{notice}</Notice>}
              {error && <Notice kind="error">{error}</Notice>}
              <CodeEditor
                label={`Content of ${name}`}
                text={text ?? file.content}
                language={languageOf(name)}
                readOnly={!write}
                onInput={(value) => {
                  setText(value);
                  setNotice(null);
                }}
                onSave={() => write && !saving && void save(etag)}
              />
              {write && (
                <p>
                  <button type="button" disabled={saving || !changed} onClick={() => void save(etag)}>
                    {saving ? 'Saving…' : 'Save'}
                  </button>{' '}
                  {changed && <span class="muted">Unsaved changes (Ctrl+S saves)</span>}
                </p>
              )}
            </>
          )}
        </Show>
      )}

      <h2>History</h2>
      <p class="muted">The last 20 versions written through the dashboard, the API or SFTP (text files up to 1 MiB).</p>
      <Show loaded={versions}>
        {(rows) => (
          <Table
            label="Versions"
            rows={rows}
            rowKey={(version) => version.id}
            empty="No versions kept yet: the first save keeps one."
            columns={[
              { title: 'Saved', cell: (version: FileVersion) => formatTime(version.createdAt) },
              { title: 'By', cell: (version) => version.actor.name ?? version.actor.kind },
              { title: 'How', cell: (version) => version.via },
              { title: 'Size', cell: (version) => formatBytes(version.size), class: 'number' },
              {
                title: 'Actions',
                cell: (version) => (
                  <>
                    <Action
                      class="secondary"
                      label={`Diff of the version of ${formatTime(version.createdAt)}`}
                      run={async () => setDiff(diff?.versionId === version.id ? null : { versionId: version.id, text: (await files.diff(version.id)).diff })}
                    >
                      {diff?.versionId === version.id ? 'Hide diff' : 'Diff'}
                    </Action>
                    {write && (
                      <Action
                        label={`Restore the version of ${formatTime(version.createdAt)}`}
                        confirm={`Restore ${name} as it was at ${formatTime(version.createdAt)}?`}
                        run={async () => {
                          await files.restore(version.id, etag ?? undefined);
                          setNotice(`Restored the version of ${formatTime(version.createdAt)}.`);
                          setDiff(null);
                          loaded.reload();
                          versions.reload();
                        }}
                      >
                        Restore
                      </Action>
                    )}
                  </>
                ),
              },
            ]}
          />
        )}
      </Show>
      {diff && <DiffView text={diff.text} />}
    </section>
  );
}

/** A file the editor cannot show (binary, larger than 1 MiB): the API's reason and a download. */
function TooLarge({ error, files, path }: { error: string; files: ServerFiles; path: string }) {
  return (
    <>
      <Notice kind="error">{error}</Notice>
      <Action class="secondary" run={() => downloadFile(files, path)}>
        Download
      </Action>
    </>
  );
}

/** A unified diff, its added and removed lines marked (and told apart by their + and - for those who cannot see colour). */
function DiffView({ text }: { text: string }) {
  if (text.trim() === '') return <p class="muted">This version is the same as the file now.</p>;
  return (
    <pre class="diff" aria-label="Diff to the file as it is now">
      {text.split('\n').map((line, index) => (
        <span
          key={index}
          class={
            line.startsWith('+') && !line.startsWith('+++')
              ? 'added'
              : line.startsWith('-') && !line.startsWith('---')
                ? 'removed'
                : line.startsWith('@@')
                  ? 'hunk'
                  : undefined
          }
        >
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

/**
 * A textarea over a highlighted copy of its text: what is typed is the textarea's (selection, undo, input methods and
 * screen readers as usual); the copy behind it, scrolled with it, gives the colours.
 */
function CodeEditor({
  label,
  text,
  language,
  readOnly,
  onInput,
  onSave,
}: {
  label: string;
  text: string;
  language: ReturnType<typeof languageOf>;
  readOnly: boolean;
  onInput: (text: string) => void;
  onSave: () => void;
}) {
  const behind = useRef<HTMLPreElement>(null);
  const lines = useMemo(() => (text.length <= HIGHLIGHT_MAX ? highlight(text, language) : null), [text, language]);
  return (
    <div class="code-editor" data-language={language}>
      <pre aria-hidden="true" ref={behind}>
        {lines
          ? lines.map((tokens, index) => (
              <span key={index}>
                {tokens.map((token, at) =>
                  token.kind ? (
                    <span key={at} class={`tok-${token.kind}`}>
                      {token.text}
                    </span>
                  ) : (
                    token.text
                  ),
                )}
                {'\n'}
              </span>
            ))
          : text}
        {/* a last empty line still has its height */ '\n'}
      </pre>
      <textarea
        aria-label={label}
        spellcheck={false}
        wrap="off"
        readOnly={readOnly}
        value={text}
        onInput={(event) => onInput(event.currentTarget.value)}
        onScroll={(event) => {
          if (!behind.current) return;
          behind.current.scrollTop = event.currentTarget.scrollTop;
          behind.current.scrollLeft = event.currentTarget.scrollLeft;
        }}
        onKeyDown={(event) => {
          if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
            event.preventDefault();
            onSave();
          }
        }}
      />
    </div>
  );
}
