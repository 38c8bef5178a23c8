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
    /** Settles at the next `notify` (true), or after `ms` (false), whichever is first. */
    wait(ms: number): Promise<boolean> {
      return new Promise((resolve) => {
        const timer = setTimeout(() => done(false), ms);
        const notified = () => done(true);
        function done(byNotify: boolean) {
          clearTimeout(timer);
          waiters = waiters.filter((waiter) => waiter !== notified);
          resolve(byNotify);
        }
        waiters.push(notified);
      });
    },
  };
}

export type OutboxSignal = ReturnType<typeof createOutboxSignal>;
