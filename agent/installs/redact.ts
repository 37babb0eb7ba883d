/**
 * What an install may say: every error, progress message and output line of an INSTALL or UPDATE goes through a
 * redactor before it reaches the job, the console or the agent's log. It hides the values of the template's secret
 * variables (as written and URL-encoded), and the credentials and query strings of URLs (`https://user:pass@host/x?token=…`
 * becomes `https://host/x?…`), where download tokens usually travel.
 */

/** Shorter values are not hidden (a one-letter secret would blank every such letter of every line). */
const MIN_SECRET_LENGTH = 3;
export const REDACTED = '***';

const URL_PARTS = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)(?:[^\s/?#@]*@)?([^\s?#]*)(\?[^\s#]*)?/gi;

/** A URL as a message may show it: no credentials, no query string. */
export function shownUrl(url: string): string {
  return url.replace(URL_PARTS, (_whole, scheme: string, rest: string, query: string | undefined) => `${scheme}${rest}${query ? '?…' : ''}`);
}

export type Redactor = (text: string) => string;

export function redactor(secrets: readonly string[] = []): Redactor {
  const values = [...new Set(secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH).flatMap((secret) => [secret, encodeURIComponent(secret)]))].sort(
    (a, b) => b.length - a.length,
  );
  return (text) => {
    let shown = text;
    for (const value of values) shown = shown.replaceAll(value, REDACTED);
    return shownUrl(shown);
  };
}
