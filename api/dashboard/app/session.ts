/**
 * The signed-in session of this browser: the token pair kept in localStorage (so a reload or a second tab stays signed
 * in), the TypeScript client calling the API with the current access token, and the refresh that keeps the session
 * going without losing the page: before the access token expires, and once more when a call is answered 401.
 */
import { ApiError, GsmClient } from '../../clients/typescript/src/client.ts';

export type TokenPair = { accessToken: string; refreshToken: string; expiresIn: number };
/** `signedIn`: which sign-in this session came from (a refresh keeps it; a sign-in, here or in another tab, changes it). */
type Stored = { accessToken: string; refreshToken: string; expiresAt: number; signedIn?: string };

const KEY = 'gsm.session';
const listeners = new Set<() => void>();
let stored: Stored | null = read();
let refreshing: Promise<boolean> | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
/**
 * Counts sign-outs and sessions written by another tab (a sign-in there): a refresh that was under way meanwhile must
 * not sign back in, nor write its pair over the newer session.
 */
let generation = 0;
/** The pause before trying a failed refresh again (offline, or the service answered 5xx); doubles up to a minute. */
let retryMs = 5_000;

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
  generation++;
  changed();
});

export const session = {
  get signedIn() {
    return stored !== null;
  },
  /** Changes when the browser's session is replaced by a sign-in (not when it is refreshed): the pages read again. */
  get identity() {
    return stored?.signedIn ?? '';
  },
  get accessToken() {
    return stored?.accessToken ?? '';
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  start(pair: TokenPair, signedIn = stored?.signedIn ?? Math.random().toString(36).slice(2), { orInMemory = false } = {}) {
    const next: Stored = {
      accessToken: pair.accessToken,
      refreshToken: pair.refreshToken,
      expiresAt: Date.now() + Number(pair.expiresIn) * 1000,
      signedIn,
    };
    // Stored first: a storage that refuses it (private mode, quota) throws before this tab changes anything. A
    // refreshed pair (`orInMemory`) is kept by this tab all the same: the refresh token it replaces is spent.
    try {
      localStorage.setItem(KEY, JSON.stringify(next));
    } catch (error) {
      if (!orInMemory) throw error;
    }
    stored = next;
    retryMs = 5_000;
    changed();
  },
  /**
   * A sign-in (password, registration, Steam, Discord): a session it replaces is ended on the service, not left open.
   * It takes the refresh lock (SIGN_IN_WAIT_MS at most): a refresh under way in another tab stores its new pair first,
   * and this sign-in then replaces and ends that pair, instead of the refresh writing the old account back over it.
   */
  signIn(pair: TokenPair): Promise<void> {
    return new Promise((resolve, reject) => {
      exclusively(async () => {
        const previous = read() ?? stored;
        session.start(pair, Math.random().toString(36).slice(2));
        generation++;
        if (previous && previous.refreshToken !== pair.refreshToken) void endOnService(previous);
        resolve();
        // The lock is kept a moment longer, as after a refresh: a tab that takes it next reads the new pair, not a
        // copy still holding the replaced one (whose refresh token it would spend, writing it back).
        await new Promise((settled) => setTimeout(settled, SETTLE_MS));
      }, SIGN_IN_WAIT_MS).catch(reject);
    });
  },
  async signOut() {
    const ending = stored;
    stored = null;
    generation++;
    localStorage.removeItem(KEY);
    changed();
    if (ending) await endOnService(ending);
  },
};

/** Ends the session on the service too; an access token that expired is exchanged once for one that can. */
async function endOnService(pair: { accessToken: string; refreshToken: string }) {
  const logout = (token: string) =>
    fetch('/api/v1/auth/logout', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
  try {
    if ((await logout(pair.accessToken)).status !== 401) return;
    const refreshed = await postRefresh(pair.refreshToken);
    if (refreshed.ok) await logout(((await refreshed.json()) as TokenPair).accessToken);
  } catch {
    // offline: the session ends on the service when its tokens expire
  }
}

const postRefresh = (refreshToken: string) =>
  fetch('/api/v1/auth/refresh', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken }) });

/** A refresh that failed for a passing reason is tried again later, so the session does not run out unnoticed. */
function retryLater() {
  clearTimeout(timer);
  timer = setTimeout(() => void refresh(), retryMs);
  retryMs = Math.min(retryMs * 2, 60_000);
}

const LOCK = 'gsm.session.refresh';
/**
 * How long a sign-in waits for the lock (a refresh under way, which normally takes milliseconds) before it goes ahead
 * without it: a refresh that hangs (a network that went quiet) must not hold up a sign-in for long.
 */
const SIGN_IN_WAIT_MS = 5_000;
const LEASE = 'gsm.session.refresh-lease';
const tab = Math.random().toString(36).slice(2);

