/**
 * The files benchmark's baseline (test/bench/files.ts): a bare Node static file server over the directory given as its
 * argument. GET streams a file, PUT writes one; no authentication, no checks, nothing else. Prints `PORT <n>` on
 * standard error once it listens.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

const root = process.argv[2]!;
const server = createServer((request, response) => {
  const file = join(root, decodeURIComponent(new URL(request.url ?? '/', 'http://bench').pathname));
  if (request.method === 'PUT') {
    pipeline(request, createWriteStream(file)).then(
      () => response.end('{}'),
      () => response.destroy(),
    );
    return;
  }
  stat(file).then(
    (info) => {
      response.setHeader('content-length', info.size);
      pipeline(createReadStream(file), response).catch(() => undefined);
    },
    () => {
      response.statusCode = 404;
      response.end();
    },
  );
});
server.listen(0, '127.0.0.1', () => process.stderr.write(`PORT ${(server.address() as AddressInfo).port}\n`));
