import type { Anvil } from "../../src/devnet/anvil.ts";
import { type RpcProxy, startRpcProxy } from "../../test/rpc-proxy.ts";
import { buildChain } from "./build-chain.ts";
import { type ChainCache, chainCache, directoryBytes } from "./chain-cache.ts";
import { startFollowedCheck } from "./followed-check.ts";
import { rpc } from "./json-rpc.ts";
import { summarizeLog } from "./log-summary.ts";
import { commandLine, rssMiB, sampleRss } from "./measure-process.ts";
import { scrapeMetrics } from "./metrics-scrape.ts";
import { startRequestTimeline } from "./request-timeline.ts";
import { runBlocks } from "./run-blocks.ts";
import { startScaleAnvil } from "./scale-anvil.ts";
import { readScaleManifest, type ScaleManifest } from "./scale-manifest.ts";
import { parseScaleOptions, type ScaleOptions } from "./scale-options.ts";
import { type ScaleRun, scaleReport } from "./scale-report.ts";
import { type ServiceProcess, startService } from "./service-process.ts";

/** How long the blocks wait for the service to follow every pool's state after ready. */
const FOLLOW_WAIT_MS = 15 * 60_000;

/**
 * `npm run bench -- scale [--pools N --swaps-per-block K ...]`: the service at the scale of a busy chain,
 * run as an operator runs it. A chain of N pools is built once (or loaded from the cache), Junction is
 * started with `junction start` against it through a counting proxy, then blocks are mined on a clock:
 * empty ones, busy ones with K swaps each, and busy ones while public quotes trickle in. Prints one table
 * row and notes (service log warnings, metrics). Linux only (reads /proc).
 */
export async function benchScale(argv: string[], log: (line: string) => void): Promise<string[]> {
  const options = parseScaleOptions(argv);
  // An interrupt exits through `exit` handlers, which stop the service; anvil's guard sees this process go.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));
  const cache = chainCache(options.pools, options.seed);
  let from: "built" | "cache" = "cache";
  let manifest: ScaleManifest;
  if (cache.complete) {
    manifest = readScaleManifest(cache.manifestPath);
    log(`scale: ${manifest.poolCount} pools from the cache ${cache.dir}`);
  } else {
    log(`scale: building a chain of ${options.pools} pools (seed ${options.seed}) into ${cache.dir}`);
    manifest = await buildChain(cache, options.pools, options.seed, log);
    from = "built";
    log(`scale: built in ${manifest.build.seconds} s (${manifest.build.transactions} transactions)`);
  }
  const cacheBytes = directoryBytes(cache.dir);
  log(`scale: cache ${(cacheBytes / 2 ** 20).toFixed(0)} MiB`);
  const run = await measure(options, cache, manifest, log);
  return scaleReport({
    ...run,
    options,
    manifest,
    chain: { ...run.chain, from, cacheDir: cache.dir, cacheBytes },
  });
}

/** Starts the node, the proxies and the service, runs the blocks, and tears everything down either way. */
async function measure(
  options: ScaleOptions,
  cache: ChainCache,
  manifest: ScaleManifest,
  log: (line: string) => void,
): Promise<Omit<ScaleRun, "options" | "manifest" | "chain"> & { chain: { anvilLoadSeconds: number } }> {
  const loading = performance.now();
  let built: Anvil | undefined;
  let anvil: Anvil | undefined;
  let proxy: RpcProxy | undefined;
  let timeline: Awaited<ReturnType<typeof startRequestTimeline>> | undefined;
  let service: ServiceProcess | undefined;
  let rss: ReturnType<typeof sampleRss> | undefined;
  try {
    built = await startScaleAnvil({ loadState: cache.statePath });
    const anvilLoadSeconds = (performance.now() - loading) / 1000;
    log(`scale: anvil loaded the chain in ${anvilLoadSeconds.toFixed(1)} s`);
    if (options.fork) {
      anvil = await startScaleAnvil({ forkUrl: built.rpcUrl, pruneHistory: 16 });
      log("scale: serving it from an anvil fork (--fork): blocks are mined there");
    } else anvil = built;
    // Blocks are mined on the benchmark's clock only.
    await rpc(anvil.rpcUrl, "evm_setAutomine", [false]);
    proxy = await startRpcProxy(anvil.rpcUrl);
    if (options.bodyLimit !== undefined) proxy.limits.bodyBytes = options.bodyLimit;
    if (options.rpcDelayMs !== undefined) proxy.mode = { kind: "delay", ms: options.rpcDelayMs };
    timeline = await startRequestTimeline(proxy.url);
    log("scale: junction start");
    service = await startService({
      rpcUrl: timeline.url,
      deploymentPath: cache.deploymentPath,
      onSpawn: (pid) => {
        rss = sampleRss(pid);
      },
      ...(options.cpuProfDir ? { cpuProfDir: options.cpuProfDir } : {}),
      // Heads straight from anvil's socket: a subscription's notices are not calls the proxy counts.
      ...(options.ws ? { wsUrl: anvil.rpcUrl.replace(/^http/, "ws") } : {}),
    });
    const readyRss = rssMiB(service.pid);
    log(
      `scale: junction ready in ${(service.readyMs / 1000).toFixed(1)} s (pid ${service.pid}: ${commandLine(service.pid)})`,
    );
    // Per-block figures are the steady state's: taking in every pool's state after ready costs reads and
    // CPU of its own, which the ready column reports instead.
    const started = service;
    if (await waitUntil(() => started.followedMs() !== undefined, FOLLOW_WAIT_MS))
      log(`scale: every pool followed ${((started.followedMs() ?? 0) / 1000).toFixed(1)} s after spawn`);
    else log(`scale: no "pools followed" log line within ${FOLLOW_WAIT_MS / 60_000} minutes; mining anyway`);
    log("scale: a follower beside the service takes in every pool (checked against direct reads at the end)");
    const check = await startFollowedCheck({ rpcUrl: anvil.rpcUrl, deploymentPath: cache.deploymentPath });
    const { blocks, quotes } = await runBlocks({
      anvilUrl: anvil.rpcUrl,
      proxy,
      timeline,
      servicePid: service.pid,
      baseUrl: service.baseUrl,
      manifest,
      options,
      log,
    });
    const metrics = await scrapeMetrics(service.baseUrl);
    log("scale: comparing every followed pool with a direct read");
    const exact = await check.finish();
    const end = rssMiB(service.pid);
    rss?.stop();
    await service.stop();
    return {
      chain: { anvilLoadSeconds },
      readySeconds: service.readyMs / 1000,
      followedSeconds: (service.followedMs() ?? Number.NaN) / 1000,
      rss: { ready: readyRss, end, peak: Math.max(rss?.peak() ?? 0, end) },
      blocks,
      quotes,
      log: summarizeLog(service.logPath),
      metrics,
      exact,
    };
  } finally {
    rss?.stop();
    await service?.stop();
    await timeline?.close();
    await proxy?.close();
    await anvil?.stop();
    await built?.stop();
  }
}

async function waitUntil(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}
