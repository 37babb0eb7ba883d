/**
 * Team onboarding: invitation links and e-mails, registering (or signing in with Steam) with an invitation while
 * registration is closed, and self-service password reset by e-mail. E-mail goes to a real local SMTP server.
 */
import test from 'ava';
import { sql } from 'slonik';
import { body, json, useTestApp, type TestApp } from '../support/app.ts';
import { createCluster, PASSWORD, signUp, type TestUser } from '../support/identity.ts';
import { startTestSmtp } from '../support/smtp.ts';
import { startOAuthProvider } from '../support/oauthProvider.ts';
import { bearer, callbackUrl, get, PUBLIC_URL } from '../support/oauthFlow.ts';

const smtp = await startTestSmtp();
const provider = await startOAuthProvider();
test.after.always(async () => {
  await smtp.close();
  await provider.close();
});

/** Registration closed, e-mail configured, Steam sign-in from the local provider. */
const mailing = useTestApp(test, {
  env: {
    ALLOW_REGISTRATION: 'false',
    SMTP_URL: smtp.url,
    SMTP_FROM: 'Game servers <noreply@gsm.test>',
    PUBLIC_URL,
    STEAM_OPENID_URL: provider.env.STEAM_OPENID_URL!,
  },
});
/** Registration closed, no e-mail. */
const plain = useTestApp(test, { env: { ALLOW_REGISTRATION: 'false', PUBLIC_URL } });

/** The Subject header, decoded when it is a quoted-printable encoded word (nodemailer encodes one with quotes in it). */
function subjectOf(raw: string): string {
  const header = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
  const word = /^=\?UTF-8\?Q\?(.*)\?=$/i.exec(header)?.[1];
  if (word === undefined) return header;
  return Buffer.from(
    word.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

let sequence = 0;
const address = (name: string) => `${name}-${++sequence}@example.test`;

async function invite(app: TestApp, owner: TestUser, clusterId: string, email: string, role = 'MODERATOR') {
  const response = await app.request(`/api/v1/clusters/${clusterId}/invitations`, json({ email, role }, { headers: owner.auth }));
  if (response.status !== 201) throw new Error(`invite failed: ${response.status} ${await response.text()}`);
  return body(response);
}

const register = (app: TestApp, input: Record<string, unknown>) =>
  app.request('/auth/register', json({ password: 'long enough secret', displayName: 'Invitee', ...input }));

const memberRole = (app: TestApp, clusterId: string, email: string) =>
  app.pool.maybeOneFirst(sql.unsafe`
    SELECT m.role FROM cluster_members m JOIN users u ON u.id = m.user_id WHERE m.cluster_id = ${clusterId} AND u.email = ${email.toLowerCase()}`);

const userCount = (app: TestApp, email: string) => app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM users WHERE lower(email) = ${email.toLowerCase()}`);

test('an invitation is e-mailed with its link, and the link lets the invitee create an account and join while registration is closed', async (t) => {
  const app = mailing();
  const owner = await signUp(app, 'owner');
  const clusterId = await createCluster(app, owner, 'Rust EU');
  const email = address('moderator');

  const sent = smtp.mails.length;
  const invitation = await invite(app, owner, clusterId, email);
  t.is(invitation.link, `${PUBLIC_URL}/invite#token=${invitation.token}`);
  t.true(invitation.emailed);
  const mail = await smtp.next(email, sent);
  t.is(mail.from, 'noreply@gsm.test');
  t.is(subjectOf(mail.raw), '"owner" invited you to "Rust EU"');
  t.true(mail.text.includes(invitation.link), 'the e-mail carries the link');
  t.true(mail.text.includes('MODERATOR'));

  // The page shows what the invitation is before the invitee signs up.
  const preview = await app.request('/api/v1/invitations/preview', json({ token: invitation.token }));
  t.is(preview.status, 200);
  const previewed = await body(preview);
  t.like(previewed, { email, role: 'MODERATOR', clusterName: 'Rust EU', clusterId, status: 'PENDING' });
  // Nothing in it tells whether the address has an account.
  t.deepEqual(Object.keys(previewed).sort(), ['clusterId', 'clusterName', 'email', 'expiresAt', 'role', 'status']);

  // Without the invitation, registration is closed.
  t.is((await register(app, { email })).status, 403);
  const created = await register(app, { email, invitationToken: invitation.token });
  t.is(created.status, 201);
  const pair = await body(created);
  t.is(pair.user.email, email);
  t.is(await memberRole(app, clusterId, email), 'MODERATOR');
  // Signed in and a member at once: the new account sees its cluster.
  const cluster = await app.request(`/api/v1/clusters/${clusterId}`, { headers: bearer(pair.accessToken) });
  t.is(cluster.status, 200);

  const list = await body(await app.request(`/api/v1/clusters/${clusterId}/invitations`, { headers: owner.auth }));
  t.is(list.data.find((item: { id: string }) => item.id === invitation.id).status, 'ACCEPTED');
  const audit = await app.pool.anyFirst(sql.unsafe`SELECT action FROM audit_log WHERE target_id = ${invitation.id} ORDER BY at, id`);
  t.deepEqual(audit, ['invitation.create', 'invitation.accept']);

  // Spent: it cannot create a second account.
  const again = await register(app, { email: address('other'), invitationToken: invitation.token });
  t.is(again.status, 409);
});

