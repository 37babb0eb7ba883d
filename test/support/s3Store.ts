/**
 * A local S3-compatible server for tests: one bucket, objects on disk, path-style requests. Every request's AWS
 * Signature V4 is verified with the AWS SDK's own signer (@smithy/signature-v4), not with the signer under test: the
 * signature is computed again from the received method, path, query, signed headers and `x-amz-content-sha256`, and
 * a mismatch is `403 SignatureDoesNotMatch`. A body whose sha256 differs from its `x-amz-content-sha256` is `400
 * XAmzContentSHA256Mismatch` and is not stored, as S3 does. PutObject, GetObject, HeadObject, DeleteObject and the
 * multipart upload calls are supported.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SignatureV4 } from '@smithy/signature-v4';

const bytes = (data: string | ArrayBuffer | ArrayBufferView): Buffer =>
  typeof data === 'string' ? Buffer.from(data) : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);

class Sha256 {
  readonly #hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.#hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView) {
    this.#hash.update(bytes(data));
  }
  digest() {
    return Promise.resolve(new Uint8Array(this.#hash.digest()));
  }
  reset() {}
}

export type S3Store = {
  url: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The stored bytes of `key`, or undefined. */
  objectBytes: (key: string) => Buffer | undefined;
  /** `METHOD path?query` of every request, in order. */
  requests: string[];
  /** The next `count` requests answer `status`. */
  failNextRequests: (count: number, status: number) => void;
  close: () => Promise<void>;
};

