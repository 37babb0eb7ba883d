/**
 * An import's egg, from its text or from a URL (read with the webhooks' guarded GET: public addresses only unless
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS, no redirects, at most MAX_EGG_BYTES, 10 s), mapped onto a template.
 */
import { fetchText } from '../webhooks/fetch.ts';
import { importEggText, type EggImport, type EggImportOptions, type EggSource } from './eggImport.ts';
import { EggFormatError, MAX_EGG_BYTES } from './eggs.ts';

export const EGG_FETCH_TIMEOUT_MS = 10_000;

/** The import, or EggFormatError (a 400: the URL could not be read, or what it holds is not an egg). */
export async function importEggFrom(source: EggSource, options: EggImportOptions & { allowPrivate: boolean; userAgent: string }): Promise<EggImport> {
  if (source.text !== undefined) return importEggText(source.text, options);
  const fetched = await fetchText(source.url, {
    allowPrivate: options.allowPrivate,
    maxBytes: MAX_EGG_BYTES,
    timeoutMs: EGG_FETCH_TIMEOUT_MS,
    userAgent: options.userAgent,
  });
  if (!fetched.ok) throw new EggFormatError([{ field: 'url', message: fetched.error }]);
  return importEggText(fetched.text, { ...options, source: options.source ?? source.url });
}
