/**
 * Whether Postgres refused a statement because of a value in it (SQLSTATE class 22, data exception: a date out of
 * range, NUL in text, bad JSON; class 54, program limit exceeded: JSON nested too deep) rather than because it could
 * not run it (connection lost, time-out). A report refused this way is the sender's to fix; sending it again changes
 * nothing, so it is answered, unlike one the database was away for.
 */
const VALUE_CLASSES = ['22', '54'];

export function isRefusedValue(error: unknown): boolean {
  const found = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = typeof found?.code === 'string' && /^[0-9A-Z]{5}$/.test(found.code) ? found.code : found?.cause?.code;
  return typeof code === 'string' && VALUE_CLASSES.includes(code.slice(0, 2));
}
