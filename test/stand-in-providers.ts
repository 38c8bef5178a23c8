import type { PublicClient } from "viem";
import { expect } from "vitest";
import { startAggregatorStandIns } from "../src/devnet/stand-ins/start-aggregator-stand-ins.ts";
import { createAggregatorA } from "../src/providers/aggregator-a.ts";
import { createAggregatorB } from "../src/providers/aggregator-b.ts";
import type { TestDevnet } from "./devnet.ts";

export type StandInProviders = Awaited<ReturnType<typeof startStandInProviders>>;

/**
 * Both aggregator stand-ins (real HTTP servers) running against a test devnet, the service's adapters over
 * them, configured with the devnet's aggregator contracts, and the stand-ins' fault switch.
 */
export async function startStandInProviders(devnet: TestDevnet) {
  const standIns = await startAggregatorStandIns(devnet.manifest, ["aggregator-a", "aggregator-b"]);
  const { aggregators, chainId } = devnet.manifest;
  return {
    aggregatorA: createAggregatorA({
      baseUrl: standIns.urls["aggregator-a"]!,
      router: aggregators.aggregatorARouter,
    }),
    aggregatorB: createAggregatorB({
      baseUrl: standIns.urls["aggregator-b"]!,
      chainId,
      allowanceHolder: aggregators.allowanceHolder,
      settlerRegistry: aggregators.settlerRegistry,
      client: devnet.publicClient as PublicClient,
    }),
    /** Switches `provider`'s stand-in into fault `mode` for its next `times` requests (all when omitted). */
    fault: async (provider: "aggregator-a" | "aggregator-b", mode: string, times?: number) => {
      const url = standIns.urls[provider]!.replace(/\/junction$/, "");
      const response = await fetch(`${url}/devnet/fault`, {
        method: "POST",
        body: JSON.stringify(times === undefined ? { mode } : { mode, times }),
      });
      expect(response.status).toBe(200);
    },
    close: () => standIns.close(),
  };
}
