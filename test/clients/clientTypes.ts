/**
 * The TypeScript client's types (api/clients/typescript/src/schema.d.ts), generated from the live API document with
 * openapi-typescript. `npm run generate:client` writes them (against a test service on the local Postgres); a test
 * fails when the checked-in file differs from what the document gives now.
 */
import openapiTS, { astToString } from 'openapi-typescript';
import { fileURLToPath } from 'node:url';

export const CLIENT_TYPES_FILE = fileURLToPath(new URL('../../api/clients/typescript/src/schema.d.ts', import.meta.url));

const BANNER = '/**\n * Generated from the API document by openapi-typescript (npm run generate:client). Do not edit.\n */\n\n';

export async function generateClientTypes(document: object): Promise<string> {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], { alphabetize: true });
  return `${BANNER}${astToString(ast)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { writeFile } = await import('node:fs/promises');
  const { startTestApp } = await import('../support/app.ts');
  const app = await startTestApp();
  try {
    const document = (await (await app.request('/api/docs/openapi.json')).json()) as object;
    await writeFile(CLIENT_TYPES_FILE, await generateClientTypes(document));
    process.stdout.write(`wrote ${CLIENT_TYPES_FILE}\n`);
  } finally {
    await app.close();
  }
}
