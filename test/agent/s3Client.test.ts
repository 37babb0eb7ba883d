/**
 * The S3 client of backups (agent/backups/s3Client.ts) against a local S3-compatible server that verifies every AWS
 * Signature V4 with the AWS SDK's own signer (test/support/s3Store.ts): put, head, get, delete; keys with spaces,
 * unicode and `+`; a wrong secret and a wrong payload hash refused; multipart above the single-PUT size, aborted on
 * failure; transient failures retried; the configuration's schema.
 */
import test from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client, S3Error, s3TargetSchema, type S3Target } from '../../agent/backups/s3Client.ts';
import { startS3Server, type S3Store } from '../support/s3Store.ts';

let store: S3Store;
let dir: string;
test.before(async () => {
  store = await startS3Server();
  dir = await mkdtemp(join(tmpdir(), 'gsm-s3-client-'));
});
test.after.always(async () => {
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

const target = (extra: Partial<S3Target> = {}): S3Target =>
  s3TargetSchema.parse({
    endpoint: store.url,
    bucket: store.bucket,
    region: store.region,
    accessKeyId: store.accessKeyId,
    secretAccessKey: store.secretAccessKey,
    ...extra,
  });
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function file(name: string, bytes: Buffer) {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return { path, bytes, size: bytes.length, sha256: sha256(bytes) };
}

async function read(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

test.serial('put, head, get and delete, with keys the signature must encode right', async (t) => {
  const client = new S3Client(target({ prefix: 'gsm/' }));
  const data = await file('a.bin', randomBytes(300_000));
  for (const key of ['server-1/plain.tar.gz', 'server 2/with space.tar.gz', 'server/ünïcødé +plus.tar.gz']) {
    await client.putFile(key, data.path, data.size, data.sha256);
    t.deepEqual(store.objectBytes(`gsm/${key}`), data.bytes, key);
    t.is(await client.head(key), data.size);
    t.deepEqual(await read(await client.getStream(key)), data.bytes);
    await client.delete(key);
    t.is(await client.head(key), undefined);
    const missing = await client.getStream(key).catch((error: unknown) => error);
    t.true(missing instanceof S3Error);
    t.is((missing as S3Error).code, 'NoSuchKey');
  }
  await client.delete('never/was.tar.gz'); // not an error
  t.pass();
});

test.serial('a wrong secret is refused by the store (its signature really is checked), and the secret is in no message', async (t) => {
  const wrongSecret = 'WRONG-SECRET-1234567890';
  const client = new S3Client(target({ secretAccessKey: wrongSecret }), { retries: 0 });
  const data = await file('b.bin', randomBytes(1000));
  const error = await client.putFile('x.tar.gz', data.path, data.size, data.sha256).catch((e: unknown) => e);
  t.true(error instanceof S3Error);
  t.is((error as S3Error).code, 'SignatureDoesNotMatch');
  t.is((error as S3Error).status, 403);
  t.false((error as Error).message.includes(wrongSecret));
  t.is(store.objectBytes('x.tar.gz'), undefined);
});

test.serial('a payload whose SHA-256 is not the one signed is refused and not stored', async (t) => {
  const client = new S3Client(target(), { retries: 0 });
  const data = await file('c.bin', randomBytes(5000));
  const error = await client.putFile('c.tar.gz', data.path, data.size, sha256(Buffer.from('other'))).catch((e: unknown) => e);
  t.true(error instanceof S3Error);
  t.is((error as S3Error).code, 'XAmzContentSHA256Mismatch');
  t.is(store.objectBytes('c.tar.gz'), undefined);
});

test.serial('above the single-PUT size: a multipart upload assembled in order; a part failing every retry aborts the upload', async (t) => {
  const client = new S3Client(target(), { partSizeBytes: 5 * 1024 * 1024, singlePutMaxBytes: 5 * 1024 * 1024, retries: 1 });
  const data = await file('d.bin', randomBytes(12 * 1024 * 1024));
  const before = store.requests.length;
  await client.putFile('big.tar.gz', data.path, data.size, data.sha256);
  t.deepEqual(store.objectBytes('big.tar.gz'), data.bytes);
  const calls = store.requests.slice(before).map((line) => line.replace(/uploadId=[0-9a-f]+/, 'uploadId=U'));
  t.deepEqual(calls, [
    `POST /${store.bucket}/big.tar.gz?uploads=`,
    `PUT /${store.bucket}/big.tar.gz?partNumber=1&uploadId=U`,
    `PUT /${store.bucket}/big.tar.gz?partNumber=2&uploadId=U`,
    `PUT /${store.bucket}/big.tar.gz?partNumber=3&uploadId=U`,
    `POST /${store.bucket}/big.tar.gz?uploadId=U`,
  ]);

  const mark = store.requests.length;
  const failing = client.putFile('broken.tar.gz', data.path, data.size, data.sha256);
  // CreateMultipartUpload goes through; then the first part fails, and so does its one retry.
  while (store.requests.length === mark) await new Promise((resolve) => setTimeout(resolve, 2));
  store.failNextRequests(2, 500);
  const error = await failing.catch((e: unknown) => e);
  t.true(error instanceof S3Error, String(error));
  t.is((error as S3Error).status, 500);
  const after = store.requests.slice(mark).map((line) => line.replace(/uploadId=[0-9a-f]+/, 'uploadId=U'));
  t.is(after.at(-1), `DELETE /${store.bucket}/broken.tar.gz?uploadId=U`, 'the upload was aborted');
  t.is(store.objectBytes('broken.tar.gz'), undefined);
});

test.serial('transient failures (503 SlowDown, 500) are retried', async (t) => {
  const client = new S3Client(target(), { retries: 3 });
  const data = await file('e.bin', randomBytes(2000));
  store.failNextRequests(2, 503);
  await client.putFile('retried.tar.gz', data.path, data.size, data.sha256);
  t.deepEqual(store.objectBytes('retried.tar.gz'), data.bytes);
  store.failNextRequests(1, 500);
  t.deepEqual(await read(await client.getStream('retried.tar.gz')), data.bytes);
});

test('the configuration block: defaults, and clear errors for bad values', (t) => {
  const parsed = s3TargetSchema.parse({ endpoint: 'https://s3.example.com', bucket: 'my-backups', accessKeyId: 'a', secretAccessKey: 'b' });
  t.like(parsed, { region: 'us-east-1', prefix: '', forcePathStyle: true });
  for (const bad of [
    { endpoint: 'ftp://x', bucket: 'my-backups', accessKeyId: 'a', secretAccessKey: 'b' },
    { endpoint: 'https://s3.example.com', bucket: 'My_Bucket', accessKeyId: 'a', secretAccessKey: 'b' },
    { endpoint: 'https://s3.example.com', bucket: 'my-backups', accessKeyId: '', secretAccessKey: 'b' },
    { endpoint: 'https://s3.example.com', bucket: 'my-backups', accessKeyId: 'a', secretAccessKey: 'b', prefix: '/abs' },
    { endpoint: 'https://s3.example.com', bucket: 'my-backups', accessKeyId: 'a', secretAccessKey: 'b', typo: 1 },
  ]) {
    t.false(s3TargetSchema.safeParse(bad).success, JSON.stringify(bad));
  }
});
