/**
 * A small client for S3-compatible storage (AWS S3, MinIO, R2, B2, Wasabi …), just what backups need: put a file, get
 * it back as a stream, delete it, ask its size (docs/installs-and-backups.md#s3-compatible-storage). Requests are
 * signed with AWS Signature V4 by `aws4`, with the payload's SHA-256 as `x-amz-content-sha256`, so the store checks
 * the bytes it received. Bodies are streamed from the file: memory stays flat whatever the archive's size. Files up to
 * `singlePutMaxBytes` (S3's 5 GiB) go in one PUT, larger ones in a multipart upload that is aborted when it fails (no
 * orphaned parts). Network errors, 5xx and 429 answers are retried with a back-off; credentials never appear in an
 * error message.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import aws4 from 'aws4';
import { z } from 'zod';

/** S3's bucket names: 3..63 lower-case letters, digits, dots and dashes. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export const s3TargetSchema = z
  .object({
    endpoint: z.url({ protocol: /^https?$/, message: 'expected the http(s) URL of the S3 endpoint' }),
    bucket: z.string().regex(BUCKET, 'expected an S3 bucket name (3..63 lower-case letters, digits, dots and dashes)'),
    region: z.string().min(1).max(64).default('us-east-1'),
    accessKeyId: z.string().min(1, 'expected the access key id').max(256),
    secretAccessKey: z.string().min(1, 'expected the secret access key').max(256),
    prefix: z
      .string()
      .max(512)
      .refine((prefix) => !prefix.startsWith('/'), 'must not start with /')
      .default(''),
    forcePathStyle: z.boolean().default(true),
  })
  .strict();
export type S3Target = z.output<typeof s3TargetSchema>;

export class S3Error extends Error {
  readonly status: number | undefined;
  readonly code: string;
  constructor(code: string, message: string, status?: number) {
    super(message);
    this.name = 'S3Error';
    this.code = code;
    this.status = status;
  }
}

/** A failure another attempt may mend. */
const transient = (error: unknown) =>
  !(error instanceof S3Error) || error.code === 'NETWORK' || (error.status !== undefined && (error.status >= 500 || error.status === 429));

/** Each path segment URI-encoded as S3 expects (RFC 3986; `/` kept between segments). */
const encodeKey = (key: string) =>
  key
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');

const EMPTY_SHA256 = createHash('sha256').digest('hex');

type Call = { method: string; key: string; query?: string; headers?: Record<string, string | number>; sha256?: string; body?: () => Readable | Buffer };

export class S3Client {
  readonly #target: S3Target;
  readonly #endpoint: URL;
  readonly #partSize: number;
  readonly #singlePutMax: number;
  readonly #retries: number;
  readonly #timeoutMs: number;

  constructor(target: S3Target, options: { partSizeBytes?: number; singlePutMaxBytes?: number; retries?: number; timeoutMs?: number } = {}) {
    this.#target = target;
    this.#endpoint = new URL(target.endpoint);
    this.#partSize = options.partSizeBytes ?? 64 * 1024 * 1024;
    this.#singlePutMax = options.singlePutMaxBytes ?? 5 * 1024 * 1024 * 1024;
    this.#retries = options.retries ?? 3;
    this.#timeoutMs = options.timeoutMs ?? 60_000;
  }

