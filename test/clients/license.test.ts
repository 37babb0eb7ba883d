/**
 * The project is MIT-licensed, and says so wherever a user of one of its parts looks: the LICENSE at the root, the
 * package.json files, each client package (with a LICENSE of its own, shipped with it) and the API document.
 */
import test from 'ava';
import { readFile } from 'node:fs/promises';

const read = (path: string) => readFile(new URL(`../../${path}`, import.meta.url), 'utf8');

test('the MIT licence is at the root and in every package', async (t) => {
  const license = await read('LICENSE');
  t.regex(license, /^MIT License\n\nCopyright \(c\) \d{4} /);
  t.true(license.includes('Permission is hereby granted, free of charge'));
  for (const path of ['package.json', 'agent/package.json', 'api/clients/typescript/package.json']) t.is(JSON.parse(await read(path)).license, 'MIT', path);
  t.true(JSON.parse(await read('api/clients/typescript/package.json')).files.includes('LICENSE'), 'npm packs it');
  t.is(JSON.parse(await read('package-lock.json')).packages[''].license, 'MIT');
  const pyproject = await read('api/clients/python/pyproject.toml');
  t.regex(pyproject, /^license = \{ text = "MIT" \}$/m);
  t.regex(pyproject, /"License :: OSI Approved :: MIT License"/);
  // pkg.go.dev and PyPI read the licence from the package's own folder.
  for (const folder of ['api/clients/typescript', 'api/clients/python', 'api/clients/go']) t.is(await read(`${folder}/LICENSE`), license, folder);
});
