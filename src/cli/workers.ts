import cluster, { type Worker } from "node:cluster";
import { type Config, ConfigError } from "../config/config.ts";
import { serveClusterMetrics } from "../runtime/cluster-metrics.ts";
import { withServiceFlags } from "./node-flags.ts";

/** A worker that dies this soon after it was started counts as failing to start. */
const EARLY_EXIT_MS = 10_000;
/** Consecutive early exits after which the primary gives up (a configuration no worker can run). */
const MAX_EARLY_EXITS = 3;

/**
 * `junction start --workers N`: a primary process that runs N service processes sharing both ports (node's
 * cluster module hands each new connection to one of them). Each worker is a whole service with its own
 * chain client, pool index, admission and per-process ("per isolate") public limits; quotas, keys and
 * history are shared through the Postgres server. A worker that dies is replaced; SIGINT or SIGTERM stops
 * every worker the way a single process stops (draining), then the primary.
 *
 * Needs `DATABASE_URL` and `JUNCTION_RPC_URL`: the embedded devnet and the embedded database each belong
 * to one process.
 */
export async function runPrimary(
  config: Config,
  workers: number,
  progress: (line: string) => void,
): Promise<void> {
  if (!config.databaseUrl || config.chain.mode !== "rpc") {
    throw new ConfigError(
      "--workers",
      "needs DATABASE_URL and JUNCTION_RPC_URL: the embedded devnet and the embedded database each belong to one process",
    );
  }
  let stopping = false;
  let earlyExits = 0;
  const startedAt = new Map<Worker, number>();
  // Workers run with the service's V8 flags however the primary was started (`node bin/junction.js`, npx).
  cluster.setupPrimary({ execArgv: withServiceFlags(process.execArgv) });
  const fork = () => startedAt.set(cluster.fork(), Date.now());
  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) {
      if (startedAt.size === 0) process.exit(0);
      return;
    }
    earlyExits = lived < EARLY_EXIT_MS ? earlyExits + 1 : 0;
    if (earlyExits >= MAX_EARLY_EXITS) {
      progress(`junction: workers keep exiting at start (last: ${signal ?? `code ${code}`}); giving up`);
      stopping = true;
      for (const other of startedAt.keys()) other.kill("SIGTERM");
      if (startedAt.size === 0) process.exit(1);
      return;
    }
    progress(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`);
    fork();
  });
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    progress(`${signal}: stopping ${startedAt.size} workers`);
    for (const worker of startedAt.keys()) worker.process.kill("SIGTERM");
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  serveClusterMetrics();
  progress(`junction primary ${process.pid}: starting ${workers} workers`);
  for (let i = 0; i < workers; i++) fork();
}

/** Whether this process should run the service itself (not as a primary of workers). */
export const isWorkerOrSingle = (workers: number) => workers <= 1 || cluster.isWorker;
