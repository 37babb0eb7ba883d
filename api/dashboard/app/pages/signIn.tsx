/** Sign-in: e-mail and password, or Steam (and Discord when configured); an account can be created when registration is open. */
import { useState } from 'preact/hooks';
import { api, messageOf, providerNonce, refusedSignInLink, session, type TokenPair } from '../session.ts';
import { Field, Form, Notice } from '../ui.tsx';

const settings = document.body.dataset;

export function SignIn() {
  const [mode, setMode] = useState<'signIn' | 'register'>('signIn');
  const [providerError, setProviderError] = useState<string | null>(null);
  const provider = async (name: 'steam' | 'discord') => {
    setProviderError(null);
    try {
      // The flow's cookie is set by this call; the provider sends the browser back to the dashboard, signed in.
      const { url } = await api.post<{ url: string }>(`/api/v1/auth/${name}/start`, { dashboard: providerNonce() });
      location.assign(url);
    } catch (error) {
      setProviderError(messageOf(error));
    }
  };
  return (
    <main class="sign-in">
      <h1>{mode === 'signIn' ? 'Sign in' : 'Create an account'}</h1>
      {refusedSignInLink && <Notice kind="error">A sign-in link that this browser did not start was ignored. Sign in here.</Notice>}
      {mode === 'signIn' ? (
        <Form submit="Sign in" onSubmit={async ({ email, password }) => session.signIn(await api.post<TokenPair>('/api/v1/auth/login', { email, password }))}>
          <Field name="email" label="E-mail" type="email" autocomplete="username" required />
          <Field name="password" label="Password" type="password" autocomplete="current-password" required />
        </Form>
      ) : (
        <Form
          submit="Create account"
          onSubmit={async ({ email, password, displayName }) =>
            session.signIn(await api.post<TokenPair>('/api/v1/auth/register', { email, password, displayName }))
          }
        >
          <Field name="displayName" label="Your name" autocomplete="nickname" maxLength={64} required />
          <Field name="email" label="E-mail" type="email" autocomplete="username" required />
          <Field name="password" label="Password (at least 8 characters)" type="password" autocomplete="new-password" minLength={8} required />
        </Form>
      )}
      <div class="providers">
        <button type="button" class="secondary" onClick={() => void provider('steam')}>
          Sign in with Steam
        </button>
        {settings.discord === 'true' && (
          <button type="button" class="secondary" onClick={() => void provider('discord')}>
            Sign in with Discord
          </button>
        )}
        {providerError && <Notice kind="error">{providerError}</Notice>}
      </div>
      {settings.registration === 'true' && (
        <p>
          {mode === 'signIn' ? 'No account yet? ' : 'Have an account? '}
          <button type="button" class="link" onClick={() => setMode(mode === 'signIn' ? 'register' : 'signIn')}>
            {mode === 'signIn' ? 'Create one' : 'Sign in'}
          </button>
        </p>
      )}
      <p class="muted">
        <a href="/api/docs">API reference</a> · version {settings.version}
      </p>
    </main>
  );
}
