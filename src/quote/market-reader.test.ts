import type { PublicClient } from "viem";
import { describe, expect, it } from "vitest";
import { UNISWAP_PRESETS } from "../config/uniswap-presets.ts";
import { createMarketReader } from "./market-reader.ts";

const PRESET = UNISWAP_PRESETS["ethereum-canonical"];
const OURS = { executor: PRESET.weth9, builderRegistry: PRESET.weth9, settlementCollector: PRESET.weth9 };

describe("the V4 fallback probe", () => {
  it("is skipped on a deployment without V4, before any read (docs/rules.md, ours: pool sources)", async () => {
    // A client that fails any read: without V4 there is nothing to read.
    const client = new Proxy({} as PublicClient, {
      get: () => () => Promise.reject(new Error("no read expected")),
    });
    const { v2Factory, v2PairInitCodeHash, v3Factory, v3PoolInitCodeHash, weth9 } = PRESET;
    const reader = createMarketReader({
      client,
      contracts: { weth9, v2Factory, v2PairInitCodeHash, v3Factory, v3PoolInitCodeHash, ...OURS },
    });
    expect(await reader.probeFallback(weth9, PRESET.v3Factory, 1n)).toBeUndefined();
  });
});
