/**
 * The relay between processes (with REDIS_URL): live events travel over Socket.IO's Redis adapter, as
 * `serverSideEmit` on the `/live` namespace, so every web and orchestrator process of the installation receives what
 * any of them publishes; each process then hands the event to its own listeners (its `/live` viewers, its SSE
 * streams). `serverSideEmit` does not come back to the sender, so a publish is also dispatched locally.
 */
import type { Namespace } from 'socket.io';
import type { LiveEvent, LiveListener, LiveRelay } from './relay.ts';

const CHANNEL = 'gsm:live';

export function createSocketRelay(namespace: Namespace, onError: (error: unknown) => void): LiveRelay {
  const listeners = new Set<LiveListener>();
  const dispatch = (event: LiveEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        onError(error);
      }
    }
  };
  const receive = (event: LiveEvent) => dispatch(event);
  namespace.on(CHANNEL, receive);
  return {
    publish(event) {
      dispatch(event);
      try {
        namespace.serverSideEmit(CHANNEL, event);
      } catch (error) {
        onError(error);
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close: async () => {
      namespace.off(CHANNEL, receive);
      listeners.clear();
    },
  };
}
