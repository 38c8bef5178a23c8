/**
 * Tells this process's webhook sender and event streams that events were written here, so they look at
 * once instead of at their next poll (events other processes write are found by polling).
 */
export function createOutboxSignal() {
  let waiters: (() => void)[] = [];
  return {
    notify(): void {
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
    },
    /** Settles at the next `notify`, or after `ms`, whichever is first. */
    wait(ms: number): Promise<void> {
      return new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          waiters = waiters.filter((waiter) => waiter !== done);
          resolve();
        }
        waiters.push(done);
      });
    },
  };
}

export type OutboxSignal = ReturnType<typeof createOutboxSignal>;
