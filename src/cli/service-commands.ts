import cluster from "node:cluster";
import { CHAIN_ID } from "../chain/chain.ts";
import { ConfigError, loadConfig } from "../config/config.ts";
import { configuredDevnet, type Devnet } from "../devnet/devnet.ts";
import { createLogger } from "../runtime/logger.ts";
import { startService } from "../runtime/start-service.ts";
import { acquireServiceLock } from "../store/embedded-lock.ts";
import { UsageError } from "./cli-errors.ts";
import { parseFlags } from "./parse-flags.ts";
import { isWorkerOrSingle, runPrimary } from "./workers.ts";

const progress = (line: string) =>
  process.stderr.write(cluster.isWorker ? `[worker ${process.pid}] ${line}\n` : `${line}\n`);

/** `--workers N` (1 to 64; default 1, a single process). */
function workerCount(args: string[]): number {
  const { flags } = parseFlags("start", args, { workers: { type: "string" } });
  if (flags.workers === undefined) return 1;
  if (!/^[0-9]{1,2}$/.test(flags.workers) || Number(flags.workers) < 1 || Number(flags.workers) > 64)
    throw new UsageError("--workers must be an integer from 1 to 64", "start");
  return Number(flags.workers);
}

/**
 * `junction start` and `junction devnet`: run until SIGINT or SIGTERM, then stop cleanly (a second signal
 * forces the exit).
 */
export async function runServiceCommand(command: "start" | "devnet", args: string[] = []): Promise<void> {
  const config = loadConfig();
  const workers = command === "start" ? workerCount(args) : 1;
  if (!isWorkerOrSingle(workers)) return runPrimary(config, workers, progress);
  let stop: () => Promise<void>;
  if (command === "devnet") {
    if (config.chain.mode !== "devnet")
      throw new ConfigError("JUNCTION_RPC_URL", "`junction devnet` runs the embedded devnet; unset it");
    // The same lock as `junction start`: a devnet on a data dir in use would load its chain a second time
    // and point the manifest's rpcUrl at a node that dies with it. Refused before any file is touched.
    const lock = acquireServiceLock(config.dataDir, "devnet");
    let devnet: Devnet;
    try {
      devnet = await configuredDevnet(config.chain, config.dataDir, progress);
    } catch (error) {
      lock.release();
      throw error;
    }
    progress(`devnet ready (${devnet.boot.kind} boot in ${(devnet.boot.ms / 1000).toFixed(1)} s)`);
    progress(`  rpc      ${devnet.rpcUrl}  (chain id ${CHAIN_ID})`);
    progress(`  manifest ${devnet.manifestPath}`);
    stop = async () => {
      await devnet.stop();
      lock.release();
    };
  } else {
    const logger = createLogger(config.logLevel);
    if (process.env.JUNCTION_DEPLOYER_KEY)
      progress("note: JUNCTION_DEPLOYER_KEY is set; only junction deploy reads it, the service ignores it");
    const service = await startService(config, logger, progress);
    if (service.devnet) {
      const { boot, manifestPath } = service.devnet;
      progress(
        `devnet ready (${boot.kind} boot in ${(boot.ms / 1000).toFixed(1)} s), manifest ${manifestPath}`,
      );
    }
    // One write: whoever waits for "junction ready" sees the whole block, demo keys included.
    const demo = service.demoWorkspace
      ? `
  demo builder   ${service.demoWorkspace.builderCode}: API key with every scope (x-api-key header), devnet only
                 ${service.demoWorkspace.keys.all}
                 per-scope keys in the manifest under demoWorkspace.keys`
      : "";
    const partner = service.demoPartner
      ? `
  demo partner   partner API keys (Authorization: Bearer), devnet only; also in the manifest under demoPartner.keys
                 swap   ${service.demoPartner.keys.swap}
                 quote  ${service.demoPartner.keys.quote}`
      : "";
    const transfers = service.demoTransfers
      ? `
  demo transfers transfer-estimate customer key (X-Service-Api-Key), devnet only; also in the manifest under demoTransfers
                 ${service.demoTransfers.keys.estimates}
                 try ${service.baseUrl}/api/transfers/v1/routes?inputAsset=ETH:1&outputAsset=STABLE:8453&amount=1.5`
      : "";
    progress(`junction ready
  {base_url}     ${service.baseUrl}   (config: ${service.baseUrl}/api/v2/config, reference: ${service.baseUrl}/docs)
  portal         ${config.publicUrl}/portal   (developer portal: sign in with a wallet, workspaces, keys)
  {partner_url}  ${service.partnerUrl}
  rpc            ${service.rpcUrl}${demo}${partner}${transfers}`);
    stop = service.stop;
  }

  let signals = 0;
  const shutdown = (signal: string) => {
    if (++signals > 1) {
      progress("forced exit");
      process.exit(130);
    }
    progress(`${signal}: shutting down`);
    stop().then(
      () => process.exit(0),
      (error) => {
        progress(`shutdown failed: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}
