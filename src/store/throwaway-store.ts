import { randomUUID } from "node:crypto";
import pg from "pg";
import { createStore, type Store } from "./create-store.ts";

/**
 * A store on a private database created on the Postgres server at `databaseUrl`, dropped on close: a test
 * or benchmark run starts empty and leaves nothing behind (the server is shared by every run, so unique
 * builder codes would collide otherwise).
 */
export async function createThrowawayStore(
  databaseUrl: string,
  prefix = "junction_tmp",
): Promise<Store & { url: string }> {
  const name = `${prefix}_${randomUUID().replaceAll("-", "")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const store = await createStore({ databaseUrl: url.toString(), dataDir: null }).catch(
    async (error: unknown) => {
      await admin(`drop database ${name} with (force)`);
      throw error;
    },
  );
  return {
    ...store,
    url: url.toString(),
    close: async () => {
      await store.close();
      await admin(`drop database ${name} with (force)`);
    },
  };
}
