import { randomUUID } from "node:crypto";
import { builderKeys, createBuilderKey, createWorkspace, markActivated } from "../src/auth/keys.ts";
import { PLANS } from "../src/auth/plans.ts";
import { spendQuota } from "../src/auth/quotas.ts";
import type { Store } from "../src/store/create-store.ts";

/** How long each throughput figure runs, after an untimed warm-up. */
export const THROUGHPUT_MS = 3_000;
export const THROUGHPUT_WARM_UP_MS = 300;
const CONCURRENCY = 16;
/**
 * Quote spends per workspace in the throughput runs, under the growth plan's per-minute quote quota so that
 * no spend is refused (a refusal takes another path); the runs move on to a fresh workspace after each block.
 */
export const SPENDS_PER_WORKSPACE = PLANS.growth.quotesPerMinute - 20;
const THROUGHPUT_WORKSPACES = 400;

type Outcome = "ok" | "refused" | "done";

/** `spendQuota` and `authenticate`, sequential and `CONCURRENCY` in flight, on one store. */
export async function storeThroughput(backend: string, store: Store): Promise<string[][]> {
  const workspaces: string[] = [];
  for (let i = 0; i < THROUGHPUT_WORKSPACES; i++)
    workspaces.push((await createWorkspace(store.db, { name: `bench-${i}` })).id);
  let spent = 0;
  const spend = async (): Promise<Outcome> => {
    const id = workspaces[Math.floor(spent++ / SPENDS_PER_WORKSPACE)];
    if (id === undefined) return "done";
    return (await spendQuota(store.db, { id, plan: "growth" }, "quote")).ok ? "ok" : "refused";
  };

  const code = `bench-${randomUUID().slice(0, 8)}`;
  const owner = await createWorkspace(store.db, { name: code, builderCode: code });
  await markActivated(store.db, code, new Date());
  const secret = (
    await createBuilderKey(store.db, { workspaceId: owner.id, name: "bench", scopes: ["quote", "tokens"] })
  ).secret;
  const lookUp = async (): Promise<Outcome> =>
    "failure" in (await builderKeys.authenticate(store.db, secret)) ? "refused" : "ok";

  const rows: string[][] = [];
  for (const [operation, op] of [
    ["`spendQuota` (quote bucket)", spend],
    ["`authenticate`", lookUp],
  ] as const) {
    await rate(1, THROUGHPUT_WARM_UP_MS, op);
    for (const inFlight of [1, CONCURRENCY]) {
      const r = await rate(inFlight, THROUGHPUT_MS, op);
      rows.push([
        operation,
        backend,
        String(inFlight),
        String(r.count),
        r.perSecond.toFixed(0),
        r.meanMs.toFixed(2),
        String(r.refused),
      ]);
    }
  }
  return rows;
}

/** Runs `op` from `concurrency` workers until `durationMs` pass (or `op` says it is done). */
async function rate(
  concurrency: number,
  durationMs: number,
  op: () => Promise<Outcome>,
): Promise<{ count: number; refused: number; perSecond: number; meanMs: number }> {
  const started = performance.now();
  const deadline = started + durationMs;
  let [count, refused, busyMs, done] = [0, 0, 0, false];
  const worker = async () => {
    while (!done && performance.now() < deadline) {
      const opStarted = performance.now();
      const outcome = await op();
      if (outcome === "done") {
        done = true;
        return;
      }
      busyMs += performance.now() - opStarted;
      count++;
      if (outcome === "refused") refused++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  return { count, refused, perSecond: count / seconds, meanMs: busyMs / Math.max(1, count) };
}