test('names in e-mails are quoted on one line: a cluster or display name cannot write a paragraph of its own', async (t) => {
  const app = mailing();
  const owner = await signUp(app, 'owner');
  const clusterId = await createCluster(app, owner, 'Rust EU');
  // Names are refused with line breaks now (test/http/names.test.ts); rows written before that may still have them.
  const forged = 'Rust EU"\n\nYour account was suspended, sign in at https://evil.example\u2028';
  await app.pool.query(sql.unsafe`UPDATE clusters SET name = ${forged} WHERE id = ${clusterId}`);
  await app.pool.query(sql.unsafe`UPDATE users SET display_name = ${'Owner\r\nSupport team'} WHERE id = ${owner.id}`);

  const email = address('quoted');
  const sent = smtp.mails.length;
  await invite(app, owner, clusterId, email);
  const mail = await smtp.next(email, sent);
  t.true(
    mail.text.includes(
      '"Owner Support team" invited you to join the cluster "Rust EU\\" Your account was suspended, sign in at https://evil.example " as MODERATOR.',
    ),
    mail.text,
  );
  t.false(/^Your account/m.test(mail.text), mail.text);
  t.false(/^Support team/m.test(mail.text), mail.text);

  const reset = smtp.mails.length;
  t.is((await app.request('/auth/password-reset', json({ email: owner.email }))).status, 202);
  const resetMail = await smtp.next(owner.email, reset);
  t.true(resetMail.text.startsWith('Hello "Owner Support team",'), resetMail.text);
});

