import { createPublicClient, http, type PublicClient } from "viem";
import { CHAIN_ID, junctionChain } from "../../chain/chain.ts";
import { STAND_IN_FEE_BPS } from "../deploy-aggregators.ts";
import { type Manifest, writeManifest } from "../manifest.ts";
import { AGGREGATOR_A_CHAIN, startAggregatorAStandIn } from "./aggregator-a-stand-in.ts";
import { startAggregatorBStandIn } from "./aggregator-b-stand-in.ts";
import type { StandIn } from "./stand-in-server.ts";
import type { UniswapQuoting } from "./uniswap-routes.ts";

export type AggregatorId = "aggregator-a" | "aggregator-b";

export type AggregatorStandIns = {
  /** Base URLs as the adapters take them (aggregator-a's with its chain segment). */
  urls: Partial<Record<AggregatorId, string>>;
  close: () => Promise<void>;
};

/**
 * On the devnet: loopback stand-ins for the swap aggregators the operator has not configured, routing with
 * their own simpler logic over the canonical Uniswap pools and executing through the contracts the devnet
 * deployed (docs/api/public-quote.md, "Third-party providers").
 */
export async function startAggregatorStandIns(
  manifest: Manifest,
  which: readonly AggregatorId[],
): Promise<AggregatorStandIns> {
  const client = createPublicClient({
    chain: junctionChain(manifest.rpcUrl),
    transport: http(manifest.rpcUrl),
  }) as PublicClient;
  const bySymbol = (symbol: string) => manifest.tokens.find((token) => token.symbol === symbol)?.address;
  // The two route differently, so each sometimes wins: aggregator-a passes through WETH and the stablecoins
  // (10 bps fee); aggregator-b's firm quotes pass through WETH alone (5 bps fee).
  const quoting = (connectors: string[]): UniswapQuoting => ({
    client,
    v2Router: manifest.contracts.v2Router02,
    quoterV2: manifest.contracts.v3QuoterV2,
    connectors: connectors.flatMap((symbol) => bySymbol(symbol) ?? []),
  });
  const started: [AggregatorId, StandIn][] = [];
  try {
    for (const id of which) {
      const standIn =
        id === "aggregator-a"
          ? await startAggregatorAStandIn({
              quoting: quoting(["WETH", "USDC", "USDT", "DAI"]),
              router: manifest.aggregators.aggregatorARouter,
              weth: manifest.contracts.weth9,
              feeBps: STAND_IN_FEE_BPS["aggregator-a"],
            })
          : await startAggregatorBStandIn({
              quoting: quoting(["WETH"]),
              client,
              allowanceHolder: manifest.aggregators.allowanceHolder,
              settler: manifest.aggregators.settler,
              staleSettler: manifest.aggregators.staleSettler,
              weth: manifest.contracts.weth9,
              feeBps: STAND_IN_FEE_BPS["aggregator-b"],
              chainId: CHAIN_ID,
            });
      started.push([id, standIn]);
    }
  } catch (error) {
    await Promise.all(started.map(([, standIn]) => standIn.close()));
    throw error;
  }
  return {
    urls: Object.fromEntries(
      started.map(([id, standIn]) => [
        id,
        id === "aggregator-a" ? `${standIn.url}/${AGGREGATOR_A_CHAIN}` : standIn.url,
      ]),
    ),
    close: async () => {
      await Promise.all(started.map(([, standIn]) => standIn.close()));
    },
  };
}

/** Lists the stand-ins' URLs in the manifest (`aggregatorStandIns`), keeping everything else it holds. */
export function recordAggregatorStandIns(
  manifestPath: string,
  manifest: Manifest,
  urls: Record<string, string>,
): void {
  writeManifest(manifestPath, { ...manifest, aggregatorStandIns: urls });
}
