/**
 * A Discord webhook message for an event (docs/webhooks.md, "Discord"): one embed with a title, a description, a
 * colour by severity, the event's time and a few fields, always within Discord's limits (title 256, description 4096,
 * 25 fields of name 256 and value 1024, footer 2048, 6000 characters in all), so Discord never refuses it for size.
 */
import type { ClusterEvent } from '../../schema/events.ts';

export const DISCORD_LIMITS = { title: 256, description: 4096, fields: 25, fieldName: 256, fieldValue: 1024, footer: 2048, total: 6000 } as const;

const COLOURS = { danger: 0xd83c3e, warning: 0xf0a020, success: 0x3ba55d, info: 0x5865f2 } as const;
type Severity = keyof typeof COLOURS;

/** Names of what the event's ids refer to (looked up by the deliverer), for a message people can read. */
export type EventNames = {
  server?: string | null;
  machine?: string | null;
  cluster?: string | null;
  /** A ban's player (its id alone means nothing to the people reading the channel). */
  player?: { username: string; steamId: string | null } | null;
};

export type DiscordMessage = {
  username: string;
  embeds: {
    title: string;
    description: string;
    color: number;
    timestamp: string;
    fields: { name: string; value: string; inline: boolean }[];
    footer: { text: string };
  }[];
  allowed_mentions: { parse: [] };
};

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

type Data = Record<string, unknown>;
const str = (value: unknown) => (value === null || value === undefined || value === '' ? '—' : String(value));

function describe(event: ClusterEvent, names: EventNames): { title: string; description: string; severity: Severity; fields: [string, unknown][] } {
  const data = event.data as Data;
  const server = names.server ?? (data.serverId as string | undefined) ?? 'a server';
  switch (event.type) {
    case 'server.status': {
      const status = String(data.status);
      const severity: Severity =
        status === 'CRASHED' || status === 'INSTALL_FAILED'
          ? 'danger'
          : status === 'ONLINE'
            ? 'success'
            : status === 'OFFLINE' || status === 'UNKNOWN' || status === 'UNRESPONSIVE'
              ? 'warning'
              : 'info';
      return {
        title: `${server} is ${status}`,
        description:
          status === 'UNRESPONSIVE'
            ? `Its process runs, but the game does not answer queries${data.reason ? `: ${String(data.reason)}` : '.'}`
            : data.reason
              ? String(data.reason)
              : `Was ${str(data.previous)}.`,
        severity,
        fields: [
          ['Status', status],
          ['Previous', data.previous],
          ...(data.exitCode === null || data.exitCode === undefined ? [] : ([['Exit code', data.exitCode]] as [string, unknown][])),
        ],
      };
    }
    case 'machine.status': {
      const status = String(data.status);
      return {
        title: `Machine ${names.machine ?? str(data.machineId)} is ${status}`,
        description: status === 'ONLINE' ? 'Its agent is connected.' : 'Its agent is not connected.',
        severity: status === 'ONLINE' ? 'success' : 'warning',
        fields: [['Status', status]],
      };
    }
    case 'job.updated': {
      const status = String(data.status);
      const error = data.error as { code?: string; message?: string } | null | undefined;
      return {
        title: `${str(data.type)} job ${status.toLowerCase()}${names.server ? ` on ${names.server}` : ''}`,
        description: error?.message ? `${error.code ?? 'ERROR'}: ${error.message}` : `Job ${str(data.id)}.`,
        severity: status === 'FAILED' || status === 'TIMED_OUT' ? 'danger' : status === 'SUCCEEDED' ? 'success' : 'info',
        fields: [
          ['Type', data.type],
          ['Status', status],
        ],
      };
    }
    case 'player.joined':
    case 'player.left':
      return {
        title: `${str(data.username)} ${event.type === 'player.joined' ? 'joined' : 'left'} ${server}`,
        description: `Steam ID ${str(data.steamId)}`,
        severity: 'info',
        fields: [['Player', data.username]],
      };
    case 'ban.created':
    case 'ban.revoked': {
      const player = names.player;
      // A Minecraft player's "Steam id" is its username: shown only when it says something more.
      const steamId = player?.steamId && player.steamId !== player.username ? player.steamId : null;
      return {
        title: `${event.type === 'ban.created' ? 'Player banned' : 'Ban revoked'}${player ? `: ${player.username}` : ''}`,
        description: str(data.reason),
        severity: event.type === 'ban.created' ? 'danger' : 'info',
        fields: [
          ['Player', player?.username ?? data.playerId],
          ...(steamId ? ([['Steam ID', steamId]] as [string, unknown][]) : []),
          ['Where', data.clusterWide ? 'every server' : (names.server ?? data.serverId)],
          ['Expires', data.expiresAt ?? 'never'],
        ],
      };
    }
    case 'task.run.finished': {
      const status = String(data.status);
      return {
        title: `Scheduled task ${status.toLowerCase()}`,
        description: `Task ${str(data.taskId)}, job ${str(data.jobId)}.`,
        severity: status === 'SUCCEEDED' ? 'success' : 'danger',
        fields: [['Status', status]],
      };
    }
    case 'webhook.disabled':
      return { title: 'A webhook was disabled', description: str(data.reason), severity: 'warning', fields: [['Webhook', data.webhookId]] };
    case 'webhook.dropped':
      return {
        title: 'Webhook deliveries were dropped',
        description: `${str(data.dropped)} of the oldest pending deliveries were dropped: the receiver is slower than the events (at most ${str(data.maxPending)} wait).`,
        severity: 'warning',
        fields: [['Webhook', data.webhookId]],
      };
    case 'webhook.test':
      return { title: 'Test from Game Server Manager', description: 'This webhook works.', severity: 'info', fields: [] };
    default:
      return { title: event.type, description: '', severity: 'info', fields: [] };
  }
}

/** The Discord message of `event`, within every Discord limit. Mentions in game text (`@everyone`) never ping. */
export function discordMessage(event: ClusterEvent, names: EventNames = {}): DiscordMessage {
  const { title, description, severity, fields } = describe(event, names);
  const embed = {
    title: clip(title, DISCORD_LIMITS.title),
    description: clip(description, DISCORD_LIMITS.description),
    color: COLOURS[severity],
    timestamp: event.at,
    fields: fields
      .slice(0, DISCORD_LIMITS.fields)
      .map(([name, value]) => ({ name: clip(name, DISCORD_LIMITS.fieldName), value: clip(str(value), DISCORD_LIMITS.fieldValue), inline: true })),
    footer: { text: clip(`${names.cluster ? `${names.cluster} · ` : ''}${event.type}`, DISCORD_LIMITS.footer) },
  };
  // The total counts title, description, field names and values and the footer: long game text is cut from the
  // description first, which alone can hold most of the budget.
  const used = () =>
    embed.title.length +
    embed.description.length +
    embed.footer.text.length +
    embed.fields.reduce((sum, field) => sum + field.name.length + field.value.length, 0);
  const over = used() - DISCORD_LIMITS.total;
  if (over > 0) embed.description = clip(embed.description, Math.max(1, embed.description.length - over));
  while (used() > DISCORD_LIMITS.total && embed.fields.length > 0) embed.fields.pop();
  return { username: 'Game Server Manager', embeds: [embed], allowed_mentions: { parse: [] } };
}
