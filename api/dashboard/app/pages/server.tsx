/**
 * One server: status and stats live, power buttons with the job's progress, the live console with its recent history
 * and a command line, players online with kick and ban, metrics for 1 h / 24 h / 7 d, backups, install and update.
 * Everything live comes from one `/live` subscription of the server (console and stats included).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { finished, type Schemas } from '../../../clients/typescript/src/client.ts';
import { api, messageOf } from '../session.ts';
import { ENDED, RESUMED, sendConsoleCommand, useLive, type LiveEvent } from '../live.ts';
import { link, type PageProps } from '../nav.ts';
import { Action, can, Field, Form, formatBytes, formatTime, Notice, Show, Status, Table, useLoad } from '../ui.tsx';
import { MetricsCharts } from '../components/metricsCharts.tsx';
import { QueryState, ServerPorts } from '../components/ports.tsx';
import { BanForm } from './players.tsx';

type Server = Schemas['Server'];
type Job = Schemas['Job'];
type Backup = Schemas['Backup'];
type OnlinePlayer = Schemas['OnlinePlayer'];
type Status = Server['status'];

/**
 * When each power action makes sense (docs/servers.md, "Server states"): Start from a stopped, crashed or failed
 * install; Stop and Restart while it runs; Kill whenever a process may be there (UNKNOWN: the agent is away, and the
 * game may still run). Anything else would be refused or do nothing, so it is not offered.
 */
const POWER: Record<string, readonly Status[]> = {
  start: ['OFFLINE', 'CRASHED', 'INSTALL_FAILED'],
  stop: ['STARTING', 'ONLINE', 'UNRESPONSIVE', 'RESTARTING'],
  restart: ['STARTING', 'ONLINE', 'UNRESPONSIVE', 'RESTARTING'],
  kill: ['STARTING', 'ONLINE', 'UNRESPONSIVE', 'STOPPING', 'RESTARTING', 'UNKNOWN'],
};
/** A process runs: CPU and memory figures mean something (once stopped, the last ones would be stale). */
const RUNNING: readonly Status[] = ['STARTING', 'ONLINE', 'UNRESPONSIVE', 'STOPPING', 'RESTARTING'];
/** The agent queries the game in these states; the record's `query` is read again every 15 s meanwhile. */
const QUERIED: readonly Status[] = ['ONLINE', 'UNRESPONSIVE'];
/** The server's CPU and memory sample while a process runs; null otherwise (the servers list shows the same). */
export const liveStats = (server: Pick<Server, 'status' | 'stats'>) => (RUNNING.includes(server.status) ? server.stats : null);

