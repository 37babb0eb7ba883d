/**
 * A real SMTP server on a free local port (smtp-server, by nodemailer's authors) that keeps what it receives, for tests
 * of e-mailed invitations and password resets.
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { until } from './wait.ts';

export type ReceivedMail = { from: string; to: string[]; raw: string; text: string };

export type TestSmtp = {
  url: string;
  mails: ReceivedMail[];
  /**
   * Makes the server hold its answer to every message from now on (a stuck SMTP server) until `release` is called;
   * `heldFor(to)` counts the messages to `to` it holds.
   */
  hold: () => { release: () => void; heldFor: (to: string) => number };
  /** The first mail to `to` received after `since` mails (waits for it). */
  next: (to: string, since?: number) => Promise<ReceivedMail>;
  close: () => Promise<void>;
};

/** The body of a message as text: quoted-printable soft breaks joined and =XX escapes decoded (UTF-8). */
function decodeBody(raw: string): string {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  if (!/content-transfer-encoding:\s*quoted-printable/i.test(raw)) return body;
  const joined = body.replace(/=\r?\n/g, '');
  return Buffer.from(
    joined.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  let gate: { held: { to: string[]; answer: () => void }[]; open: boolean } | undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        mails.push({ from, to: session.envelope.rcptTo.map((recipient) => recipient.address), raw, text: decodeBody(raw) });
        if (gate && !gate.open) gate.held.push({ to: session.envelope.rcptTo.map((recipient) => recipient.address), answer: () => callback() });
        else callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    hold: () => {
      const mine: NonNullable<typeof gate> = { held: [], open: false };
      gate = mine;
      return {
        release: () => {
          mine.open = true;
          if (gate === mine) gate = undefined;
          for (const message of mine.held.splice(0)) message.answer();
        },
        heldFor: (to: string) => mine.held.filter((message) => message.to.includes(to)).length,
      };
    },
    next: async (to, since = 0) => {
      let found: ReceivedMail | undefined;
      await until(async () => (found = mails.slice(since).find((mail) => mail.to.includes(to))) !== undefined, `an e-mail to ${to}`, 20_000);
      return found!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
