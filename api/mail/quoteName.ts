/**
 * Names in the installation's e-mails come from users (a cluster's name, an inviter's display name). Quoted, they stay
 * visibly apart from the installation's own sentences; a control character or line separator that older rows may still
 * carry is folded to a space, so a name can never start a paragraph of its own, and bidi and zero-width characters are
 * dropped before quoting, so a name cannot reorder its quotes or the sentence after it.
 */
import { oneLine } from '../../schema/http.ts';

/** The name in double quotes, one line; quotes and backslashes inside it are escaped so the name cannot close its quote. */
export const quoteName = (name: string): string => JSON.stringify(oneLine(name));
