/**
 * Account settings: the password (changed with the current one; other sessions end), API tokens (created for some
 * clusters, shown once, revoked), SSH keys for SFTP (added, deleted) and linked game accounts.
 */
import { useState } from 'preact/hooks';
import type { Schemas } from '../../../clients/typescript/src/client.ts';
import { api } from '../session.ts';
import type { Cluster } from '../nav.ts';
import { Action, Field, Form, formatTime, Notice, Show, ShownOnce, Table, useLoad } from '../ui.tsx';

type Token = Schemas['TokenListItem'];

export function AccountPage({ clusters }: { clusters: Cluster[] }) {
  const account = useLoad(() => api.get<Schemas['User']>('/api/v1/account'), []);
  const tokens = useLoad(() => api.get<{ tokens: Token[] }>('/api/v1/account/tokens').then((answer) => answer.tokens), []);
  const [created, setCreated] = useState<Schemas['TokenCreated'] | null>(null);
  const name = (id: string) => clusters.find((cluster) => cluster.id === id)?.name ?? id.slice(0, 8);
  return (
    <section>
      <h1>Account</h1>
      <Show loaded={account}>
        {(user) => (
          <dl class="facts">
            <dt>Name</dt>
            <dd>{user.displayName}</dd>
            <dt>E-mail</dt>
            <dd>{user.email}</dd>
            <dt>Steam</dt>
            <dd>{user.steamId ?? 'not linked'}</dd>
            <dt>Discord</dt>
            <dd>{user.discordId ?? 'not linked'}</dd>
            <dt>Handle</dt>
            <dd>
              <code>{user.handle}</code> <span class="muted">(your SFTP user name is handle.server: shown on each server's Files page)</span>
            </dd>
            <dt>Password</dt>
            <dd>{user.hasPassword ? 'set' : 'none yet: you sign in with Steam or Discord'}</dd>
          </dl>
        )}
      </Show>
      <Show loaded={account}>{(user) => <ChangePassword hasPassword={user.hasPassword} onSet={account.reload} />}</Show>
      <SshKeys />
      <h2>API tokens</h2>
      <p class="muted">For scripts and the gsm command line. A token reaches the clusters chosen here, with your role in each.</p>
      <Form
        class="form"
        submit="Create token"
        onSubmit={async (values, form) => {
          const clusterIds = [...form.querySelectorAll<HTMLInputElement>('input[name=clusterIds]:checked')].map((box) => box.value);
          setCreated(
            await api.post<Schemas['TokenCreated']>('/api/v1/account/tokens', {
              name: values.name,
              clusterIds,
              ...(values.expiresAt ? { expiresAt: new Date(values.expiresAt).toISOString() } : {}),
            }),
          );
          tokens.reload();
          return true;
        }}
      >
        <Field name="name" label="Name" required maxLength={100} />
        <fieldset>
          <legend>Clusters</legend>
          {clusters.map((cluster) => (
            <label key={cluster.id} class="field checkbox">
              <span>{cluster.name}</span>
              <input type="checkbox" name="clusterIds" value={cluster.id} defaultChecked={clusters.length === 1} />
            </label>
          ))}
        </fieldset>
        <Field name="expiresAt" label="Expires (optional)" type="date" />
      </Form>
      {created && (
        <ShownOnce
          label="New token"
          notice={`Token “${created.name}” created. Copy it now: it is shown only once.`}
          secret={created.token}
          onDone={() => setCreated(null)}
        />
      )}
      <Show loaded={tokens}>
        {(rows) => (
          <Table
            label="API tokens"
            rows={rows}
            rowKey={(token) => token.id}
            empty="No API tokens."
            columns={[
              { title: 'Name', cell: (token) => token.name },
              { title: 'Clusters', cell: (token) => token.clusterIds.map(name).join(', ') },
              { title: 'Last used', cell: (token) => formatTime(token.lastUsedAt) },
              { title: 'Expires', cell: (token) => formatTime(token.expiresAt) },
              {
                title: 'Actions',
                cell: (token: Token) => (
                  <Action
                    class="danger"
                    confirm={`Revoke “${token.name}”? Scripts using it stop working.`}
                    run={async () => (await api.request('delete', `/api/v1/account/tokens/${token.id}`), tokens.reload())}
                  >
                    Revoke
                  </Action>
                ),
              },
            ]}
          />
        )}
      </Show>
    </section>
  );
}

/**
 * The current password and the new one twice (a typo in a password nobody sees would lock its owner out). An account
 * without a password sets its first with no current one, from a recent sign-in (the service says so otherwise).
 */
function ChangePassword({ hasPassword, onSet }: { hasPassword: boolean; onSet: () => void }) {
  const [done, setDone] = useState<string | null>(null);
  const [mismatch, setMismatch] = useState(false);
  return (
    <>
      <h2>Password</h2>
      {!hasPassword && (
        <p class="muted">
          Your account has no password yet. Setting one lets you also sign in with your e-mail; it needs a sign-in with Steam or Discord within the last 10
          minutes (sign out and in again first if it was longer ago).
        </p>
      )}
      <Form
        class="form"
        submit={hasPassword ? 'Change password' : 'Set password'}
        onSubmit={async (values) => {
          setDone(null);
          setMismatch(values.newPassword !== values.repeatPassword);
          if (values.newPassword !== values.repeatPassword) return false;
          const answer = await api.post<{ message: string }>('/api/v1/account/password', {
            ...(values.currentPassword ? { currentPassword: values.currentPassword } : {}),
            newPassword: values.newPassword,
          });
          setDone(answer.message);
          if (!hasPassword) onSet();
          return true;
        }}
      >
        {hasPassword && <Field name="currentPassword" label="Current password" type="password" autocomplete="current-password" required />}
        <Field name="newPassword" label="New password" type="password" autocomplete="new-password" hint="At least 8 characters" />
        <Field name="repeatPassword" label="New password again" type="password" autocomplete="new-password" />
        {mismatch && <Notice kind="error">The new password and its repetition differ.</Notice>}
      </Form>
      {done && <Notice kind="success">{done}</Notice>}
    </>
  );
}

/** SSH public keys for SFTP (docs/sftp.md): add one (the line of `~/.ssh/id_ed25519.pub`), see its fingerprint, delete it. */
function SshKeys() {
  const keys = useLoad(() => api.get<{ keys: Schemas['SshKey'][] }>('/api/v1/account/ssh-keys').then((answer) => answer.keys), []);
  return (
    <>
      <h2>SSH keys</h2>
      <p class="muted">
        For SFTP to the servers' files (OWNER and ADMIN; read only without the right to change files). Paste a public key line, such as the content of{' '}
        <code>~/.ssh/id_ed25519.pub</code>; make one with <code>ssh-keygen -t ed25519</code>.
      </p>
      <Form
        class="form"
        submit="Add key"
        onSubmit={async ({ name, publicKey }) => {
          await api.post('/api/v1/account/ssh-keys', { name, publicKey: publicKey!.trim() });
          keys.reload();
          return true;
        }}
      >
        <Field name="name" label="Key name" required maxLength={100} placeholder="laptop" />
        <Field name="publicKey" label="Public key" required multiline placeholder="ssh-ed25519 AAAA… you@laptop" />
      </Form>
      <Show loaded={keys}>
        {(rows) => (
          <Table
            label="SSH keys"
            rows={rows}
            rowKey={(key) => key.id}
            empty="No SSH keys yet."
            columns={[
              { title: 'Name', cell: (key: Schemas['SshKey']) => key.name },
              { title: 'Fingerprint', cell: (key) => <code>{key.fingerprint}</code> },
              { title: 'Type', cell: (key) => key.algorithm },
              { title: 'Added', cell: (key) => formatTime(key.createdAt) },
              { title: 'Last used', cell: (key) => formatTime(key.lastUsedAt) },
              {
                title: 'Actions',
                cell: (key) => (
                  <Action
                    class="danger"
                    label={`Delete the key ${key.name}`}
                    confirm={`Delete the key ${key.name}? SFTP sessions opened with it close within seconds.`}
                    run={async () => (await api.request('delete', `/api/v1/account/ssh-keys/${key.id}`), keys.reload())}
                  >
                    Delete
                  </Action>
                ),
              },
            ]}
          />
        )}
      </Show>
    </>
  );
}
