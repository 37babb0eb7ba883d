/**
 * `gsm`: the game server manager from a terminal, on the TypeScript client. Tables for people, `--json` for scripts;
 * the exit status is non-zero when a call fails or a job it waited for did not succeed (1: the API refused or the job
 * failed, 2: bad usage; asking for help is not bad usage: 0). `gsm login` keeps the URL and token in the user's config
 * directory (mode 0600); GSM_URL and GSM_TOKEN override it. The token reaches `gsm login` on standard input (typed
 * without echo at a prompt on a terminal) or in GSM_TOKEN, so it stays out of `ps` and the shell's history; `--token`
 * still works for scripts that insist.
 */
import { mkdir, readFile, writeFile, chmod } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { GsmClient, type Job, type Schemas } from './client.ts';
import { filesCommand, FILES_USAGE } from './cliFiles.ts';

const USAGE = `usage: gsm <command> [options]  (--json for machine-readable output)
  login --url <url>                       keep the service URL and an API token, read from standard input
                                          (prompted, not shown, on a terminal) or GSM_TOKEN; --token <token> also works
  clusters                                your clusters
  servers list --cluster <id>             servers of a cluster
  servers show <id>                       a server: status and why, its ports, what its latest query found
  servers start|stop|restart|kill <id> [--wait]
  servers transfer <id> --to <machine> [--keep-source] [--no-backups] [--bandwidth <bytes/s>] [--wait]
                                          move a server to another machine; --wait shows its phase and bytes
  machines list --cluster <id>            machines of a cluster
  machines allocations <machine>          its addresses, port ranges and which server holds which port
  machines allocations <machine> add <first>-<last>   add a port range (1024–65535, at most 10,000 ports)
  machines allocations <machine> remove <range>        remove a port range (servers keep the ports they hold)
  rcon <server> <command…>                run a console command (taken as written) and print its answer
  console <server>                        the recent console, then follow it live
  players search --cluster <id> [text]    players (--online for those online)
  players show <id>                       a player with sessions, notes and bans
  players kick <id> [--reason <text>]
  players ban <id> [--reason <text>] [--duration <seconds>] [--server <id>]   cluster-wide unless --server
  players unban <id>                      revoke every active ban of a player
  bans [list] --cluster <id>              active bans
  bans revoke <ban> | bans revoke --player <id>   revoke one ban, or every active ban of a player
  tasks list --cluster <id> | tasks run <id> [--wait]
  jobs show <id> | jobs wait <id>
  events --cluster <id> [--types a,b] [--server <id>]   follow the cluster's events
  templates list [--cluster <id>] [--search <text>] [--tag <tag>]   built-in templates (and the cluster's)
  templates show <id>                     a template: its variables (with their rules) and ports
  templates import --cluster <id> <file|-> [--id <id>] | --url <url>   a Pterodactyl or Pelican egg as a cluster template
${FILES_USAGE}
  help, --help, -h                        this text (-h only before the command)
  --                                      what follows is arguments, never options`;

class UsageError extends Error {}

type Parsed = { positional: string[]; flags: Map<string, string | true> };

/**
 * Options may come anywhere, except that the arguments of a command are its own: `-h` means help only before the
 * command (`gsm servers list -h` lists; `gsm -h` helps), everything after `--` is an argument, and the console command
 * of `gsm rcon <server> <command…>` is taken as written (`gsm rcon <server> help -h` sends `help -h`), so gsm's own
 * options go before it.
 */
function parse(argv: string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (positional[0] === 'rcon' && positional.length >= 2) {
      positional.push(...argv.slice(i));
      break;
    }
    if (arg === '-h' && positional.length === 0) {
      flags.set('help', true);
      continue;
    }
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (inline !== undefined) flags.set(name, inline);
    else if (['json', 'wait', 'online', 'help', 'recursive'].includes(name)) flags.set(name, true);
    else {
      const value = argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    }
  }
  return { positional, flags };
}

const configFile = () => join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'gsm', 'config.json');

async function loadLogin(): Promise<{ url?: string; token?: string }> {
  const saved = (await readFile(configFile(), 'utf8').then(JSON.parse, () => ({}))) as { url?: string; token?: string };
  return { url: process.env.GSM_URL ?? saved.url, token: process.env.GSM_TOKEN ?? saved.token };
}

