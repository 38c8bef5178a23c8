/**
 * Tells this process's webhook sender and event streams that events were written here, so they look at
 * once instead of at their next poll (events other processes write are found by polling).
 */
export function createOutboxSignal() {
  let waiters: (() => void)[] = [];
  let notified = 0;
  return {
    notify(): void {
      notified += 1;
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
    },
    /** How many notifications were sent so far: pass it to `wait` to hear of one sent since. */
    seen(): number {
      return notified;
    },
    /**
     * Settles at the next `notify` (true), or after `ms` (false), whichever is first; at once (true) when a
     * notification was sent since `since` (a `seen()` taken before the caller last looked), so one sent
     * while the caller was busy looking is never lost.
     */
    wait(ms: number, since?: number): Promise<boolean> {
      if (since !== undefined && since !== notified) return Promise.resolve(true);
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