export function ServerPage({ cluster, id }: PageProps) {
  const serverId = id!;
  const server = useLoad(() => api.get<Server>(`/api/v1/servers/${serverId}`), [serverId]);
  const [job, setJob] = useState<Job | null>(null);
  // The restore asked for from the backups list, and how it ended (shown beside the list).
  const [restore, setRestore] = useState<{ backup: string; job: Job } | null>(null);
  const restoring = useRef<string | null>(null);
  const followRestore = (updated: Job) => {
    if (updated.id !== restoring.current) return;
    // An answer read before the job ended may arrive after the event that says it ended: an ending stays.
    setRestore((current) => current && (finished(current.job.status) ? current : { ...current, job: updated }));
  };
  const players = useLoad(() => api.get<Schemas['ServerPlayers']>(`/api/v1/servers/${serverId}/players`), [serverId]);
  const backups = useLoad(() => api.get<{ data: Backup[] }>(`/api/v1/servers/${serverId}/backups`, { limit: 50 }).then((answer) => answer.data), [serverId]);
  const console = useRef<ConsoleView>(null);
  // Lines that come before the console is on the page (the replay usually beats the server's record) wait here.
  const backlog = useRef<{ line: string }[]>([]);
  const appendConsole = (lines: { line: string }[], replay: boolean) => {
    if (console.current) return console.current.append(lines, replay);
    if (replay) backlog.current = [];
    backlog.current = backlog.current.concat(lines).slice(-MAX_LINES);
  };
  const commands = useRef(new Set<string>());
  const ended = useRef(new Map<string, Job>());
  const statuses = useRef(new Map<string, string>()); // the last status seen of each job of this server
  const printAnswer = (done: Job) => {
    const output = (done.result as { output?: string | null } | null)?.output;
    const lines = done.status === 'SUCCEEDED' ? (output ?? '').split('\n').filter((line) => line !== '') : [`! ${done.error?.message ?? done.status}`];
    appendConsole(
      lines.map((line) => ({ line })),
      false,
    );
  };

  useLive({ serverId, console: true, stats: true }, (event: LiveEvent) => {
    if (event.type === RESUMED || event.type === ENDED) {
      // Events of the break were missed, or access was lost (the API's answer is shown): read the server, its players,
      // its backups and the job on show again (the console resumes after its last line with the new subscription).
      server.reload();
      players.reload();
      backups.reload();
      if (job) void api.get<Job>(`/api/v1/jobs/${job.id}`).then(setJob, () => undefined);
      if (restoring.current) void api.get<Job>(`/api/v1/jobs/${restoring.current}`).then(followRestore, () => undefined);
      return;
    }
    if (event.data.serverId !== serverId && (event.data as { id?: string }).id !== job?.id) return;
    switch (event.type) {
      case 'server.console': {
        // A resumed console (`after`) goes on where it was; a fresh replay starts it again. `gap`: lines were missed.
        const resumed = event.data.replay === true && event.data.after !== undefined;
        const lines = event.data.lines as { line: string }[];
        return appendConsole(
          event.data.gap === true ? [{ line: '[gsm] some lines were missed while reconnecting' }, ...lines] : lines,
          event.data.replay === true && !resumed,
        );
      }
      case 'server.status':
        return server.setData((current) => ({
          ...current,
          status: event.data.status as Server['status'],
          statusReason: (event.data.reason as string | null) ?? null,
        }));
      case 'server.stats':
        return server.setData((current) => ({
          ...current,
          stats: { cpuPercent: event.data.cpuPercent as number, memoryBytes: event.data.memoryBytes as number, at: event.data.at as string },
        }));
      case 'job.updated': {
        const updated = event.data as unknown as Job;
        if (job && updated.id === job.id) setJob(updated);
        followRestore(updated);
        // A command typed here: its answer goes under it in the console (also when it ended before its ack came).
        if (updated.type === 'RCON' && finished(updated.status)) {
          if (commands.current.delete(updated.id)) printAnswer(updated);
          else ended.current.set(updated.id, updated);
          if (ended.current.size > 50) ended.current.delete(ended.current.keys().next().value!);
        }
        // Progress comes up to once a second: the backups or the server are read again only when a job's status changes.
        const moved = statuses.current.get(updated.id) !== updated.status;
        statuses.current.set(updated.id, updated.status);
        if (statuses.current.size > 50) statuses.current.delete(statuses.current.keys().next().value!);
        if (moved && (updated.type === 'BACKUP' || updated.type === 'RESTORE')) backups.reload();
        if (moved && (updated.type === 'INSTALL' || updated.type === 'UPDATE' || updated.type === 'TRANSFER')) server.reload();
        return;
      }
      case 'player.joined':
      case 'player.left':
        return players.reload();
    }
  });

  // The query's answer is no event: read again every 15 s while the game is queried, and at each status change.
  const readQuery = () =>
    void api.get<Server>(`/api/v1/servers/${serverId}`).then(
      (fresh) => server.setData((current) => ({ ...current, query: fresh.query }), false),
      () => undefined,
    );
  const queried = server.data !== undefined && QUERIED.includes(server.data.status);
  useEffect(() => {
    if (!queried) return;
    const timer = setInterval(readQuery, 15_000);
    return () => clearInterval(timer);
  }, [queried, serverId]);
  const lastStatus = useRef<Status | undefined>(undefined);
  useEffect(() => {
    const status = server.data?.status;
    if (lastStatus.current !== undefined && status !== lastStatus.current) readQuery();
    lastStatus.current = status;
  }, [server.data?.status]);

  const manage = can(cluster.role, 'manage');
  const power = (action: string) => async () => setJob(await api.post<Job>(`/api/v1/servers/${serverId}/${action}`));

  return (
    <Show loaded={server}>
      {(current) => (
        <section class="server">
          <header class="page-head">
            <h1>
              {current.name} <Status status={current.status} />
            </h1>
            <a href={link('c', cluster.id, 'servers')}>All servers</a>
            {can(cluster.role, 'moderate') && <a href={link('c', cluster.id, 'servers', serverId, 'files')}>Files</a>}
            {manage && <a href={link('c', cluster.id, 'servers', serverId, 'edit')}>Settings</a>}
          </header>
          {current.statusReason && <p class={current.status === 'UNRESPONSIVE' ? 'notice unresponsive' : 'muted'}>{current.statusReason}</p>}
          {current.status === 'UNRESPONSIVE' && (
            <p class="muted">
              Its process runs, but the game does not answer queries.{' '}
              {current.restartWhenUnresponsive
                ? 'Restart when unresponsive is on: its crash policy restarts it.'
                : 'Restart when unresponsive is off: it is left running (Restart, or turn it on in Settings).'}
            </p>
          )}
          <dl class="facts">
            <dt>Game</dt>
            <dd>{current.gameType}</dd>
            <dt>Players</dt>
            <dd>
              {players.data?.online ?? current.playersOnline} / {current.maxPlayers}
            </dd>
            <dt>CPU</dt>
            <dd>{liveStats(current) ? `${liveStats(current)!.cpuPercent.toFixed(0)} %` : '—'}</dd>
            <dt>Memory</dt>
            <dd>{formatBytes(liveStats(current)?.memoryBytes)}</dd>
            <dt>Installed</dt>
            <dd>{current.installedVersion ?? (current.installedAt ? formatTime(current.installedAt) : 'not yet')}</dd>
            <dt>Runs as</dt>
            <dd title="The machine's account the game runs as: files you copy onto the machine must be readable by it">{current.osUser ?? 'not known yet'}</dd>
          </dl>
          {manage && (
            <div class="buttons" role="group" aria-label="Power">
              {Object.entries(POWER).map(([action, from]) => {
                const title = action[0]!.toUpperCase() + action.slice(1);
                return from.includes(current.status) ? (
                  <Action
                    key={action}
                    run={power(action)}
                    class={action === 'kill' ? 'danger' : undefined}
                    confirm={action === 'kill' ? 'Kill the process without saving?' : undefined}
                  >
                    {title}
                  </Action>
                ) : (
                  <button
                    key={action}
                    type="button"
                    class={action === 'kill' ? 'danger' : undefined}
                    disabled
                    title={`Not while the server is ${current.status}`}
                  >
                    {title}
                  </button>
                );
              })}
            </div>
          )}
          {job && <JobProgress job={job} />}
          <h2>Ports</h2>
          <ServerPorts ports={current.ports} />
          <h2>Query</h2>
          <QueryState query={current.query} protocol={current.queryProtocol} />

          <h2>Console</h2>
          <ConsoleBox view={console} backlog={backlog} />
          {manage && (
            <CommandLine
              serverId={serverId}
              onSent={(command, jobId) => {
                appendConsole([{ line: `> ${command}` }], false);
                const done = ended.current.get(jobId);
                if (done) printAnswer(done);
                else commands.current.add(jobId);
              }}
            />
          )}

          <h2>Players online</h2>
          <Show loaded={players}>
            {(online) => (
              <Table
                label="Players online"
                rows={online.players}
                rowKey={(player) => player.id}
                empty="Nobody is online."
                columns={[
                  { title: 'Player', cell: (player: OnlinePlayer) => <a href={link('c', cluster.id, 'players', player.id)}>{player.username}</a> },
                  { title: 'Since', cell: (player) => formatTime(player.joinedAt) },
                  { title: 'Ping', cell: (player) => (player.ping === null ? '—' : `${player.ping} ms`), class: 'number' },
                  ...(can(cluster.role, 'moderate')
                    ? [
                        {
                          title: 'Moderate',
                          cell: (player: OnlinePlayer) => (
                            <Moderate playerId={player.id} serverId={serverId} username={player.username} onDone={players.reload} />
                          ),
                        },
                      ]
                    : []),
                ]}
              />
            )}
          </Show>

          <h2>Metrics</h2>
          <MetricsCharts path={`/api/v1/servers/${serverId}/metrics`} kind="server" />

          {manage && (
            <>
              <h2>Move to another machine</h2>
              <Form
                class="form inline"
                submit="Transfer"
                onSubmit={async ({ machineId }) => {
                  setJob(await api.post<Job>(`/api/v1/servers/${serverId}/transfer`, { machineId }));
                  return true;
                }}
              >
                <Field name="machineId" label="Target machine id" required hint="Its files and backups follow; cancel the job before the switch to stay" />
              </Form>
            </>
          )}

          <h2>Backups</h2>
          {manage && (
            <Form
              class="form inline"
              submit="Back up now"
              onSubmit={async ({ name }) => {
                setJob(await api.post<Job>(`/api/v1/servers/${serverId}/backups`, name ? { name } : {}));
                backups.reload();
                return true;
              }}
            >
              <Field name="name" label="Name (optional)" maxLength={100} />
            </Form>
          )}
          {restore && <RestoreOutcome backup={restore.backup} job={restore.job} />}
          <Show loaded={backups}>
            {(rows) => (
              <Table
                label="Backups"
                rows={rows}
                rowKey={(backup) => backup.id}
                empty="No backups yet."
                columns={[
                  { title: 'Name', cell: (backup) => backup.name },
                  { title: 'Status', cell: (backup) => <Status status={backup.status} /> },
                  {
                    title: 'Consistent',
                    cell: (backup) =>
                      backup.consistent === null ? '—' : backup.consistent ? 'Yes' : <span title="Archived while the game was writing">No</span>,
                  },
                  { title: 'Size', cell: (backup) => formatBytes(backup.sizeBytes), class: 'number' },
                  { title: 'Made', cell: (backup) => formatTime(backup.completedAt ?? backup.createdAt) },
                  ...(manage
                    ? [
                        {
                          title: 'Actions',
                          cell: (backup: Backup) => (
                            <>
                              <Action
                                run={async () => {
                                  const started = await api.post<Job>(`/api/v1/backups/${backup.id}/restore`);
                                  setJob(started);
                                  restoring.current = started.id;
                                  setRestore({ backup: backup.name, job: started });
                                  // It may have ended before this page was following it: read it once now.
                                  followRestore(await api.get<Job>(`/api/v1/jobs/${started.id}`));
                                }}
                                confirm={`Restore "${backup.name}"? The server's files are replaced.`}
                              >
                                Restore
                              </Action>
                              <Action
                                class="danger"
                                run={async () => (await api.request('delete', `/api/v1/backups/${backup.id}`), backups.reload())}
                                confirm={`Delete "${backup.name}"?`}
                              >
                                Delete
                              </Action>
                            </>
                          ),
                        },
                      ]
                    : []),
                ]}
              />
            )}
          </Show>

          {manage && (
            <>
              <h2>Install and update</h2>
              <Form
                class="form inline"
                submit="Install or update"
                onSubmit={async ({ version }) => {
                  if ((version || null) !== current.version) await api.request('patch', `/api/v1/servers/${serverId}`, { body: { version: version || null } });
                  const action = current.installedAt ? 'update' : 'install';
                  setJob(await api.post<Job>(`/api/v1/servers/${serverId}/${action}`));
                }}
              >
                <Field name="version" label="Version" defaultValue={current.version ?? ''} hint="Empty: the latest release" />
              </Form>
              <p>
                <Action
                  class="danger"
                  confirm={`Delete ${current.name}? Its files stay on the machine.`}
                  run={async () => {
                    await api.request('delete', `/api/v1/servers/${serverId}`);
                    location.hash = link('c', cluster.id, 'servers');
                  }}
                >
                  Delete server
                </Action>
              </p>
            </>
          )}
        </section>
      )}
    </Show>
  );
}