/**
 * The token for `gsm login` from standard input: on a terminal, typed at a prompt (on stderr) and not echoed; else
 * the first line of what is piped in (`gsm login --url … < token-file`, or a secret manager's output). Reading stops at
 * the first line break, so a writer that keeps its end open (a helper that prints the token and waits) is not waited for.
 */
async function readToken(): Promise<string> {
  const input = process.stdin;
  input.setEncoding('utf8');
  if (!input.isTTY) {
    // Someone at a terminal whose input is redirected from something that never writes would see nothing happen.
    if (process.stderr.isTTY) process.stderr.write('reading the token from standard input…\n');
    let text = '';
    // Leaving the loop early destroys the stream, which stops reading.
    for await (const chunk of input) {
      text += chunk as string;
      if (text.includes('\n')) break;
    }
    return (text.split(/\r?\n/)[0] ?? '').trim();
  }
  // Echo off before the prompt shows: whatever is typed after it is never on the screen.
  input.setRawMode(true);
  process.stderr.write('API token (not shown): ');
  input.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let token = '';
      const onData = (chunk: string) => {
        for (const char of chunk) {
          if (char === '\r' || char === '\n' || char === '\u0004') {
            input.off('data', onData);
            return resolve(token.trim());
          }
          // Raw mode turns Ctrl-C into a character: it still means stop.
          if (char === '\u0003') {
            input.off('data', onData);
            return reject(new Error('interrupted'));
          }
          if (char === '\u007f' || char === '\b') token = token.slice(0, -1);
          else if (char >= ' ') token += char;
        }
      };
      input.on('data', onData);
    });
  } finally {
    input.setRawMode(false);
    input.pause();
    process.stderr.write('\n');
  }
}

/** Prints rows as an aligned table of `columns`. */
function table(rows: Record<string, unknown>[], columns: string[]): string {
  const cell = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value));
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => cell(row[column]).length)));
  const line = (values: string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.toUpperCase())), ...rows.map((row) => line(columns.map((column) => cell(row[column]))))].join('\n');
}

/** `gsm servers show`: the server, why it is in its status, its ports and what its latest query found. */
function showServer(server: Schemas['Server'], out: (text: string) => void): void {
  const explained =
    server.status === 'UNRESPONSIVE'
      ? ' (its process runs; the game does not answer queries' +
        (server.restartWhenUnresponsive ? ': the agent restarts it while its crash policy allows, else it stays so)' : ')')
      : '';
  out(`${server.name} (${server.id}): ${server.gameType}, ${server.status}${explained}`);
  if (server.statusReason) out(`reason: ${server.statusReason}`);
  out(`players: ${server.playersOnline} / ${server.maxPlayers}`);
  out('ports:');
  out(table(server.ports, ['name', 'port', 'protocol']));
  const { query } = server;
  if (server.queryProtocol === 'NONE') out('query: none (never queried)');
  else if (!query) out('query: not queried yet');
  else {
    const names = query.playerNames && query.playerNames.length > 0 ? ` (${query.playerNames.join(', ')})` : '';
    out(
      `query (${query.protocol}, checked ${query.checkedAt}): ${query.answering ? 'answering' : `not answering${query.error ? `: ${query.error}` : ''}${query.failures > 0 ? ` (${query.failures} in a row)` : ''}`}`,
    );
    out(
      `  players ${query.players ?? '—'} / ${query.maxPlayers ?? '—'}${names}; map ${query.map ?? '—'}; version ${query.version ?? '—'}; latency ${query.latencyMs === null ? '—' : `${query.latencyMs} ms`}`,
    );
  }
}

