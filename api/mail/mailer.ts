/**
 * E-mail for invitations and password resets, through nodemailer over SMTP_URL. Without SMTP_URL there is no mailer
 * and the callers say so (an invitation's link is in the API's answer either way).
 *
 * A message is sent after the change it announces has committed, within SEND_TIMEOUT_MS; a failure is logged and
 * reported to the caller (never a failed request: the invitation or reset exists and can be sent again).
 */
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { Config } from '../../schema/config.ts';
import type { Logger } from '../../schema/logger.ts';

const SEND_TIMEOUT_MS = 10_000;

export type MailMessage = { to: string; subject: string; text: string };

export type Mailer = {
  /** Sends the message; answers whether the SMTP server accepted it (the reason is logged when it did not). */
  send: (message: MailMessage) => Promise<boolean>;
  close: () => void;
};

export function createMailer(config: Pick<Config, 'SMTP_URL' | 'SMTP_FROM' | 'publicUrl'>, logger: Logger): Mailer | null {
  if (!config.SMTP_URL) return null;
  const transport = nodemailer.createTransport({
    url: config.SMTP_URL,
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
  } as SMTPTransport.Options);
  const from = config.SMTP_FROM ?? `Game Server Manager <noreply@${new URL(config.publicUrl).hostname}>`;
  const log = logger.child({ component: 'mailer' });
  return {
    async send(message) {
      // Accounts made by a Steam or Discord sign-in without an address have a placeholder under the reserved .invalid
      // domain: nothing can be delivered there.
      if (/\.invalid$/i.test(message.to)) {
        log.info({ to: message.to, subject: message.subject }, 'e-mail not sent: the account has no real address');
        return false;
      }
      try {
        const info = await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
        log.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'e-mail sent');
        return true;
      } catch (error) {
        // The address is the recipient's own, the error is the SMTP server's: no secret (the link) is logged.
        log.warn({ to: message.to, subject: message.subject, err: { message: (error as Error).message } }, 'e-mail could not be sent');
        return false;
      }
    },
    close: () => transport.close(),
  };
}
