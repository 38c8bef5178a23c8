import type { PublicClient } from "viem";
import { PROVIDER_DEADLINE_MS } from "../src/config/config.ts";
import {
  type AggregatorStandIns,
  startAggregatorStandIns,
} from "../src/devnet/stand-ins/start-aggregator-stand-ins.ts";
import { createAggregatorA } from "../src/providers/aggregator-a.ts";
import { createAggregatorB } from "../src/providers/aggregator-b.ts";
import type { QuoteProvider } from "../src/providers/provider.ts";
import type { TestDevnet } from "./devnet.ts";

export type TestProviders = {
  providers: QuoteProvider[];
  /** Each provider's deadline: below the stand-ins' slow fault, above a loaded CI machine's answers. */
  deadlineMs: number;
  /** Switches a stand-in's fault mode on for its next `times` requests (all when omitted). */
  fault: (provider: "aggregator-a" | "aggregator-b", mode: string, times?: number) => Promise<void>;
  standIns: AggregatorStandIns;
  close: () => Promise<void>;
};

/**
 * Both third-party aggregators on a test devnet: their loopback stand-ins (real HTTP servers with the
 * providers' API shapes, executing through the contracts the devnet deployed) and the adapters the
 * service builds for them.
 */
export async function startTestProviders(devnet: TestDevnet): Promise<TestProviders> {
  const { aggregators, chainId } = devnet.manifest;
  const standIns = await startAggregatorStandIns(devnet.manifest, ["aggregator-a", "aggregator-b"]);
  const providers = [
    createAggregatorA({ baseUrl: standIns.urls["aggregator-a"]!, router: aggregators.aggregatorARouter }),
    createAggregatorB({
      baseUrl: standIns.urls["aggregator-b"]!,
      chainId,
      allowanceHolder: aggregators.allowanceHolder,
      settlerRegistry: aggregators.settlerRegistry,
      client: devnet.publicClient as PublicClient,
    }),
  ];
  return {
    providers,
    deadlineMs: PROVIDER_DEADLINE_MS.max - 2_000,
    standIns,
    async fault(provider, mode, times) {
      const url = standIns.urls[provider]!.replace(/\/junction$/, "");
      const response = await fetch(`${url}/devnet/fault`, {
        method: "POST",
        body: JSON.stringify({ mode, ...(times === undefined ? {} : { times }) }),
      });
      if (response.status !== 200) throw new Error(`fault ${mode}: ${response.status}`);
    },
    close: () => standIns.close(),
  };
}