/**
 * Runs `work` holding this origin's refresh lock, so two tabs never spend one refresh token twice. `work` learns
 * whether another tab held the lock first (and so has probably just refreshed). Browsers offer Web Locks only in
 * secure contexts (HTTPS or localhost); over plain HTTP a lease kept in localStorage stands in for them. With
 * `waitAtMostMs`, `work` runs without the lock once it has waited that long for it.
 */
async function exclusively<T>(work: (waited: boolean) => Promise<T>, waitAtMostMs?: number): Promise<T> {
  const locks = typeof navigator.locks?.request === 'function' ? navigator.locks : null;
  if (!locks) return leased(work, waitAtMostMs);
  // request() answers the callback's promise (typed as a promise of it).
  const free = (await locks.request(LOCK, { ifAvailable: true }, async (lock) => (lock ? { value: await work(false) } : null))) as unknown as {
    value: T;
  } | null;
  if (free) return free.value;
  if (waitAtMostMs === undefined) return locks.request(LOCK, () => work(true)) as unknown as Promise<T>;
  const gaveUp = new AbortController();
  const timer = setTimeout(() => gaveUp.abort(), waitAtMostMs);
  let started = false;
  try {
    return (await locks.request(LOCK, { signal: gaveUp.signal }, () => {
      started = true;
      clearTimeout(timer);
      return work(true);
    })) as unknown as T;
  } catch (error) {
    if (started) throw error;
    return work(true); // waited long enough: without the lock
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The lock without Web Locks: a tab writes its claim (good for 10 s), waits for other tabs' claims written at the same
 * moment to reach it, and goes ahead only if its own is still the one there (the last write wins in every tab).
 */
async function leased<T>(work: (waited: boolean) => Promise<T>, waitAtMostMs?: number): Promise<T> {
  const until = waitAtMostMs === undefined ? Infinity : Date.now() + waitAtMostMs;
  const holder = () => {
    try {
      return JSON.parse(localStorage.getItem(LEASE) ?? 'null') as { tab: string; until: number } | null;
    } catch {
      return null;
    }
  };
  // Each call claims for itself (not for its tab), so a second refresh in this tab waits its turn like another tab's,
  // and the first one's release cannot drop the second one's claim.
  const claimant = `${tab}.${Math.random().toString(36).slice(2)}`;
  const mine = () => holder()?.tab === claimant;
  let waited = false;
  for (;;) {
    const current = holder();
    if (!current || current.until < Date.now()) {
      const claim = () => localStorage.setItem(LEASE, JSON.stringify({ tab: claimant, until: Date.now() + 10_000 }));
      claim();
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (mine()) {
        // Kept while the work lasts: a refresh slower than the lease must not let another tab in.
        const renew = setInterval(() => mine() && claim(), 3_000);
        try {
          return await work(waited);
        } finally {
          clearInterval(renew);
          if (mine()) localStorage.removeItem(LEASE);
        }
      }
    }
    waited = true;
    if (Date.now() >= until) return work(true); // waited long enough: without the lease
    await storageWritten([KEY, LEASE], 1_000);
  }
}

/**
 * Resolves when another tab's write of one of `keys` reaches this one, or after `ms`. A write in one tab reaches the
 * others' localStorage a moment later (Chromium copies it between processes), so a tab that waited for the lock must
 * not trust its own copy at once: it would spend a refresh token already spent, and the service would end the session
 * as stolen.
 */
function storageWritten(keys: string[], ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timeout);
      removeEventListener('storage', seen);
      resolve();
    };
    const seen = (event: StorageEvent) => event.key !== null && keys.includes(event.key) && done();
    const timeout = setTimeout(done, ms);
    addEventListener('storage', seen);
  });
}

/**
 * How long a tab keeps the lock after storing a new pair: long enough for the write to reach every other tab, so a tab
 * that finds the lock free just after does not read a copy still holding the spent refresh token.
 */
const SETTLE_MS = 1_000;

/** Exchanges the refresh token for a new pair (one exchange at a time, across tabs); false when the session is over. */
export function refresh(): Promise<boolean> {
  if (refreshing) return refreshing;
  const spent = stored?.refreshToken; // the token this tab holds now: a newer one found later was refreshed by another tab
  let answer!: (refreshed: boolean) => void;
  refreshing = new Promise<boolean>((resolve) => (answer = resolve)).finally(() => {
    refreshing = null;
  });
  const answered = refreshing;
  void exclusively(async (waited) => {
    let wrote = false;
    try {
      const refreshed = await exchange(spent, waited, () => (wrote = true));
      answer(refreshed); // callers go on now; the lock is kept a moment longer when a pair was written
    } catch {
      answer(false);
    }
    if (wrote) await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  }).catch(() => answer(false));
  return answered;
}

