import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createTestClient, http, publicActions } from "viem";
import { deployUniswap } from "../../src/devnet/deploy-uniswap.ts";
import { createSender } from "../../src/devnet/sender.ts";
import type { ChainCache } from "./chain-cache.ts";
import { SCALE_CHAIN_VERSION } from "./chain-cache.ts";
import { devAccounts } from "./dev-accounts.ts";
import { fundingTxs, tokenDeployments } from "./funding-txs.ts";
import { rpc } from "./json-rpc.ts";
import { deployJunction } from "./junction-deploy.ts";
import { startScaleAnvil } from "./scale-anvil.ts";
import { type ScaleManifest, type ScaleTokenDeployed, writeScaleManifest } from "./scale-manifest.ts";
import { seedPools } from "./seed-pools.ts";
import { createNonces, type Mined, sendAndMine, type Tx } from "./send-and-mine.ts";
import { amountForUsd, buildScaleUniverse, type ScalePoolSpec } from "./universe.ts";

/**
 * Builds the scale chain into the cache: Uniswap V2/V3/V4 (the devnet's deployer, mining on arrival), then
 * with automine off the tokens, funding and approvals, and the pools a block's worth at a time; then
 * Junction's contracts through `junction deploy` (mining on arrival again), and anvil's state dumped as it
 * stops. The manifest is written last. A failed build leaves no cache behind.
 */
export async function buildChain(
  cache: ChainCache,
  pools: number,
  seed: number,
  log: (line: string) => void,
): Promise<ScaleManifest> {
  const started = performance.now();
  rmSync(cache.dir, { recursive: true, force: true });
  mkdirSync(cache.dir, { recursive: true });
  const anvil = await startScaleAnvil({ dumpState: cache.statePath });
  try {
    const manifest = await build(anvil.rpcUrl, cache, pools, seed, log, started);
    log(`scale: saving the chain state to ${cache.statePath}`);
    await anvil.stop();
    manifest.build.seconds = Math.round((performance.now() - started) / 100) / 10;
    writeScaleManifest(cache.manifestPath, manifest);
    return manifest;
  } catch (error) {
    await anvil.stop();
    rmSync(cache.dir, { recursive: true, force: true });
    throw error;
  }
}

async function build(
  url: string,
  cache: ChainCache,
  poolCount: number,
  seed: number,
  log: (line: string) => void,
  started: number,
): Promise<ScaleManifest> {
  const accounts = devAccounts();
  const { builder, swappers } = accounts;
  const client = createTestClient({ mode: "anvil", transport: http(url), cacheTime: 0 }).extend(
    publicActions,
  );
  const uniswapBlock = Number(await client.getBlockNumber()) + 1;
  const uniswap = await deployUniswap(client as never, createSender(client as never, builder), (step) =>
    log(`scale: deploying ${step}`),
  );
  await rpc(url, "evm_setAutomine", [false]);
  const nonces = await createNonces(url, [builder, ...swappers]);
  const universe = buildScaleUniverse(poolCount, seed);
  const totals = { transactions: 0, gasUsed: 0n };
  const mined = async (what: string, txs: Tx[]): Promise<Mined> => {
    const result = await sendAndMine(url, txs);
    if (result.failed.length > 0)
      throw new Error(
        `${what}: ${result.failed.length} reverted, first: ${result.failed.slice(0, 3).join("; ")}`,
      );
    totals.transactions += txs.length;
    totals.gasUsed += result.gasUsed;
    return result;
  };

  log(`scale: deploying ${universe.tokens.length - 1} tokens`);
  const holders = [builder, ...swappers];
  const { txs: tokenTxs, deployed: tokens } = tokenDeployments(universe.tokens, uniswap, holders, nonces);
  await mined("tokens", tokenTxs);
  const builderWeth = wethForSeeding(universe.specs, tokens[0]!);
  await mined("funding", fundingTxs({ tokens, uniswap, builder, builderWeth, swappers, nonces }));
  const seeded = await seedPools({
    specs: universe.specs,
    tokens,
    uniswap,
    builder,
    nonces,
    mined,
    progress: (built) => {
      const rate = built / ((performance.now() - started) / 1000);
      log(`scale: built ${built}/${universe.specs.length} pools, ${rate.toFixed(0)} pools/s`);
    },
  });

  // `junction deploy` waits for each receipt: the node mines on arrival again.
  await rpc(url, "evm_setAutomine", [true]);
  log("scale: junction deploy");
  const deploymentPath = await deployJunction({
    rpcUrl: url,
    dir: cache.dir,
    uniswap,
    poolsFromBlock: uniswapBlock - 1,
    starterTokens: tokens.filter((token) => token.hub).map((token) => token.address),
    deployerKey: accounts.junctionKey,
  });
  return {
    version: SCALE_CHAIN_VERSION,
    poolCount: seeded.pools.length,
    seed,
    uniswap,
    tokens,
    pools: seeded.pools,
    accounts: { builder, swappers, junctionDeployer: accounts.junctionDeployer },
    blocks: {
      uniswap: uniswapBlock,
      poolsFrom: seeded.fromBlock,
      poolsTo: seeded.toBlock,
      junction: Number(JSON.parse(readFileSync(deploymentPath, "utf8")).deploymentBlock),
      head: Number(await client.getBlockNumber()),
    },
    build: { seconds: 0, transactions: totals.transactions, gasUsed: totals.gasUsed.toString() },
  };
}

/** WETH the builder wraps: the WETH side of every V2 and V3 pool against WETH, with room for dislocations. */
function wethForSeeding(specs: readonly ScalePoolSpec[], weth: ScaleTokenDeployed): bigint {
  const usd = specs
    .filter((spec) => spec.kind !== "v4" && (spec.a === 0 || spec.b === 0))
    .reduce((sum, spec) => sum + spec.depthUsd / 2n, 0n);
  return (amountForUsd(weth, usd) * 101n) / 100n + 1n;
}