const mebibytes = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

/** The job a button started: its status, progress (a transfer's phase and bytes) and, when it failed, why. */
function JobProgress({ job }: { job: Job }) {
  const percent = job.progress?.percent;
  return (
    <div class="job" role="status" aria-live="polite">
      <span>
        {job.type} <Status status={job.status} />
      </span>
      {percent !== null && percent !== undefined && job.status === 'RUNNING' && <progress max={100} value={percent} aria-label="Progress" />}
      {job.progress?.message && <span class="muted">{job.progress.message}</span>}
      {job.progress?.phase && job.status === 'RUNNING' && (
        <span class="muted">
          {job.progress.phase} · {mebibytes(job.progress.bytesDone ?? 0)}
          {job.progress.bytesTotal ? ` of ${mebibytes(job.progress.bytesTotal)}` : ''}
        </span>
      )}
      {job.error && <Notice kind="error">{job.error.message}</Notice>}
    </div>
  );
}

/** A restore's outcome, where it was asked for: under way, restored, or why it failed. */
function RestoreOutcome({ backup, job }: { backup: string; job: Job }) {
  if (job.status === 'SUCCEEDED') return <Notice kind="success">Restored "{backup}": the server's files are those of the backup now.</Notice>;
  if (finished(job.status))
    return (
      <Notice kind="error">
        Restoring "{backup}" {job.status.toLowerCase()}: {job.error?.message ?? 'no reason given'}. The server's files are as they were.
      </Notice>
    );
  return (
    <Notice kind="info">
      Restoring "{backup}"… ({job.status.toLowerCase()}
      {job.progress?.message ? `: ${job.progress.message}` : ''})
    </Notice>
  );
}

