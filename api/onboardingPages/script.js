// The invitation and password-reset pages' script (the pages: page.ts; served by api/routes/onboardingPages.ts). Plain
// browser JavaScript, no dependencies: the secret comes in the URL's fragment (never sent to any server by the browser)
// and is posted to the API.
'use strict';

const token = new URLSearchParams(location.hash.slice(1)).get('token') || '';
const main = document.querySelector('main');
const page = document.body.dataset.page;

const el = (tag, attributes, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
};
const show = (...nodes) => main.replaceChildren(...nodes);
const message = (text, kind) => el('p', { class: kind || 'info', role: kind === 'error' ? 'alert' : 'status', text });

async function call(path, body, accessToken) {
  const headers = { 'content-type': 'application/json' };
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  const response = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    const details = (answer.details || []).map((detail) => `${detail.field}: ${detail.message}`).join('; ');
    throw new Error(`${answer.message || `Error ${response.status}`}${details ? ` (${details})` : ''}`);
  }
  return answer;
}

function form(fields, submitLabel, onSubmit) {
  const status = el('div');
  const button = el('button', { type: 'submit', text: submitLabel });
  const node = el(
    'form',
    {},
    ...fields.map(([name, label, type, extra]) => el('label', {}, label, el('input', { name, type, required: '', ...extra }))),
    button,
    status,
  );
  node.addEventListener('submit', async (event) => {
    event.preventDefault();
    button.disabled = true;
    status.replaceChildren();
    try {
      await onSubmit(Object.fromEntries(new FormData(node)));
    } catch (error) {
      status.replaceChildren(message(error.message, 'error'));
      button.disabled = false;
    }
  });
  return node;
}

// A random value this tab keeps; the dashboard takes a token pair from its address only with it (sessionStorage
// 'gsm.oauth.nonce', as for its own Steam and Discord sign-ins), so a link someone else made cannot sign a browser in.
function dashboardNonce() {
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
  sessionStorage.setItem('gsm.oauth.nonce', nonce);
  return nonce;
}

/**
 * Joined: the person goes on to the dashboard signed in, with the pair this page got, on the cluster just joined
 * (the dashboard opens the cluster last opened in this browser, 'gsm.cluster').
 */
function joined(invitation, pair) {
  show(
    el('h1', { text: `Welcome to ${invitation.clusterName}` }),
    message(`You are a ${invitation.role} of ${invitation.clusterName}. Opening the dashboard…`, 'success'),
    el('p', {}, el('a', { href: '/', text: 'Open the dashboard' })),
  );
  localStorage.setItem('gsm.cluster', invitation.clusterId);
  const fragment = new URLSearchParams({
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    expiresIn: String(pair.expiresIn),
    nonce: dashboardNonce(),
  });
  location.assign(`/#${fragment}`);
}

async function invitationPage() {
  if (!token) return show(el('h1', { text: 'Invitation' }), message('This link has no invitation in it. Open the link from your e-mail again.', 'error'));
  let invitation;
  try {
    invitation = await call('/api/v1/invitations/preview', { token });
  } catch (error) {
    return show(el('h1', { text: 'Invitation' }), message(error.message, 'error'));
  }
  const title = el('h1', { text: `Join ${invitation.clusterName}` });
  if (invitation.status !== 'PENDING')
    return show(title, message(`This invitation is ${invitation.status.toLowerCase()}. Ask whoever invited you for a new one.`, 'error'));
  const intro = el('p', {
    text: `You are invited as ${invitation.role} (${invitation.email}). The invitation expires ${new Date(invitation.expiresAt).toLocaleString()}.`,
  });
  // A game-account sign-in starts with a POST carrying the secret (never in a URL), then goes to the provider.
  const providerStatus = el('div');
  const providerButton = (provider, label) => {
    const button = el('button', { type: 'button', class: 'button', text: label });
    button.addEventListener('click', async () => {
      button.disabled = true;
      providerStatus.replaceChildren();
      try {
        // Back from the provider the browser lands on the dashboard, signed in and a member, on this cluster.
        localStorage.setItem('gsm.cluster', invitation.clusterId);
        location.assign((await call(`/auth/${provider}/start`, { invitation: token, dashboard: dashboardNonce() })).url);
      } catch (error) {
        providerStatus.replaceChildren(message(error.message, 'error'));
        button.disabled = false;
      }
    });
    return button;
  };
  const providers = el(
    'div',
    { class: 'providers' },
    providerButton('steam', 'Join with Steam'),
    ...(document.body.dataset.discord === 'true' ? [providerButton('discord', 'Join with Discord')] : []),
    providerStatus,
  );
  // Both ways in are offered: the page itself does not say whether the address has an account (registering with the
  // link does, with a 409, to whoever holds the link).
  return show(
    title,
    intro,
    el('h2', { text: 'Create your account' }),
    form(
      [
        ['displayName', 'Your name', 'text', { maxlength: '64', autocomplete: 'nickname' }],
        ['password', 'Password (at least 8 characters)', 'password', { minlength: '8', autocomplete: 'new-password' }],
      ],
      'Create account and join',
      async ({ displayName, password }) => {
        joined(invitation, await call('/auth/register', { email: invitation.email, password, displayName, invitationToken: token }));
      },
    ),
    el('p', { text: 'Or use a game account:' }),
    providers,
    // An existing account joins by its own password (a game account would sign in as someone else).
    el('h2', { text: 'Already have an account? Sign in to accept' }),
    form([['password', 'Your password', 'password', { autocomplete: 'current-password' }]], 'Sign in and join', async ({ password }) => {
      const pair = await call('/auth/login', { email: invitation.email, password });
      try {
        await call('/api/v1/invitations/accept', { token }, pair.accessToken);
      } catch (error) {
        // Not joined: the session made only to accept is ended, not left behind.
        await call('/auth/logout', {}, pair.accessToken).catch(() => undefined);
        throw error;
      }
      joined(invitation, pair);
    }),
  );
}

function resetPage() {
  const title = el('h1', { text: 'Choose a new password' });
  if (!token) return show(title, message('This link has no reset secret in it. Open the link from your e-mail again.', 'error'));
  show(
    title,
    form(
      [['password', 'New password (at least 8 characters)', 'password', { minlength: '8', autocomplete: 'new-password' }]],
      'Set password',
      async ({ password }) => {
        const answer = await call('/auth/password-reset/confirm', { token, password });
        show(title, message(answer.message, 'success'), el('p', {}, el('a', { href: '/', text: 'Sign in to the dashboard' })));
      },
    ),
  );
}

// The secret has done its work in this page: keep it out of the history and of anything copied from the address bar.
history.replaceState(null, '', location.pathname);
if (page === 'invite') void invitationPage();
else resetPage();
