/**
 * A bound on how long to wait for `promise`: it rejects with "<what> timed out after <ms> ms" when `promise` has not
 * settled by then (the work itself goes on; its late outcome is ignored). The timer is cleared once it settles, and
 * never keeps the process alive.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    timer.unref?.();
  });
  return Promise.race([promise, timedOut]).finally(() => clearTimeout(timer));
}
