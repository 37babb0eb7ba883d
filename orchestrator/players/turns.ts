/**
 * A few slots of work shared by many agents, taken in turns: each agent's work waits in its own queue, and when a slot
 * frees up it goes to the agent with waiting work whose last turn is the oldest (an agent that has not had one for a
 * while, such as a quiet agent with one join, comes first). Agents that always have work (snapshot floods) so take
 * turns round robin, and one agent, however noisy, delays another's work by at most the work already running.
 * An agent has one piece of work running at a time, so it can never hold every slot.
 */

/** Agents whose last turn is remembered at most; forgetting the oldest only moves them to the front, where they were. */
const REMEMBERED_AGENTS = 10_000;

export type Turns = { run: <T>(agent: string, work: () => Promise<T>) => Promise<T> };

export function createTurns(concurrency: number): Turns {
  let running = 0;
  let turn = 0;
  /** Waiting work per agent, oldest first. */
  const waiting = new Map<string, (() => void)[]>();
  /** Agents with work running now. */
  const busy = new Set<string>();
  /** The turn number each agent last had, in the order they had it (never: 0). */
  const lastTurn = new Map<string, number>();

  const next = () => {
    while (running < concurrency) {
      let chosen: string | undefined;
      for (const agent of waiting.keys()) {
        if (busy.has(agent)) continue;
        if (chosen === undefined || (lastTurn.get(agent) ?? 0) < (lastTurn.get(chosen) ?? 0)) chosen = agent;
      }
      if (chosen === undefined) return;
      const queue = waiting.get(chosen)!;
      const start = queue.shift()!;
      if (queue.length === 0) waiting.delete(chosen);
      lastTurn.delete(chosen);
      lastTurn.set(chosen, ++turn);
      if (lastTurn.size > REMEMBERED_AGENTS) lastTurn.delete(lastTurn.keys().next().value!);
      start();
    }
  };

  return {
    run: <T>(agent: string, work: () => Promise<T>) =>
      new Promise<T>((resolve, reject) => {
        const start = () => {
          running++;
          busy.add(agent);
          work()
            .then(resolve, reject)
            .finally(() => {
              running--;
              busy.delete(agent);
              next();
            });
        };
        const queue = waiting.get(agent);
        if (queue) queue.push(start);
        else waiting.set(agent, [start]);
        next();
      }),
  };
}
