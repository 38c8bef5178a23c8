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
          // Kysely reports affected rows only for these commands, as node-postgres names them.
          const command = /^\s*(insert|update|delete|merge)\b/i.exec(sql)?.[1]?.toUpperCase();
          return { command, rowCount: result.affectedRows ?? 0, rows: result.rows };
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