function Moderate({ playerId, serverId, username, onDone }: { playerId: string; serverId: string; username: string; onDone: () => void }) {
  const [banning, setBanning] = useState(false);
  return (
    <div class="moderate">
      <Action
        run={async () => (await api.post(`/api/v1/players/${playerId}/kick`, { serverId, reason: 'Kicked by a moderator' }), onDone())}
        label={`Kick ${username}`}
      >
        Kick
      </Action>
      <button type="button" class="danger" onClick={() => setBanning(!banning)} aria-expanded={banning} aria-label={`Ban ${username}`}>
        Ban
      </button>
      {banning && <BanForm playerId={playerId} serverId={serverId} onDone={() => (setBanning(false), onDone())} />}
    </div>
  );
}

type ConsoleView = { append: (lines: { line: string }[], replay: boolean) => void };
const MAX_LINES = 2_000;

/**
 * The console: lines are appended to the DOM directly, a frame's worth at a time (1,000 lines a second stay smooth),
 * at most 2,000 kept; it follows the end unless the reader has scrolled up.
 */
function ConsoleBox({ view, backlog }: { view: { current: ConsoleView | null }; backlog: { current: { line: string }[] } }) {
  const box = useRef<HTMLPreElement>(null);
  useEffect(() => {
    let pending: string[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      const element = box.current;
      if (!element) return;
      const following = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
      const fragment = document.createDocumentFragment();
      for (const line of pending.slice(-MAX_LINES)) {
        const div = document.createElement('div');
        div.textContent = line;
        fragment.append(div);
      }
      pending = [];
      element.append(fragment);
      while (element.childElementCount > MAX_LINES) element.firstElementChild!.remove();
      if (following) element.scrollTop = element.scrollHeight;
    };
    view.current = {
      append(lines, replay) {
        if (replay && box.current) box.current.replaceChildren();
        for (const { line } of lines) pending.push(line);
        frame ||= requestAnimationFrame(flush);
      },
    };
    view.current.append(backlog.current, true);
    backlog.current = [];
    return () => {
      cancelAnimationFrame(frame);
      view.current = null;
    };
  }, []);
  return <pre class="console" ref={box} tabIndex={0} aria-label="Console" aria-live="off" />;
}