const xmlError = (response: ServerResponse, status: number, code: string, message: string) =>
  void response
    .writeHead(status, { 'content-type': 'application/xml' })
    .end(`<?xml version="1.0"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);

export async function startS3Server(options: { region?: string } = {}): Promise<S3Store> {
  const dir = await mkdtemp(join(tmpdir(), 'gsm-s3-'));
  const bucket = 'gsm-backups';
  const region = options.region ?? 'eu-central-1';
  const accessKeyId = 'AKIATESTKEY';
  const secretAccessKey = randomBytes(20).toString('base64');
  const signer = new SignatureV4({ credentials: { accessKeyId, secretAccessKey }, region, service: 's3', sha256: Sha256, uriEscapePath: false });
  const requests: string[] = [];
  let failures = { count: 0, status: 500 };
  const uploads = new Map<string, { key: string; parts: Map<number, { file: string; etag: string }> }>();
  const fileOf = (key: string) => join(dir, `o-${createHash('sha256').update(key).digest('hex')}`);

  async function verified(request: IncomingMessage, url: URL): Promise<boolean> {
    const authorization = request.headers.authorization ?? '';
    const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
    const amzDate = String(request.headers['x-amz-date'] ?? '');
    if (!match || match[1] !== accessKeyId || !/^\d{8}T\d{6}Z$/.test(amzDate)) return false;
    const signedHeaders = match[4]!.split(';');
    const headers: Record<string, string> = {};
    for (const name of signedHeaders) headers[name] = String(request.headers[name] ?? '');
    const query: Record<string, string> = {};
    for (const [name, value] of url.searchParams) query[name] = value;
    const date = new Date(
      `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
    );
    const rawPath = (request.url ?? '/').split('?')[0]!;
    const signed = await signer.sign(
      { method: request.method!, protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: rawPath, query, headers },
      { signingDate: date, signableHeaders: new Set(signedHeaders), unsignableHeaders: new Set() },
    );
    const expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization ?? signed.headers.Authorization))?.[1];
    return expected === match[5];
  }

  /** The body to `file`, checked against x-amz-content-sha256; answers whether it matched. */
  async function receive(request: IncomingMessage, file: string): Promise<boolean> {
    const hash = createHash('sha256');
    const partial = `${file}.incoming`;
    await pipeline(
      request,
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      }),
      createWriteStream(partial),
    );
    const declared = String(request.headers['x-amz-content-sha256'] ?? '');
    if (declared !== 'UNSIGNED-PAYLOAD' && declared !== hash.digest('hex')) {
      await rm(partial, { force: true });
      return false;
    }
    await rename(partial, file);
    return true;
  }

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
      requests.push(`${request.method} ${url.pathname}${url.search}`);
      if (failures.count > 0) {
        failures.count -= 1;
        request.resume();
        return xmlError(response, failures.status, failures.status === 503 ? 'SlowDown' : 'InternalError', 'failing on purpose');
      }
      if (!(await verified(request, url))) {
        request.resume();
        return xmlError(response, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
      }
      const prefix = `/${bucket}/`;
      if (!url.pathname.startsWith(prefix)) return xmlError(response, 404, 'NoSuchBucket', 'no such bucket');
      const key = decodeURIComponent(url.pathname.slice(prefix.length));
      const file = fileOf(key);
      const uploadId = url.searchParams.get('uploadId');
      switch (request.method) {
        case 'PUT': {
          const part = Number(url.searchParams.get('partNumber'));
          const upload = uploadId ? uploads.get(uploadId) : undefined;
          if (uploadId && !upload) return xmlError(response, 404, 'NoSuchUpload', 'no such upload');
          const target = upload ? `${file}.part-${uploadId}-${part}` : file;
          if (!(await receive(request, target)))
            return xmlError(response, 400, 'XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 does not match what was computed.');
          const etag = `"${createHash('md5').update(readFileSync(target)).digest('hex')}"`;
          upload?.parts.set(part, { file: target, etag });
          return void response.writeHead(200, { etag }).end();
        }
        case 'POST': {
          if (url.searchParams.has('uploads')) {
            const id = randomBytes(8).toString('hex');
            uploads.set(id, { key, parts: new Map() });
            return void response.writeHead(200).end(`<InitiateMultipartUploadResult><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
          }
          const upload = uploadId ? uploads.get(uploadId) : undefined;
          if (!upload) return xmlError(response, 404, 'NoSuchUpload', 'no such upload');
          const chunks: Buffer[] = [];
          for await (const chunk of request) chunks.push(chunk as Buffer);
          const listed = [
            ...Buffer.concat(chunks)
              .toString()
              .matchAll(/<PartNumber>(\d+)<\/PartNumber><ETag>([^<]+)<\/ETag>/g),
          ].map((m) => ({
            part: Number(m[1]),
            etag: m[2]!.replaceAll('&#34;', '"'),
          }));
          const inOrder = listed.every((entry, index) => entry.part === index + 1);
          if (!inOrder || listed.some((entry) => upload.parts.get(entry.part)?.etag !== entry.etag))
            return xmlError(response, 400, 'InvalidPart', 'parts do not match');
          const out = createWriteStream(`${file}.assembling`);
          for (const entry of listed) await pipeline(createReadStream(upload.parts.get(entry.part)!.file), out, { end: false });
          await new Promise<void>((resolve) => out.end(resolve));
          await rename(`${file}.assembling`, file);
          for (const part of upload.parts.values()) await rm(part.file, { force: true });
          uploads.delete(uploadId!);
          return void response.writeHead(200).end('<CompleteMultipartUploadResult><ETag>"done"</ETag></CompleteMultipartUploadResult>');
        }
        case 'DELETE': {
          if (uploadId) {
            for (const part of uploads.get(uploadId)?.parts.values() ?? []) await rm(part.file, { force: true });
            uploads.delete(uploadId);
          } else await rm(file, { force: true });
          return void response.writeHead(204).end();
        }
        case 'GET':
        case 'HEAD': {
          const info = await stat(file).catch(() => undefined);
          if (!info)
            return request.method === 'HEAD' ? void response.writeHead(404).end() : xmlError(response, 404, 'NoSuchKey', 'The specified key does not exist.');
          response.writeHead(200, { 'content-length': info.size });
          if (request.method === 'HEAD') return void response.end();
          return void (await pipeline(createReadStream(file), response));
        }
      }
      xmlError(response, 405, 'MethodNotAllowed', 'method not allowed');
    })().catch((error: unknown) => {
      if (!response.headersSent) xmlError(response, 500, 'InternalError', String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    objectBytes: (key) => (existsSync(fileOf(key)) ? readFileSync(fileOf(key)) : undefined),
    requests,
    failNextRequests: (count, status) => (failures = { count, status }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
