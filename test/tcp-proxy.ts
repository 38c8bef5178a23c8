import { connect, createServer, type Socket } from "node:net";

export type TcpProxy = {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** Drops every open connection and refuses new ones, as a server that went away. */
  cut: () => void;
  /** Accepts and forwards connections again. */
  restore: () => void;
  close: () => Promise<void>;
};

/**
 * A TCP forwarder to `target` that can lose its server on demand: a database outage for one test's
 * connections only (restarting the shared Postgres server would break every other test running beside it).
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let down = false;
  const server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("close", () => open.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      down = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
