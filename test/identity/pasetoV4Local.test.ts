import test from 'ava';
import { decryptV4Local, encryptV4Local, importV4LocalKey, v4Local } from '../../api/identity/pasetoV4Local.ts';
import { generatePasetoKey } from '../../api/identity/secrets.ts';

/** Official PASETO v4.local test vectors (paseto-standard/test-vectors, v4.json, 4-E-1 … 4-E-9). */
const KEY = Buffer.from('707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f', 'hex');
const NONCE_0 = '0'.repeat(64);
const NONCE_1 = 'df654812bac492663825520ba2f6e67cf5ca5bdc13d4e7507a98cc4c2fcc3ad8';
const SECRET = '{"data":"this is a secret message","exp":"2022-01-01T00:00:00+00:00"}';
const HIDDEN = '{"data":"this is a hidden message","exp":"2022-01-01T00:00:00+00:00"}';
const KID = '{"kid":"zVhMiPBP9fRf2snEcT7gFTioeA9COcNy9DfgL1W60haN"}';
const VECTORS = [
  {
    name: '4-E-1',
    nonce: NONCE_0,
    message: SECRET,
    footer: '',
    implicit: '',
    token:
      'v4.local.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAr68PS4AXe7If_ZgesdkUMvSwscFlAl1pk5HC0e8kApeaqMfGo_7OpBnwJOAbY9V7WU6abu74MmcUE8YWAiaArVI8XJ5hOb_4v9RmDkneN0S92dx0OW4pgy7omxgf3S8c3LlQg',
  },
  {
    name: '4-E-2',
    nonce: NONCE_0,
    message: HIDDEN,
    footer: '',
    implicit: '',
    token:
      'v4.local.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAr68PS4AXe7If_ZgesdkUMvS2csCgglvpk5HC0e8kApeaqMfGo_7OpBnwJOAbY9V7WU6abu74MmcUE8YWAiaArVI8XIemu9chy3WVKvRBfg6t8wwYHK0ArLxxfZP73W_vfwt5A',
  },
  {
    name: '4-E-3',
    nonce: NONCE_1,
    message: SECRET,
    footer: '',
    implicit: '',
    token:
      'v4.local.32VIErrEkmY4JVILovbmfPXKW9wT1OdQepjMTC_MOtjA4kiqw7_tcaOM5GNEcnTxl60WkwMsYXw6FSNb_UdJPXjpzm0KW9ojM5f4O2mRvE2IcweP-PRdoHjd5-RHCiExR1IK6t6-tyebyWG6Ov7kKvBdkrrAJ837lKP3iDag2hzUPHuMKA',
  },
  {
    name: '4-E-5',
    nonce: NONCE_1,
    message: SECRET,
    footer: KID,
    implicit: '',
    token:
      'v4.local.32VIErrEkmY4JVILovbmfPXKW9wT1OdQepjMTC_MOtjA4kiqw7_tcaOM5GNEcnTxl60WkwMsYXw6FSNb_UdJPXjpzm0KW9ojM5f4O2mRvE2IcweP-PRdoHjd5-RHCiExR1IK6t4x-RMNXtQNbz7FvFZ_G-lFpk5RG3EOrwDL6CgDqcerSQ.eyJraWQiOiJ6VmhNaVBCUDlmUmYyc25FY1Q3Z0ZUaW9lQTlDT2NOeTlEZmdMMVc2MGhhTiJ9',
  },
  {
    name: '4-E-7',
    nonce: NONCE_1,
    message: SECRET,
    footer: KID,
    implicit: '{"test-vector":"4-E-7"}',
    token:
      'v4.local.32VIErrEkmY4JVILovbmfPXKW9wT1OdQepjMTC_MOtjA4kiqw7_tcaOM5GNEcnTxl60WkwMsYXw6FSNb_UdJPXjpzm0KW9ojM5f4O2mRvE2IcweP-PRdoHjd5-RHCiExR1IK6t40KCCWLA7GYL9KFHzKlwY9_RnIfRrMQpueydLEAZGGcA.eyJraWQiOiJ6VmhNaVBCUDlmUmYyc25FY1Q3Z0ZUaW9lQTlDT2NOeTlEZmdMMVc2MGhhTiJ9',
  },
  {
    name: '4-E-9',
    nonce: NONCE_1,
    message: HIDDEN,
    footer: "arbitrary-string-that-isn't-json",
    implicit: '{"test-vector":"4-E-9"}',
    token:
      'v4.local.32VIErrEkmY4JVILovbmfPXKW9wT1OdQepjMTC_MOtjA4kiqw7_tcaOM5GNEcnTxl60WiA8rd3wgFSNb_UdJPXjpzm0KW9ojM5f4O2mRvE2IcweP-PRdoHjd5-RHCiExR1IK6t6tybdlmnMwcDMw0YxA_gFSE_IUWl78aMtOepFYSWYfQA.YXJiaXRyYXJ5LXN0cmluZy10aGF0LWlzbid0LWpzb24',
  },
];

const bytes = (text: string) => new TextEncoder().encode(text);

for (const vector of VECTORS) {
  test(`official vector ${vector.name}: encrypts to the expected token and decrypts back`, (t) => {
    const body = encryptV4Local(KEY, bytes(vector.message), bytes(vector.footer), bytes(vector.implicit), Buffer.from(vector.nonce, 'hex'));
    const footerPart = vector.footer ? `.${Buffer.from(vector.footer).toString('base64url')}` : '';
    t.is(`v4.local.${Buffer.from(body).toString('base64url')}${footerPart}`, vector.token);
    const payload = Buffer.from(vector.token.split('.')[2]!, 'base64url');
    t.is(new TextDecoder().decode(decryptV4Local(KEY, payload, bytes(vector.footer), bytes(vector.implicit))), vector.message);
  });
}

test('a tampered token, a wrong key or a wrong implicit assertion is rejected', (t) => {
  const vector = VECTORS[4]!;
  const payload = Buffer.from(vector.token.split('.')[2]!, 'base64url');
  const tampered = Buffer.from(payload);
  tampered[40]! ^= 1;
  t.throws(() => decryptV4Local(KEY, tampered, bytes(vector.footer), bytes(vector.implicit)));
  t.throws(() => decryptV4Local(Buffer.alloc(32, 1), payload, bytes(vector.footer), bytes(vector.implicit)));
  t.throws(() => decryptV4Local(KEY, payload, bytes(vector.footer), bytes('{"test-vector":"other"}')));
});

test('claims round-trip through the paseto token layer, and expiry is enforced', async (t) => {
  const key = importV4LocalKey(generatePasetoKey());
  const token = await v4Local.Encrypt(key, { sub: 'user-1', sid: 'session-1' }, { expiresIn: 3600 });
  t.true(token.startsWith('v4.local.'));
  const { claims } = await v4Local.Decrypt(key, token);
  t.is(claims.sub, 'user-1');
  t.is(claims.sid, 'session-1');
  const expired = await v4Local.Encrypt(key, { sub: 'user-1', exp: new Date(Date.now() - 1_000).toISOString() });
  await t.throwsAsync(v4Local.Decrypt(key, expired));
  await t.throwsAsync(v4Local.Decrypt(importV4LocalKey(generatePasetoKey()), token), undefined, 'another key');
});
