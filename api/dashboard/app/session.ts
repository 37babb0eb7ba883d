/**
 * The signed-in session of this browser: the token pair kept in localStorage (so a reload or a second tab stays signed
 * in), the TypeScript client calling the API with the current access token, and the refresh that keeps the session
 * going without losing the page: before the access token expires, and once more when a call is answered 401.
 */
import { ApiError, GsmClient } from '../../clients/typescript/src/client.ts';

export type TokenPair = { accessToken: string; refreshToken: string; expiresIn: number };
type Stored = { accessToken: string; refreshToken: string; expiresAt: number };

const KEY = 'gsm.session';
const listeners = new Set<() => void>();
let stored: Stored | null = read();
let refreshing: Promise<boolean> | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

function read(): Stored | null {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Stored | null;
    return value && typeof value.accessToken === 'string' && typeof value.refreshToken === 'string' ? value : null;
  } catch {
    return null;
  }
}

function changed() {
  clearTimeout(timer);
  // Refreshed at four fifths of its life (at least 5 s ahead), so calls rarely meet an expired token.
  if (stored) timer = setTimeout(() => void refresh(), Math.max(1_000, (stored.expiresAt - Date.now()) * 0.8 - 5_000));
  for (const listener of listeners) listener();
}

// Another tab signed in, refreshed or signed out: follow it.
addEventListener('storage', (event) => {
  if (event.key !== KEY) return;
  stored = read();
  changed();
});

export const session = {
  get signedIn() {
    return stored !== null;
  },
  get accessToken() {
    return stored?.accessToken ?? '';
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  start(pair: TokenPair) {
    stored = { accessToken: pair.accessToken, refreshToken: pair.refreshToken, expiresAt: Date.now() + Number(pair.expiresIn) * 1000 };
    localStorage.setItem(KEY, JSON.stringify(stored));
    changed();
  },
  async signOut() {
    const token = stored?.accessToken;
    stored = null;
    localStorage.removeItem(KEY);
    changed();
    if (token)
      await fetch('/api/v1/auth/logout', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      }).catch(() => undefined);
  },
};

const LOCK = 'gsm.session.refresh';

/**
 * Runs `work` holding this origin's refresh lock, so two tabs never spend one refresh token twice. `work` learns
 * whether another tab held the lock first (and so has probably just refreshed).
 */
async function exclusively<T>(work: (waited: boolean) => Promise<T>): Promise<T> {
  const locks = navigator.locks;
  if (!locks) return work(false);
  // request() answers the callback's promise (typed as a promise of it).
  const free = (await locks.request(LOCK, { ifAvailable: true }, async (lock) => (lock ? { value: await work(false) } : null))) as unknown as {
    value: T;
  } | null;
  return free ? free.value : (locks.request(LOCK, () => work(true)) as unknown as Promise<T>);
}

/**
 * Resolves when another tab's write of the session reaches this one, or after `ms`. A write in one tab reaches the
 * others' localStorage a moment later (Chromium copies it between processes), so a tab that waited for the lock must
 * not trust its own copy at once: it would spend a refresh token already spent, and the service would end the session
 * as stolen.
 */
function sessionWritten(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timeout);
      removeEventListener('storage', seen);
      resolve();
    };
    const seen = (event: StorageEvent) => event.key === KEY && done();
    const timeout = setTimeout(done, ms);
    addEventListener('storage', seen);
  });
}

/** Exchanges the refresh token for a new pair (one exchange at a time, across tabs); false when the session is over. */
export function refresh(): Promise<boolean> {
  const spent = stored?.refreshToken;
  refreshing ??= exclusively(async (waited) => {
    // Another tab held the lock: it refreshed (or tried). Its new pair is the one to use once it has reached this tab.
    if (waited && stored?.refreshToken === spent) await sessionWritten(2_000);
    const latest = read();
    if (latest && latest.refreshToken !== spent) {
      stored = latest;
      changed();
      return true;
    }
    const current = stored;
    if (!current) return false;
    if (current.refreshToken !== spent) return true;
    try {
      const response = await fetch('/api/v1/auth/refresh', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: current.refreshToken }),
      });
      if (response.ok) {
        session.start((await response.json()) as TokenPair);
        return true;
      }
      // Another tab may have spent this refresh token and stored the new pair.
      const other = read();
      if (other && other.refreshToken !== current.refreshToken) {
        stored = other;
        changed();
        return true;
      }
      if (response.status === 400 || response.status === 401) await session.signOut();
      return false;
    } catch {
      return false; // offline: keep the session, the next call tries again
    }
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** fetch with the current access token; a 401 refreshes the session once and repeats the call. */
async function authorizedFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const send = () => {
    const headers = { ...(init.headers as Record<string, string>) };
    if (stored) headers.authorization = `Bearer ${stored.accessToken}`;
    return fetch(input, { ...init, headers });
  };
  const response = await send();
  if (response.status !== 401 || !stored) return response;
  return (await refresh()) ? send() : response;
}

export const api = new GsmClient({ baseUrl: location.origin, fetch: authorizedFetch, retries: 2 });
export { ApiError };

/** The message to show for a failed call: the API's own message, or what went wrong on the way. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return 'The service cannot be reached. Check your connection and try again.';
  return error instanceof Error ? error.message : String(error);
}

changed();