function CommandLine({ serverId, onSent }: { serverId: string; onSent: (command: string, jobId: string) => void }) {
  const [error, setError] = useState<string | null>(null);
  const history = useRef<string[]>([]);
  const position = useRef(0);
  return (
    <form
      class="command-line"
      onSubmit={(event) => {
        event.preventDefault();
        const input = event.currentTarget.elements.namedItem('command') as HTMLInputElement;
        const command = input.value.trim();
        if (!command) return;
        setError(null);
        history.current.push(command);
        position.current = history.current.length;
        input.value = '';
        sendConsoleCommand(serverId, command).then(
          (jobId) => onSent(command, jobId),
          (failure: unknown) => setError(messageOf(failure)),
        );
      }}
    >
      <label for="command" class="sr-only">
        Command
      </label>
      <input
        id="command"
        name="command"
        autocomplete="off"
        placeholder="Type a command and press Enter"
        maxLength={1024}
        onKeyDown={(event) => {
          // Up and down walk through the commands sent from this page.
          const step = event.key === 'ArrowUp' ? -1 : event.key === 'ArrowDown' ? 1 : 0;
          if (!step || history.current.length === 0) return;
          event.preventDefault();
          position.current = Math.min(history.current.length, Math.max(0, position.current + step));
          event.currentTarget.value = history.current[position.current] ?? '';
        }}
      />
      <button type="submit">Send</button>
      {error && <Notice kind="error">{error}</Notice>}
    </form>
  );
}
