/**
 * What a start has opened so far, closed in the reverse order it was opened: by the service's stop, or at
 * once when a later stage of the start fails. Each stage defers the closing of what it opens as it opens it,
 * so no stage needs to know what came before it.
 */
export type ShutdownStack = {
  defer: (close: () => unknown) => void;
  closeAll: () => Promise<void>;
};

export function createShutdownStack(): ShutdownStack {
  const closers: (() => unknown)[] = [];
  return {
    defer: (close) => {
      closers.push(close);
    },
    async closeAll() {
      for (const close of closers.splice(0).reverse()) await close();
    },
  };
}
