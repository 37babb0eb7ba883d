/**
 * The clients' generated types, from the live API document: the TypeScript client's with openapi-typescript
 * (api/clients/typescript/src/schema.d.ts), the Python client's TypedDicts and the Go client's structs
 * (test/clients/languageTypes.ts). `npm run generate:client` writes them (against a test service on the local
 * Postgres); a test fails when a checked-in file differs from what the document gives now.
 */
import openapiTS, { astToString } from 'openapi-typescript';
import { fileURLToPath } from 'node:url';
import { generateGoTypes, generatePythonTypes } from './languageTypes.ts';

const BANNER = '/**\n * Generated from the API document by openapi-typescript (npm run generate:client). Do not edit.\n */\n\n';

export async function generateClientTypes(document: object): Promise<string> {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], { alphabetize: true });
  return `${BANNER}${astToString(ast)}`;
}

const inRepository = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** Each generated file and how it is made from the document. */
export const GENERATED_CLIENT_FILES: { file: string; generate: (document: object) => Promise<string> | string }[] = [
  { file: inRepository('api/clients/typescript/src/schema.d.ts'), generate: generateClientTypes },
  { file: inRepository('api/clients/python/gsm_client/types.py'), generate: generatePythonTypes },
  { file: inRepository('api/clients/go/types.go'), generate: generateGoTypes },
];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { writeFile } = await import('node:fs/promises');
  const { startTestApp } = await import('../support/app.ts');
  const app = await startTestApp();
  try {
    const document = (await (await app.request('/api/docs/openapi.json')).json()) as object;
    for (const { file, generate } of GENERATED_CLIENT_FILES) {
      await writeFile(file, await generate(document));
      process.stdout.write(`wrote ${file}\n`);
    }
  } finally {
    await app.close();
  }
}