test('names in e-mails lose their bidi and zero-width characters, so a name cannot reorder its quotes or the sentence after it', async (t) => {
  const app = mailing();
  const owner = await signUp(app, 'owner');
  const clusterId = await createCluster(app, owner, 'Rust EU');
  // Refused by the API now (test/http/names.test.ts); rows written before that may still have them.
  await app.pool.query(sql.unsafe`UPDATE clusters SET name = ${'Rust\u202E UE\u2066\u200B\uFEFF'} WHERE id = ${clusterId}`);
  await app.pool.query(sql.unsafe`UPDATE users SET display_name = ${'\u2067Owner\u200F\u061C'} WHERE id = ${owner.id}`);

  const email = address('isolated');
  const sent = smtp.mails.length;
  await invite(app, owner, clusterId, email);
  const mail = await smtp.next(email, sent);
  t.true(mail.text.includes('"Owner" invited you to join the cluster "Rust UE" as MODERATOR.'), mail.text);
  t.false(/[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/u.test(mail.text), JSON.stringify(mail.text));
  t.is(subjectOf(mail.raw), '"Owner" invited you to "Rust UE"');
});

test('registering with an invitation needs the invited e-mail, a pending invitation and a real token', async (t) => {
  const app = mailing();
  const owner = await signUp(app, 'owner');
  const clusterId = await createCluster(app, owner);

  const email = address('viewer');
  const invitation = await invite(app, owner, clusterId, email, 'VIEWER');
  const wrongEmail = address('stranger');
  const refused = await register(app, { email: wrongEmail, invitationToken: invitation.token });
  t.is(refused.status, 403);
  t.regex((await body(refused)).message, /another e-mail/);
  t.is(await userCount(app, wrongEmail), 0, 'nothing was created');

  const revokedEmail = address('revoked');
  const revoked = await invite(app, owner, clusterId, revokedEmail);
  t.is((await app.request(`/api/v1/clusters/${clusterId}/invitations/${revoked.id}`, { method: 'DELETE', headers: owner.auth })).status, 200);
  const afterRevoke = await register(app, { email: revokedEmail, invitationToken: revoked.token });
  t.is(afterRevoke.status, 409);
  t.regex((await body(afterRevoke)).message, /revoked/);

  const expiredEmail = address('expired');
  const expired = await invite(app, owner, clusterId, expiredEmail);
  await app.pool.query(sql.unsafe`UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE id = ${expired.id}`);
  const afterExpiry = await register(app, { email: expiredEmail, invitationToken: expired.token });
  t.is(afterExpiry.status, 409);
  t.regex((await body(afterExpiry)).message, /expired/);
  t.is(await userCount(app, expiredEmail), 0);

  const unknown = `gsm_invite_${'A'.repeat(43)}`;
  t.is((await register(app, { email: address('unknown'), invitationToken: unknown })).status, 404);
  t.is((await register(app, { email: address('garbage'), invitationToken: 'not a token' })).status, 404);
  t.is((await app.request('/api/v1/invitations/preview', json({ token: unknown }))).status, 404);
  t.is((await app.request('/api/v1/invitations/preview', json({}))).status, 400);

  // The invitation still works for its own address after all of that.
  t.is((await register(app, { email: email.toUpperCase(), invitationToken: invitation.token })).status, 201);
  t.is(await memberRole(app, clusterId, email), 'VIEWER');
});

test('the link is a credential for its address: its holder (the inviter too) learns by a 409 that the address has an account, and nothing changes', async (t) => {
  const app = mailing();
  const owner = await signUp(app, 'owner');
  const clusterId = await createCluster(app, owner);
  const existing = await signUp(app, 'existing');
  const invitation = await invite(app, owner, clusterId, existing.email, 'VIEWER');
  // The preview does not tell (docs/access.md)…
  const previewed = await body(await app.request('/api/v1/invitations/preview', json({ token: invitation.token })));
  t.deepEqual(Object.keys(previewed).sort(), ['clusterId', 'clusterName', 'email', 'expiresAt', 'role', 'status']);
  // …but registering with the link does: whoever holds it learns that the address is registered.
  const taken = await register(app, { email: existing.email, invitationToken: invitation.token });
  t.is(taken.status, 409);
  t.is(await userCount(app, existing.email), 1);
  t.is(await memberRole(app, clusterId, existing.email), null);
  const list = await body(await app.request(`/api/v1/clusters/${clusterId}/invitations`, { headers: owner.auth }));
  t.is(list.data.find((item: { id: string }) => item.id === invitation.id).status, 'PENDING');
});

test('without SMTP_URL the link is in the answer, nothing is e-mailed, and self-service reset is not offered', async (t) => {
  const app = plain();
  const owner = await signUp(app, 'owner');
  const clusterId = await createCluster(app, owner);
  const invitation = await invite(app, owner, clusterId, address('nomail'));
  t.false(invitation.emailed);
  t.is(invitation.link, `${PUBLIC_URL}/invite#token=${invitation.token}`);
  const reset = await app.request('/auth/password-reset', json({ email: owner.email }));
  t.is(reset.status, 404);
  t.regex((await body(reset)).message, /npm run admin -- reset-password/);
});

test('a password reset e-mail works once, within its hour, and ends every session of the account', async (t) => {
  const app = mailing();
  const user = await signUp(app, 'forgetful');
  const bystander = await signUp(app, 'bystander');

  // An unknown address gets the same answer and no e-mail: the next e-mail sent is the bystander's.
  const sent = smtp.mails.length;
  const unknown = await app.request('/auth/password-reset', json({ email: 'nobody@example.test' }));
  t.is(unknown.status, 202);
  const known = await app.request('/api/v1/auth/password-reset', json({ email: bystander.email }));
  t.is(known.status, 202);
  t.deepEqual(await body(unknown), await body(known));
  await smtp.next(bystander.email, sent);
  t.false(smtp.mails.slice(sent).some((mail) => mail.to.includes('nobody@example.test')));

  const before = smtp.mails.length;
  t.is((await app.request('/auth/password-reset', json({ email: user.email.toUpperCase() }))).status, 202);
  const mail = await smtp.next(user.email, before);
  const token = /reset-password#token=(gsm_reset_\w+)/.exec(mail.text)?.[1];
  t.truthy(token, mail.text);
  // Asked again at once: the same answer, but no second e-mail (at most one a minute).
  t.is((await app.request('/auth/password-reset', json({ email: user.email }))).status, 202);
  t.is(await app.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM password_resets WHERE user_id = ${user.id}`), 1);

  t.is((await app.request('/api/v1/account', { headers: user.auth })).status, 200);
  const tooShort = await app.request('/auth/password-reset/confirm', json({ token, password: 'short' }));
  t.is(tooShort.status, 400);
  const done = await app.request('/auth/password-reset/confirm', json({ token, password: 'a brand new secret' }));
  t.is(done.status, 200, await done.clone().text());
  // Every session of the account has ended; the new password signs in, the old one does not.
  t.is((await app.request('/api/v1/account', { headers: user.auth })).status, 401);
  t.is((await app.request('/auth/refresh', json({ refreshToken: user.refreshToken }))).status, 401);
  t.is((await app.request('/auth/login', json({ email: user.email, password: 'a brand new secret' }))).status, 200);
  t.is((await app.request('/auth/login', json({ email: user.email, password: 'correct horse battery staple' }))).status, 401);
  // Another account's sessions are untouched.
  t.is((await app.request('/api/v1/account', { headers: bystander.auth })).status, 200);

  const reused = await app.request('/auth/password-reset/confirm', json({ token, password: 'yet another secret' }));
  t.is(reused.status, 400);
  t.regex((await body(reused)).message, /invalid, expired or already used/);

  // An expired link is refused too.
  await app.pool.query(sql.unsafe`UPDATE password_resets SET created_at = now() - interval '2 hours' WHERE user_id = ${user.id}`);
  const later = smtp.mails.length;
  t.is((await app.request('/auth/password-reset', json({ email: user.email }))).status, 202);
  const second = /reset-password#token=(gsm_reset_\w+)/.exec((await smtp.next(user.email, later)).text)![1];
  await app.pool.query(sql.unsafe`UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE user_id = ${user.id} AND used_at IS NULL`);
  t.is((await app.request('/auth/password-reset/confirm', json({ token: second, password: 'yet another secret' }))).status, 400);
  t.is((await app.request('/auth/password-reset/confirm', json({ token: 'gsm_reset_x', password: 'yet another secret' }))).status, 400);
  const audit = await app.pool.anyFirst(sql.unsafe`SELECT action FROM audit_log WHERE target_id = ${user.id} AND action = 'user.password_reset'`);
  t.is(audit.length, 1);
});

test('a Steam sign-in started from an invitation creates the account and joins while registration is closed', async (t) => {
  const app = mailing();
  const owner = await signUp(app, 'owner');
  const clusterId = await createCluster(app, owner);
  const invitation = await invite(app, owner, clusterId, address('steamer'), 'ADMIN');
  const steamId = '76561198123450001';

  // Without the invitation, registration is closed for a new Steam account.
  t.is((await get(app, await callbackUrl(app, 'steam', '76561198123450002'))).status, 403);

  const signedIn = await get(app, await callbackUrl(app, 'steam', steamId, {}, {}, invitation.token));
  t.is(signedIn.status, 200, await signedIn.clone().text());
  const pair = await body(signedIn);
  const role = await app.pool.maybeOneFirst(sql.unsafe`
    SELECT m.role FROM cluster_members m JOIN users u ON u.id = m.user_id WHERE m.cluster_id = ${clusterId} AND u.steam_id = ${steamId}`);
  t.is(role, 'ADMIN');
  t.is((await app.request(`/api/v1/clusters/${clusterId}`, { headers: bearer(pair.accessToken) })).status, 200);

  // The invitation is spent: starting another sign-in with it is refused before leaving for Steam.
  const spent = await app.request('/auth/steam/start', json({ invitation: invitation.token }));
  t.is(spent.status, 409);
  t.is((await app.request('/auth/steam/start', json({ invitation: `gsm_invite_${'B'.repeat(43)}` }))).status, 404);
  t.is((await app.request('/auth/steam/start', json({ invitation: 'x', other: 1 }))).status, 400);
  // The secret never travels in a URL: the GET start takes no invitation.
  const viaUrl = await app.request(`/auth/steam?invitation=${invitation.token}`, { redirect: 'manual' });
  t.not(viaUrl.status, 302);

  // A second invitation to someone who is a member already: the Steam sign-in just signs in (role unchanged).
  const again = await invite(app, owner, clusterId, address('steamer-again'), 'VIEWER');
  const member = await get(app, await callbackUrl(app, 'steam', steamId, {}, {}, again.token));
  t.is(member.status, 200, await member.clone().text());
  t.is(
    await app.pool.maybeOneFirst(sql.unsafe`
      SELECT m.role FROM cluster_members m JOIN users u ON u.id = m.user_id WHERE m.cluster_id = ${clusterId} AND u.steam_id = ${steamId}`),
    'ADMIN',
  );
  t.is(await app.pool.oneFirst(sql.unsafe`SELECT status FROM invitations WHERE id = ${again.id}`), 'ACCEPTED');
});

test('a password reset is account recovery: sessions end, API tokens are deleted, Steam is unlinked (an inviter who pre-registered loses the account)', async (t) => {
  const app = mailing();
  const owner = await signUp(app, 'owner');
  const clusterId = await createCluster(app, owner);
  const victim = address('victim');
  // The inviter holds the token: they register the invitee's account with their own password and link their Steam.
  const invitation = await invite(app, owner, clusterId, victim);
  const squatted = await body(await register(app, { email: victim, invitationToken: invitation.token, password: 'the inviter knows this' }));
  const squatter = bearer(squatted.accessToken);
  const linked = await get(app, await callbackUrl(app, 'steam', '76561198123450099', squatter));
  t.is(linked.status, 200, await linked.clone().text());
  const token = await body(await app.request('/api/v1/account/tokens', json({ name: 'kept', clusterIds: [clusterId] }, { headers: squatter })));

  // The real owner of the address resets the password.
  const before = smtp.mails.length;
  t.is((await app.request('/auth/password-reset', json({ email: victim }))).status, 202);
  const reset = /reset-password#token=(gsm_reset_\w+)/.exec((await smtp.next(victim, before)).text)![1];
  const done = await app.request('/auth/password-reset/confirm', json({ token: reset, password: 'only the owner knows' }));
  t.is(done.status, 200);

  t.is((await app.request('/api/v1/account', { headers: squatter })).status, 401, 'the session ended');
  t.is((await app.request('/api/v1/account', { headers: bearer(token.token) })).status, 401, 'the API token is gone');
  const steam = await get(app, await callbackUrl(app, 'steam', '76561198123450099'));
  t.is(steam.status, 403, 'the Steam account no longer signs in as the user (registration is closed)');
  t.like(await app.pool.one(sql.unsafe`SELECT steam_id, discord_id FROM users WHERE lower(email) = ${victim}`), { steam_id: null, discord_id: null });
});

test('a password reset answers alike and at once for known and unknown addresses (the e-mail is sent in the background)', async (t) => {
  const app = mailing();
  const user = await signUp(app, 'timing');
  const stuck = smtp.hold();
  t.teardown(() => stuck.release());
  const ask = async (email: string) => {
    const response = await app.request('/auth/password-reset', json({ email }));
    return { status: response.status, answer: await body(response) };
  };
  const sent = smtp.mails.length;
  const known = await ask(user.email);
  const unknown = await ask('nobody-at-all@example.test');
  t.is(known.status, 202);
  t.deepEqual(known.answer, unknown.answer);
  // The e-mail reached the SMTP server, which has not answered it: the API did not wait for it.
  await smtp.next(user.email, sent);
  t.is(stuck.heldFor(user.email), 1, 'the known address was answered while its e-mail is still held by the SMTP server');
  const owner = await signUp(app, 'slow-inviter');
  const clusterId = await createCluster(app, owner);
  const invitee = address('slow');
  const invitation = await invite(app, owner, clusterId, invitee);
  t.true(invitation.emailed);
  await smtp.next(invitee);
  t.is(stuck.heldFor(invitee), 1, 'an invitation does not wait for the SMTP server either');
  t.true(invitation.emailed);
});

test('invitation limits: an address gets at most 3 invitation e-mails a day; a user creates at most 100 invitations a day', async (t) => {
  const app = mailing();
  const owner = await signUp(app, 'spammer');
  const clusterId = await createCluster(app, owner);
  const target = address('inbox');
  const emailed: boolean[] = [];
  for (let round = 0; round < 4; round++) {
    const invitation = await invite(app, owner, clusterId, target);
    emailed.push(invitation.emailed);
    t.truthy(invitation.link, 'the link is in the answer either way');
    await app.request(`/api/v1/clusters/${clusterId}/invitations/${invitation.id}`, { method: 'DELETE', headers: owner.auth });
  }
  t.deepEqual(emailed, [true, true, true, false]);

  await app.pool.query(sql.unsafe`
    INSERT INTO invitations (cluster_id, email, role, token_hash, expires_at, invited_by, status)
    SELECT ${clusterId}, 'filler' || g || '@example.test', 'VIEWER', decode(md5(random()::text || g), 'hex'), now() + interval '1 day', ${owner.id}, 'REVOKED'
      FROM generate_series(1, 96) AS g`);
  const refused = await app.request(`/api/v1/clusters/${clusterId}/invitations`, json({ email: address('one-more'), role: 'VIEWER' }, { headers: owner.auth }));
  t.is(refused.status, 429);
  t.regex((await body(refused)).message, /100 invitations in the last 24 hours/);
});

test('no e-mail goes to a placeholder address of a Steam-only account', async (t) => {
  const app = mailing();
  const owner = await signUp(app, 'owner');
  const clusterId = await createCluster(app, owner);
  const invitation = await invite(app, owner, clusterId, 'steam-76561198000000001@users.invalid');
  t.false(invitation.emailed);
});

test('a password change e-mails the owner when e-mail is configured, with no password in it', async (t) => {
  const app = mailing();
  const user = await signUp(app, 'notified');
  const before = smtp.mails.length;
  const changed = await app.request(
    '/api/v1/account/password',
    json({ currentPassword: PASSWORD, newPassword: 'the new passphrase here' }, { headers: user.auth }),
  );
  t.is(changed.status, 200);
  const mail = await smtp.next(user.email, before);
  t.regex(mail.text, /password of your account was changed/);
  t.regex(mail.text, /password reset/);
  t.false(mail.text.includes(PASSWORD) || mail.text.includes('the new passphrase here'));
});
