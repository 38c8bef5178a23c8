import type { PGlite } from "@electric-sql/pglite";

const READY_FOR_QUERY = [0x5a, 0, 0, 0, 5] as const; // 'Z', length 5
const IDLE = 0x49; // 'I': no transaction open
const TERMINATE = 0x58; // 'X'
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);

type RawStreamOptions = { onRawData: (data: Uint8Array) => void };

/**
 * Lets several connections share one PGlite through `@electric-sql/pglite-socket` without stepping on each
 * other's session. PGlite is one Postgres backend; the socket server queues protocol messages from all
 * connections and keeps one connection's messages together only while `isInTransaction()`. Between Parse
 * and Sync of the extended protocol (every parameterised node-postgres query) PGlite is not "in a
 * transaction", so when a message spans two TCP chunks another connection's Parse replaces the shared
 * unnamed statement (measured on 0.2.17: 36 of 40 large queries failed "bind message supplies 2
 * parameters, but prepared statement "" requires 1").
 *
 * The gate reports the session busy until the backend's last answer is ReadyForQuery with status idle, so
 * the queue keeps serving the connection that owns the session until its sequence or transaction ends.
 * Used only as the socket server's `db`: it implements what that server calls (pinned version).
 */
export function sessionGate(db: PGlite): PGlite {
  let idle = true;
  const gate = {
    get waitReady() {
      return db.waitReady;
    },
    isInTransaction: () => !idle || db.isInTransaction(),
    runExclusive: <T>(fn: () => Promise<T>) => db.runExclusive(fn),
    execProtocolRawStream: async (message: Uint8Array, options: RawStreamOptions) => {
      const tail: number[] = [];
      try {
        await db.execProtocolRawStream(message, {
          ...options,
          onRawData: (data: Uint8Array) => {
            for (const byte of data.subarray(Math.max(0, data.length - 6))) tail.push(byte);
            tail.splice(0, Math.max(0, tail.length - 6));
            options.onRawData(data);
          },
        });
      } finally {
        idle = message[0] === TERMINATE || endsIdle(tail);
      }
    },
    /** The socket server rolls back a departed connection's open session with this. */
    exec: async (query: string) => {
      if (!idle) {
        // End a half-sent extended sequence first; a ROLLBACK alone would be ignored after an error.
        await db.runExclusive(() => db.execProtocolRawStream(SYNC, { onRawData: () => {} }));
      }
      const results = await db.exec(query);
      idle = true;
      return results;
    },
  };
  return gate as unknown as PGlite;
}

function endsIdle(tail: number[]): boolean {
  return tail.length === 6 && READY_FOR_QUERY.every((byte, i) => tail[i] === byte) && tail[5] === IDLE;
}
