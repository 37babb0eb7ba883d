/**
 * A few slots of work shared by many agents, in fair turns (weighted fair queueing): each agent's work waits in its
 * own queue and has a cost (the player reports it stores: 1 for a join, 1,000 for a 1,000-player snapshot). Every
 * agent is charged what it was served; a freed slot goes to the waiting agent that would have been served least once
 * this piece is done (its charge plus the piece's cost). Agents that always have work (snapshot floods) so take turns
 * round robin, and an agent with a join goes before them: however noisy the others, it waits at most for the work
 * already running. An agent coming back after a pause is charged at least what the agent served last was (the clock),
 * so a pause banks no credit; a noisy agent keeps its charge between two snapshots. One piece of work per agent runs at
 * a time, so an agent can never hold every slot.
 */

/** Idle agents' charges kept at most; only those at or below the clock are forgotten (they count as the clock). */
const REMEMBERED_AGENTS = 10_000;

export type Turns = { run: <T>(agent: string, cost: number, work: () => Promise<T>) => Promise<T> };

type Waiting = { cost: number; start: () => void };

export function createTurns(concurrency: number): Turns {
  let running = 0;
  /** The charge of the agent served last, when its turn began. */
  let clock = 0;
  /** Waiting work per agent, oldest first. */
  const waiting = new Map<string, Waiting[]>();
  /** Agents with work running now. */
  const busy = new Set<string>();
  /** What each agent has been served (in report costs). */
  const charged = new Map<string, number>();

  const forgetIdle = () => {
    for (const [agent, charge] of charged) if (charge <= clock && !busy.has(agent) && !waiting.has(agent)) charged.delete(agent);
  };

  const next = () => {
    while (running < concurrency) {
      let chosen: string | undefined;
      let chosenFinish = Number.POSITIVE_INFINITY;
      for (const [agent, queue] of waiting) {
        if (busy.has(agent)) continue;
        const finish = charged.get(agent)! + queue[0]!.cost;
        if (finish < chosenFinish) [chosen, chosenFinish] = [agent, finish];
      }
      if (chosen === undefined) return;
      const queue = waiting.get(chosen)!;
      const { cost, start } = queue.shift()!;
      if (queue.length === 0) waiting.delete(chosen);
      clock = charged.get(chosen)!;
      charged.set(chosen, clock + cost);
      start();
    }
  };

  return {
    run: <T>(agent: string, cost: number, work: () => Promise<T>) =>
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
        if (queue) queue.push({ cost, start });
        else {
          // Back after a pause (or new): no credit for the time it was away.
          if (!busy.has(agent)) charged.set(agent, Math.max(charged.get(agent) ?? 0, clock));
          waiting.set(agent, [{ cost, start }]);
        }
        if (charged.size > REMEMBERED_AGENTS) forgetIdle();
        next();
      }),
  };
}
