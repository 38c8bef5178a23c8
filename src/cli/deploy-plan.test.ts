import { keccak256 } from "viem";
import { describe, expect, it } from "vitest";
import { UNISWAP_PRESETS } from "../config/uniswap-presets.ts";
import { officialBytecode } from "../contracts/official.ts";
import { type DeployPlan, DeployPlanSchema } from "./deploy-plan.ts";

describe("Uniswap presets", () => {
  it("carry the init code hashes of the official pool artifacts", () => {
    const preset = UNISWAP_PRESETS["ethereum-canonical"];
    expect(preset.v2PairInitCodeHash).toBe(keccak256(officialBytecode("UniswapV2Pair").bytecode));
    expect(preset.v3PoolInitCodeHash).toBe(keccak256(officialBytecode("UniswapV3Pool").bytecode));
  });

  it("expand in a deploy plan, which remembers the preset; an unknown name is refused", () => {
    const plan = {
      chainId: 4663,
      uniswap: "ethereum-canonical",
      poolsFromBlock: "0",
      treasury: `0x${"11".repeat(20)}`,
      feeSchedule: { defaultRouteFeeBps: 20, defaultMaxBuilderFeeBps: 40 },
      tokens: [UNISWAP_PRESETS["ethereum-canonical"].weth9],
    };
    const parsed: DeployPlan = DeployPlanSchema.parse(plan);
    expect(parsed.uniswap.v3Factory).toBe(UNISWAP_PRESETS["ethereum-canonical"].v3Factory);
    expect(parsed.uniswapPreset).toBe("ethereum-canonical");
    expect(DeployPlanSchema.safeParse({ ...plan, uniswap: "base-canonical" }).success).toBe(false);
  });
});