/** The newer pair another tab stored is this tab's too. */
function adopt(newer: Stored): true {
  stored = newer;
  changed();
  return true;
}

/** The exchange itself, holding the lock: `wrote()` when it stored a new pair. */
async function exchange(spent: string | undefined, waited: boolean, wrote: () => void): Promise<boolean> {
  // Another tab held the lock: it refreshed (or tried). Its new pair is the one to use once it has reached this tab.
  if (waited && stored?.refreshToken === spent) await storageWritten([KEY], 2_000);
  const latest = read();
  if (latest && latest.refreshToken !== spent) return adopt(latest);
  const current = stored;
  if (!current) return false;
  if (current.refreshToken !== spent) return true;
  const mine = generation;
  try {
    const response = await postRefresh(current.refreshToken);
    if (response.ok) {
      const pair = (await response.json()) as TokenPair;
      // Signed out or signed in anew, here or in another tab, while the answer was on its way (read from storage too:
      // the other tab's event may not have reached this one yet): that stands, and the new pair is ended.
      const now = read();
      if (generation !== mine || now?.refreshToken !== current.refreshToken) {
        await endOnService(pair);
        if (generation === mine) {
          stored = now;
          generation++;
          changed();
        }
        return false; // a call made for the session that was replaced is not repeated as another one
      }
      session.start(pair, undefined, { orInMemory: true });
      wrote();
      return true;
    }
    // Another tab may have spent this refresh token and stored the new pair.
    const other = read();
    if (other && other.refreshToken !== current.refreshToken) return adopt(other);
    if (response.status === 400 || response.status === 401) await session.signOut();
    else retryLater();
    return false;
  } catch {
    retryLater(); // offline: keep the session and try again later (a call also tries at once)
    return false;
  }
}

const NONCE = 'gsm.oauth.nonce';

/** A new value for a Steam or Discord sign-in started in this tab; the pair comes back only with it. */
export function providerNonce(): string {
  const value = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
  sessionStorage.setItem(NONCE, value);
  return value;
}

/**
 * Back from a Steam or Discord sign-in, the token pair is in the address's fragment (never sent to a server): keep it
 * when it carries the value this tab keeps for the sign-in it started, and drop the fragment either way. A pair without
 * it came from a link someone else made (it would sign this browser into *their* account) and is refused.
 */
function takeSignInFragment(): boolean {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (!fragment.get('accessToken') || !fragment.get('refreshToken')) return false;
  const expected = sessionStorage.getItem(NONCE);
  sessionStorage.removeItem(NONCE);
  history.replaceState(null, '', '/#/');
  if (!expected || fragment.get('nonce') !== expected) return true;
  session
    .signIn({
      accessToken: fragment.get('accessToken')!,
      refreshToken: fragment.get('refreshToken')!,
      expiresIn: Number(fragment.get('expiresIn') ?? 900),
    })
    // Storage refused (private mode, quota): nothing was signed in, and the page stays as it was.
    .catch((error: unknown) => console.error('the sign-in could not be stored', error));
  return false;
}

/** This page was opened with a sign-in link that this tab did not start (it was refused). */
export const refusedSignInLink = takeSignInFragment();

/** fetch with the current access token; a 401 refreshes the session once and repeats the call. */
async function authorizedFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  let sent = '';
  const send = () => {
    const headers = { ...(init.headers as Record<string, string>) };
    if (stored) headers.authorization = `Bearer ${(sent = stored.accessToken)}`;
    return fetch(input, { ...init, headers });
  };
  const response = await send();
  if (response.status !== 401 || !stored) return response;
  // Sent with a token that a refresh has replaced since (a call that was on its way during it): send again, no refresh.
  if (stored.accessToken !== sent) return send();
  return (await refresh()) ? send() : response;
}

export const api = new GsmClient({ baseUrl: location.origin, fetch: authorizedFetch, retries: 2 });

/** Every page of a list (100 a page; the pages after the first asked for together). */
export async function all<T>(path: string, query: Record<string, string | number | boolean> = {}): Promise<T[]> {
  const page = (number: number) => api.get<{ data: T[]; meta: { totalPages: number } }>(path, { limit: 100, ...query, page: number });
  const first = await page(1);
  const rest = await Promise.all(Array.from({ length: Math.max(0, first.meta.totalPages - 1) }, (_, index) => page(index + 2)));
  return [first, ...rest].flatMap((answer) => answer.data);
}
export { ApiError };

/** The message to show for a failed call: the API's own message, or what went wrong on the way. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return 'The service cannot be reached. Check your connection and try again.';
  return error instanceof Error ? error.message : String(error);
}

changed();