  async putFile(key: string, file: string, sizeBytes: number, sha256: string, signal?: AbortSignal): Promise<void> {
    if (sizeBytes <= this.#singlePutMax) {
      await this.#retry(() =>
        this.#send({ method: 'PUT', key, headers: { 'Content-Length': sizeBytes }, sha256, body: () => createReadStream(file) }, signal).then(drain),
      );
      return;
    }
    await this.#multipart(key, file, sizeBytes, signal);
  }

  async getStream(key: string, signal?: AbortSignal): Promise<Readable> {
    return this.#retry(() => this.#send({ method: 'GET', key }, signal));
  }

  async delete(key: string): Promise<void> {
    try {
      await this.#retry(() => this.#send({ method: 'DELETE', key }).then(drain));
    } catch (error) {
      if (!(error instanceof S3Error && error.status === 404)) throw error;
    }
  }

  async head(key: string): Promise<number | undefined> {
    try {
      const response = await this.#retry(() => this.#send({ method: 'HEAD', key }));
      await drain(response);
      return Number(response.headers['content-length']);
    } catch (error) {
      if (error instanceof S3Error && error.status === 404) return undefined;
      throw error;
    }
  }

  async #multipart(key: string, file: string, sizeBytes: number, signal?: AbortSignal): Promise<void> {
    const created = await this.#retry(() => this.#send({ method: 'POST', key, query: 'uploads=' }, signal).then(text));
    const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(created)?.[1];
    if (!uploadId) throw new S3Error('MALFORMED', 'the store answered CreateMultipartUpload without an UploadId');
    const upload = `uploadId=${encodeURIComponent(uploadId)}`;
    try {
      const etags: string[] = [];
      for (let part = 1, start = 0; start < sizeBytes; part++, start += this.#partSize) {
        const end = Math.min(sizeBytes, start + this.#partSize) - 1;
        const range = () => createReadStream(file, { start, end });
        const hash = createHash('sha256');
        await pipeline(range(), hash);
        const partSha256 = hash.digest('hex');
        const response = await this.#retry(() =>
          this.#send(
            { method: 'PUT', key, query: `partNumber=${part}&${upload}`, headers: { 'Content-Length': end - start + 1 }, sha256: partSha256, body: range },
            signal,
          ),
        );
        await drain(response);
        const etag = response.headers.etag;
        if (!etag) throw new S3Error('MALFORMED', `the store answered part ${part} without an ETag`);
        etags.push(etag);
      }
      const xml = Buffer.from(
        `<CompleteMultipartUpload>${etags.map((etag, index) => `<Part><PartNumber>${index + 1}</PartNumber><ETag>${escapeXml(etag)}</ETag></Part>`).join('')}</CompleteMultipartUpload>`,
      );
      const completed = await this.#retry(() =>
        this.#send(
          {
            method: 'POST',
            key,
            query: upload,
            headers: { 'Content-Length': xml.length, 'Content-Type': 'application/xml' },
            body: () => xml,
            sha256: sha256Of(xml),
          },
          signal,
        ).then(text),
      );
      // S3 may answer 200 with an error body when completing.
      const failed = /<Error>[\s\S]*?<Code>([^<]+)<\/Code>[\s\S]*?(?:<Message>([^<]*)<\/Message>)?/.exec(completed);
      if (failed) throw new S3Error(failed[1]!, failed[2] ?? failed[1]!);
    } catch (error) {
      await this.#send({ method: 'DELETE', key, query: upload })
        .then(drain)
        .catch(() => undefined);
      throw error;
    }
  }

  async #retry<T>(attempt: () => Promise<T>): Promise<T> {
    let delay = 500;
    for (let tried = 0; ; tried++) {
      try {
        return await attempt();
      } catch (error) {
        if (tried >= this.#retries || !transient(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay *= 2;
      }
    }
  }

  /** One signed request; resolves with the response when it is 2xx, rejects with an S3Error otherwise. */
  #send(call: Call, signal?: AbortSignal): Promise<IncomingMessage> {
    const target = this.#target;
    const fullKey = `${target.prefix}${call.key}`;
    const pathStyle = target.forcePathStyle;
    const host = pathStyle ? this.#endpoint.host : `${target.bucket}.${this.#endpoint.host}`;
    const basePath = this.#endpoint.pathname.replace(/\/$/, '');
    const path = `${basePath}${pathStyle ? `/${target.bucket}` : ''}/${encodeKey(fullKey)}${call.query ? `?${call.query}` : ''}`;
    const signed = aws4.sign(
      {
        host,
        path,
        method: call.method,
        service: 's3',
        region: target.region,
        headers: { ...call.headers, 'X-Amz-Content-Sha256': call.sha256 ?? EMPTY_SHA256 },
      },
      { accessKeyId: target.accessKeyId, secretAccessKey: target.secretAccessKey },
    );
    const send = this.#endpoint.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = send({
        protocol: this.#endpoint.protocol,
        hostname: this.#endpoint.hostname,
        port: this.#endpoint.port || undefined,
        method: call.method,
        path,
        headers: signed.headers as Record<string, string>,
        timeout: this.#timeoutMs,
        signal,
      });
      request.on('timeout', () => request.destroy(new Error(`no answer within ${this.#timeoutMs} ms`)));
      request.on('error', (error) => reject(signal?.aborted ? error : new S3Error('NETWORK', `${call.method} ${fullKey}: ${error.message}`)));
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) return resolve(response);
        void text(response).then(
          (body) => {
            const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1] ?? `HTTP_${status}`;
            const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1] ?? '';
            reject(new S3Error(code, `${call.method} ${fullKey}: ${status} ${code}${message ? `: ${message}` : ''}`, status));
          },
          () => reject(new S3Error(`HTTP_${status}`, `${call.method} ${fullKey}: ${status}`, status)),
        );
      });
      const body = call.body?.();
      if (!body) request.end();
      else if (Buffer.isBuffer(body)) request.end(body);
      else pipeline(body, request).catch((error: unknown) => request.destroy(error as Error));
    });
  }
}

const sha256Of = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

async function text(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    // Answers this client reads are small XML documents; anything beyond is not kept.
    if (size < 1 << 20) chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function drain(response: IncomingMessage): Promise<IncomingMessage> {
  response.resume();
  await new Promise<void>((resolve) =>
    response.complete
      ? resolve()
      : response
          .on('end', resolve)
          .on('error', () => resolve())
          .on('close', resolve),
  );
  return response;
}