export async function main(argv: string[], out: (text: string) => void = (text) => process.stdout.write(`${text}\n`)): Promise<number> {
  const { positional, flags } = parse(argv);
  const json = flags.has('json');
  const flag = (name: string) => {
    const value = flags.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  const need = (name: string) =>
    flag(name) ??
    (() => {
      throw new UsageError(`--${name} is required`);
    })();
  const arg = (index: number, what: string) =>
    positional[index] ??
    (() => {
      throw new UsageError(`${what} is required`);
    })();
  const print = (value: unknown, columns?: string[]) => {
    if (json || !columns) out(JSON.stringify(value, null, json ? 2 : 0));
    else out(table((Array.isArray(value) ? value : [value]) as Record<string, unknown>[], columns));
  };
  const [command, sub] = positional;
  if (flags.has('help') || command === 'help') {
    out(USAGE);
    return 0;
  }
  if (!command) throw new UsageError('a command is required');

  if (command === 'login') {
    const url =
      flag('url') ??
      process.env.GSM_URL ??
      (() => {
        throw new UsageError('--url is required (or GSM_URL)');
      })();
    if (flag('token')) process.stderr.write('gsm: a token on the command line shows in ps and in the shell history; prefer standard input or GSM_TOKEN\n');
    const token = flag('token') ?? process.env.GSM_TOKEN ?? (await readToken());
    if (!token) throw new UsageError('no token: type it at the prompt, pipe it to standard input or set GSM_TOKEN');
    const check = new GsmClient({ baseUrl: url, token, retries: 1 });
    const account = await check.get<{ email: string }>('/api/v1/account');
    const file = configFile();
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, JSON.stringify({ url, token }, null, 2), { mode: 0o600 });
    await chmod(file, 0o600);
    out(json ? JSON.stringify({ url, email: account.email }) : `signed in to ${url} as ${account.email} (saved in ${file})`);
    return 0;
  }

  const login = await loadLogin();
  if (!login.url || !login.token) throw new UsageError('not signed in: gsm login --url <url> (or GSM_URL and GSM_TOKEN)');
  const gsm = new GsmClient({ baseUrl: login.url, token: login.token });
  /** Revokes every active ban of a player (`playerId` already encoded for the path) and shows them. */
  const unbanPlayer = async (playerId: string): Promise<number> => {
    const answer = await gsm.post<{ message: string; bans: unknown[]; jobIds: string[] }>(`/api/v1/players/${playerId}/unban`);
    if (json) print(answer);
    else {
      out(answer.message);
      print(answer.bans, ['id', 'playerId', 'reason', 'clusterWide', 'revokedAt']);
    }
    return 0;
  };
  /** Waits for a job when asked (or always), prints it, and answers the exit status it deserves. */
  const finishJob = async (job: Job, wait: boolean): Promise<number> => {
    const shown = wait ? await gsm.waitForJob(job.id) : job;
    print(shown, ['id', 'type', 'status', 'serverId', 'error']);
    return !wait || shown.status === 'SUCCEEDED' ? 0 : 1;
  };

  switch (command) {
    case 'clusters': {
      type Cluster = { id: string; name: string; role: string; counts: { servers: number; machines: number; members: number } };
      const clusters = (await gsm.get<{ data: Cluster[] }>('/api/v1/clusters', { limit: 100 })).data;
      if (json) print(clusters);
      else
        print(
          clusters.map(({ counts, ...cluster }) => ({ ...cluster, ...counts })),
          ['id', 'name', 'role', 'servers', 'machines', 'members'],
        );
      return 0;
    }
    case 'servers': {
      if (sub === 'list') {
        const servers = [];
        for await (const server of gsm.paginate(`/api/v1/clusters/${encodeURIComponent(need('cluster'))}/servers`)) servers.push(server);
        print(servers, ['id', 'name', 'gameType', 'status', 'playersOnline', 'statusReason']);
        return 0;
      }
      if (sub === 'show') {
        const server = await gsm.get<Schemas['Server']>(`/api/v1/servers/${encodeURIComponent(arg(2, 'the server id'))}`);
        if (json) print(server);
        else showServer(server, out);
        return 0;
      }
      if (sub && ['start', 'stop', 'restart', 'kill'].includes(sub)) {
        const job = await gsm.post<Job>(`/api/v1/servers/${encodeURIComponent(arg(2, 'the server id'))}/${sub}`);
        return finishJob(job, flags.has('wait'));
      }
      if (sub === 'transfer') {
        const bandwidth = flag('bandwidth');
        if (bandwidth !== undefined && !/^\d+$/.test(bandwidth)) throw new UsageError('--bandwidth is bytes per second');
        const job = await gsm.post<Job>(`/api/v1/servers/${encodeURIComponent(arg(2, 'the server id'))}/transfer`, {
          machineId: need('to'),
          keepSource: flags.has('keep-source'),
          includeBackups: !flags.has('no-backups'),
          ...(bandwidth ? { bandwidthLimit: Number(bandwidth) } : {}),
        });
        if (!flags.has('wait')) return finishJob(job, false);
        // Its phase and bytes as they change (on standard error, so --json output stays one document).
        let shown = '';
        for (let current = job; ;) {
          const progress = current.progress as { phase?: string; bytesDone?: number; bytesTotal?: number | null; message?: string | null } | null;
          const line = progress
            ? `${progress.phase ?? ''} ${progress.message ?? ''} ${progress.bytesDone ?? 0}/${progress.bytesTotal ?? '?'} bytes`
            : current.status;
          if (line !== shown) process.stderr.write(`${line}\n`);
          shown = line;
          if (['SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED'].includes(current.status))
            return finishJob(current, false).then(() => (current.status === 'SUCCEEDED' ? 0 : 1));
          await new Promise((resolve) => setTimeout(resolve, 2_000));
          current = await gsm.get<Job>(`/api/v1/jobs/${encodeURIComponent(job.id)}`);
        }
      }
      throw new UsageError('gsm servers list|show|start|stop|restart|kill|transfer');
    }
    case 'machines': {
      if (sub === 'list') {
        const machines = [];
        for await (const machine of gsm.paginate(`/api/v1/clusters/${encodeURIComponent(need('cluster'))}/machines`)) machines.push(machine);
        print(machines, ['id', 'name', 'status', 'hostname', 'agentVersion', 'lastSeenAt']);
        return 0;
      }
      if (sub === 'allocations') {
        const machineId = encodeURIComponent(arg(2, 'the machine id'));
        const action = positional[3];
        if (action === 'add') {
          const range = /^(\d{1,5})(?:-|\.\.)(\d{1,5})$/.exec(arg(4, 'the range (<first>-<last>)'));
          if (!range) throw new UsageError('the range is <first>-<last>, e.g. 27000-27999');
          const added = await gsm.post<Schemas['PortRange']>(`/api/v1/machines/${machineId}/port-ranges`, {
            firstPort: Number(range[1]),
            lastPort: Number(range[2]),
          });
          print(added, ['id', 'firstPort', 'lastPort', 'createdAt']);
          return 0;
        }
        if (action === 'remove') {
          const answer = await gsm.request<{ message: string }>(
            'delete',
            `/api/v1/machines/${machineId}/port-ranges/${encodeURIComponent(arg(4, 'the range id'))}`,
          );
          if (json) print(answer);
          else out(answer.message);
          return 0;
        }
        if (action !== undefined) throw new UsageError('gsm machines allocations <machine> [add <first>-<last> | remove <range>]');
        const allocations = await gsm.get<Schemas['MachineAllocations']>(`/api/v1/machines/${machineId}/allocations`);
        if (json) print(allocations);
        else {
          out(`addresses: ${allocations.addresses.join(', ') || '—'} (its agent reports: ${allocations.reportedAddresses.join(', ') || '—'})`);
          out(
            allocations.ranges.length > 0
              ? `port ranges (${allocations.freePorts} ports free):`
              : 'no port ranges: ports are picked from each game’s default port upwards',
          );
          if (allocations.ranges.length > 0)
            out(
              table(
                allocations.ranges.map((range) => ({ ...range, ports: range.lastPort - range.firstPort + 1 })),
                ['id', 'firstPort', 'lastPort', 'ports'],
              ),
            );
          out(allocations.allocations.length > 0 ? 'ports held:' : 'no server holds a port here');
          if (allocations.allocations.length > 0) out(table(allocations.allocations, ['port', 'protocol', 'serverName', 'name', 'serverId']));
        }
        return 0;
      }
      throw new UsageError('gsm machines list|allocations');
    }
    case 'rcon': {
      const answer = await gsm.post<{ success: boolean; output: string | null; jobId: string; status: string }>(
        `/api/v1/servers/${encodeURIComponent(arg(1, 'the server id'))}/rcon`,
        {
          command:
            positional.slice(2).join(' ') ||
            (() => {
              throw new UsageError('the command is required');
            })(),
        },
        { query: { wait: 30 } },
      );
      if (json) print(answer);
      else out(answer.output ?? `(${answer.status}; job ${answer.jobId})`);
      return answer.success ? 0 : 1;
    }
    case 'console': {
      const serverId = arg(1, 'the server id');
      const server = await gsm.get<{ clusterId: string }>(`/api/v1/servers/${encodeURIComponent(serverId)}`);
      const recent = await gsm.get<{ lines: { at: string; line: string }[]; seq: number | null }>(`/api/v1/servers/${encodeURIComponent(serverId)}/console`, {
        lines: 100,
      });
      for (const line of recent.lines) out(json ? JSON.stringify(line) : line.line);
      // Live from the line after the last one printed (`<event id>:<console sequence>`): none lost or printed twice.
      const after = recent.seq === null ? undefined : `0:${recent.seq}`;
      for await (const event of gsm.events(server.clusterId, { types: ['server.console'], serverId, after })) {
        for (const line of (event.data as { lines: { at: string; line: string }[] }).lines) out(json ? JSON.stringify(line) : line.line);
      }
      return 0;
    }
    case 'players': {
      if (sub === 'search') {
        const query = { ...(positional[2] ? { search: positional.slice(2).join(' ') } : {}), ...(flags.has('online') ? { online: true } : {}), limit: 100 };
        const answer = await gsm.get<{ data: unknown[] }>(`/api/v1/clusters/${encodeURIComponent(need('cluster'))}/players`, query);
        print(answer.data, ['id', 'username', 'steamId', 'online', 'playtime', 'lastSeen']);
        return 0;
      }
      const playerId = encodeURIComponent(arg(2, 'the player id'));
      if (sub === 'show') {
        print(
          await gsm.get(`/api/v1/players/${playerId}`),
          json ? undefined : ['id', 'username', 'steamId', 'online', 'playtime', 'firstSeen', 'lastSeen', 'flags'],
        );
        return 0;
      }
      if (sub === 'kick') {
        const answer = await gsm.post<{ jobId: string }>(`/api/v1/players/${playerId}/kick`, { reason: flag('reason') ?? '' });
        return finishJob(await gsm.get<Job>(`/api/v1/jobs/${answer.jobId}`), flags.has('wait'));
      }
      if (sub === 'ban') {
        const duration = flag('duration');
        const server = flag('server');
        const answer = await gsm.post<{ ban: Record<string, unknown> }>(`/api/v1/players/${playerId}/ban`, {
          reason: flag('reason') ?? '',
          ...(duration ? { duration: Number(duration) } : {}),
          ...(server ? { serverId: server } : { clusterWide: true }),
        });
        print(answer.ban, ['id', 'playerId', 'reason', 'clusterWide', 'expiresAt', 'active']);
        return 0;
      }
      if (sub === 'unban') return unbanPlayer(playerId);
      throw new UsageError('gsm players search|show|kick|ban|unban');
    }
    case 'bans': {
      if (sub === 'revoke') {
        const player = flag('player');
        if (player) return unbanPlayer(encodeURIComponent(player));
        const answer = await gsm.request<{ message: string; jobIds: string[] }>(
          'delete',
          `/api/v1/bans/${encodeURIComponent(arg(2, 'the ban id (or --player <id>)'))}`,
        );
        if (json) print(answer);
        else out(`${answer.message} (UNBAN jobs: ${answer.jobIds.join(', ') || 'none'})`);
        return 0;
      }
      if (sub !== undefined && sub !== 'list') throw new UsageError('gsm bans [list] --cluster <id> | gsm bans revoke <ban> | gsm bans revoke --player <id>');
      const answer = await gsm.get<{ data: unknown[] }>(`/api/v1/clusters/${encodeURIComponent(need('cluster'))}/bans`, { active: true, limit: 100 });
      print(answer.data, ['id', 'playerId', 'reason', 'clusterWide', 'expiresAt', 'createdAt']);
      return 0;
    }
    case 'tasks': {
      if (sub === 'list') {
        const answer = await gsm.get<{ data: unknown[] }>(`/api/v1/clusters/${encodeURIComponent(need('cluster'))}/tasks`, { limit: 100 });
        print(answer.data, ['id', 'name', 'schedule', 'timezone', 'enabled', 'nextRunAt', 'lastRunStatus']);
        return 0;
      }
      if (sub === 'run') return finishJob(await gsm.post<Job>(`/api/v1/tasks/${encodeURIComponent(arg(2, 'the task id'))}/run`), flags.has('wait'));
      throw new UsageError('gsm tasks list|run');
    }
    case 'jobs': {
      const jobId = encodeURIComponent(arg(2, 'the job id'));
      if (sub === 'show') return finishJob(await gsm.get<Job>(`/api/v1/jobs/${jobId}`), false);
      if (sub === 'wait') return finishJob(await gsm.get<Job>(`/api/v1/jobs/${jobId}`), true);
      throw new UsageError('gsm jobs show|wait');
    }
    case 'events': {
      const types = (flag('types') ?? flag('type'))?.split(',');
      for await (const event of gsm.events(need('cluster'), { ...(types ? { types } : {}), ...(flag('server') ? { serverId: flag('server') } : {}) })) {
        out(json ? JSON.stringify(event) : `${event.at}  ${event.type.padEnd(18)} ${JSON.stringify(event.data)}`);
      }
      return 0;
    }
    case 'templates': {
      type Template = Schemas['TemplateSummary'];
      if (sub === 'list') {
        const templates: Template[] = [];
        const query = {
          ...(flag('cluster') ? { clusterId: flag('cluster') } : {}),
          ...(flag('search') ? { name: flag('search') } : {}),
          ...(flag('tag') ? { tag: flag('tag') } : {}),
        };
        for await (const template of gsm.paginate<Template>('/api/v1/templates', query)) templates.push(template);
        if (json) print(templates);
        else
          print(
            templates.map((template) => ({
              ...template,
              tags: template.tags.join(','),
              platforms: template.platforms.join(','),
              source: template.builtIn ? 'built-in' : 'cluster',
            })),
            ['id', 'name', 'version', 'gameType', 'platforms', 'source', 'tags'],
          );
        return 0;
      }
      if (sub === 'show') {
        const template = await gsm.get<Schemas['Template']>(`/api/v1/templates/${encodeURIComponent(arg(2, 'the template id'))}`);
        if (json) print(template);
        else {
          type Variable = { name: string; default?: string; description?: string; secret?: boolean; validation?: Record<string, unknown> };
          const document = template.document as {
            variables?: Variable[];
            ports?: { name: string; protocol: string; default?: number; offset?: number }[];
            description?: string;
          };
          print({ ...template, platforms: template.platforms.join(',') }, ['id', 'name', 'version', 'gameType', 'platforms']);
          if (document.description) out(`\n${document.description}`);
          if (document.variables?.length) {
            out('');
            print(
              document.variables.map((variable) => ({ ...variable, validation: JSON.stringify(variable.validation ?? {}) })),
              ['name', 'default', 'secret', 'validation', 'description'],
            );
          }
          if (document.ports?.length) {
            out('');
            print(
              document.ports.map((port) => ({
                ...port,
                port: port.default ?? (port.offset !== undefined ? `game ${port.offset >= 0 ? '+' : ''}${port.offset}` : ''),
              })),
              ['name', 'protocol', 'port'],
            );
          }
        }
        return 0;
      }
      if (sub === 'import') {
        const url = flag('url');
        const file = positional[2];
        if ((url === undefined) === (file === undefined)) throw new UsageError('gsm templates import --cluster <id> <file|-> | --url <url>');
        let text: string | undefined;
        if (file === '-') {
          text = '';
          for await (const chunk of process.stdin) text += String(chunk);
        } else if (file !== undefined) text = await readFile(file, 'utf8');
        const answer = await gsm.post<Schemas['TemplateImport']>(`/api/v1/clusters/${encodeURIComponent(need('cluster'))}/templates/import`, {
          ...(text !== undefined ? { text } : { url }),
          ...(flag('id') ? { id: flag('id') } : {}),
        });
        if (json) print(answer);
        else {
          out(`imported the ${answer.format} egg as template ${answer.template.id} (${answer.template.slug}, version ${answer.template.version})`);
          if (answer.tools.length > 0) out(`the machine needs: ${answer.tools.join(', ')}`);
          if (answer.unmapped.length > 0) out(`not mapped, or mapped with a difference:\n${answer.unmapped.map((line) => `  - ${line}`).join('\n')}`);
        }
        return 0;
      }
      throw new UsageError('gsm templates list|show|import');
    }
    case 'files':
      return filesCommand({ client: gsm, positional, flags, json, out, usage: (message) => new UsageError(message), configDir: dirname(configFile()) });
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

export { UsageError, USAGE };
