import type { PGlite } from "@electric-sql/pglite";

/**
 * PGlite behind the small pool interface Kysely's PostgresDialect drives (`connect()` → client with
 * `query` and `release`). PGlite is a single connection, so clients take turns: a transaction holds the
 * connection from BEGIN until release, and nothing else interleaves with it.
 */
export function pglitePool(db: PGlite) {
  let queue: Promise<void> = Promise.resolve();
  return {
    async connect() {
      let release!: () => void;
      const turn = new Promise<void>((resolve) => {
        release = resolve;
      });
      const previous = queue;
      queue = previous.then(() => turn);
      await previous;
      return {
        async query(sql: string, parameters: readonly unknown[]) {
          const result = await db.query(sql, parameters as unknown[]);
          return { command: undefined, rowCount: result.affectedRows ?? 0, rows: result.rows };
        },
        release,
      };
    },
    async end() {
      await queue;
      await db.close();
    },
  };
}
