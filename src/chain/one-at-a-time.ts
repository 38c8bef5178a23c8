/**
 * Runs work one piece at a time, each after the one before has settled (succeeded or failed): a sync or a
 * step of something that follows the chain never overlaps the previous one, and a caller's request queues
 * behind the running one. `idle` settles once everything queued so far has.
 */
export function oneAtATime(): (<T>(work: () => Promise<T>) => Promise<T>) & { idle: () => Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const queue = <T>(work: () => Promise<T>): Promise<T> => {
    const next = running.then(work);
    running = next.catch(() => undefined);
    return next;
  };
  return Object.assign(queue, { idle: () => running.then(() => undefined) });
}
