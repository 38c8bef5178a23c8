import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { keccak256 } from "viem";
import { describe, expect, it } from "vitest";
import { UNISWAP_PRESETS } from "../config/uniswap-presets.ts";
import { officialBytecode } from "../contracts/official.ts";
import {
  type DeployPlan,
  DeployPlanSchema,
  executorAggregators,
  executorImmutables,
  MAX_PAIR_FEES,
  readDeployPlan,
} from "./deploy-plan.ts";
import { SERVICE_NODE_FLAGS } from "./node-flags.ts";
import { startCommand } from "./start-hint.ts";

const PRESET = UNISWAP_PRESETS["ethereum-canonical"];
const EXAMPLES = fileURLToPath(new URL("../../docs/deploy-plans/", import.meta.url));
const basePlan = {
  chainId: 4663,
  poolsFromBlock: "0",
  treasury: `0x${"11".repeat(20)}`,
  feeSchedule: { defaultRouteFeeBps: 20, defaultMaxBuilderFeeBps: 40 },
  tokens: [PRESET.weth9],
};
const v2v3 = {
  weth9: PRESET.weth9,
  v2Factory: PRESET.v2Factory,
  v2PairInitCodeHash: PRESET.v2PairInitCodeHash,
  v3Factory: PRESET.v3Factory,
  v3PoolInitCodeHash: PRESET.v3PoolInitCodeHash,
};

/** The message readDeployPlan gives for a plan file holding `plan`. */
function planError(plan: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "junction-plan-")), "plan.json");
  writeFileSync(path, JSON.stringify(plan));
  try {
    readDeployPlan(path);
  } catch (error) {
    return (error as Error).message.replace(`deploy plan ${path}: `, "");
  }
  throw new Error("the plan was accepted");
}

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

describe("deploy plans without a pool source", () => {
  it("leave V4 out whole: the executor is built with a zero PoolManager", () => {
    const plan = DeployPlanSchema.parse({ ...basePlan, uniswap: v2v3 });
    expect(plan.uniswap.v4PoolManager).toBeUndefined();
    expect(executorImmutables(plan.uniswap)).toMatchObject({
      v2Factory: PRESET.v2Factory,
      poolManager: "0x0000000000000000000000000000000000000000",
    });
  });

  it("name the field a source given in part lacks, and refuse a plan with no source", () => {
    expect(planError({ ...basePlan, uniswap: { ...v2v3, v4PoolManager: PRESET.v4PoolManager } })).toMatch(
      /^uniswap\.v4PositionManager: required with v4PoolManager .*; uniswap\.v4StateView: required with v4PoolManager/,
    );
    expect(planError({ ...basePlan, uniswap: { weth9: PRESET.weth9 } })).toMatch(
      /^uniswap: names no pool source: give at least one of v2Factory \+ v2PairInitCodeHash/,
    );
  });
});

describe("deploy plan errors", () => {
  it("name the nested field, not the union's bare Invalid input", () => {
    const { v3Factory: _, ...noV3Factory } = v2v3;
    expect(
      planError({ ...basePlan, uniswap: { ...noV3Factory, v3PoolInitCodeHash: PRESET.v3PoolInitCodeHash } }),
    ).toMatch(/^uniswap\.v3Factory: required with v3PoolInitCodeHash/);
    expect(planError({ ...basePlan, uniswap: { ...v2v3, weth9: undefined } })).toBe(
      "uniswap.weth9: required",
    );
    expect(planError({ ...basePlan, uniswap: "base-canonical" })).toBe(
      'uniswap: expected "ethereum-canonical"',
    );
    expect(planError({ ...basePlan, uniswap: v2v3, poolsFromBlock: 0 })).toBe(
      "poolsFromBlock: expected string, received number",
    );
    const pairs = Array.from({ length: MAX_PAIR_FEES + 1 }, (_, i) => ({
      tokenA: PRESET.weth9,
      tokenB: `0x${(i + 1).toString(16).padStart(40, "0")}`,
      bps: 5,
    }));
    expect(planError({ ...basePlan, uniswap: v2v3, feeSchedule: { ...basePlan.feeSchedule, pairs } })).toBe(
      `feeSchedule.pairs: at most ${MAX_PAIR_FEES} pairs may have a fee of their own`,
    );
    const { chainId: __, feeSchedule: ___, ...bare } = basePlan;
    expect(planError({ ...bare, uniswap: v2v3 })).toBe("chainId: required; feeSchedule: required");
  });
});

describe("the plan's aggregators", () => {
  const router = `0x${"aa".repeat(20)}`;
  const holder = `0x${"bb".repeat(20)}`;
  const registry = `0x${"cc".repeat(20)}`;
  const zero = "0x0000000000000000000000000000000000000000";

  it("are absent by default: the executor is built with both entries disabled", () => {
    const plan = DeployPlanSchema.parse({ ...basePlan, uniswap: v2v3 });
    expect(executorAggregators(plan.aggregators)).toEqual({
      router: zero,
      allowanceHolder: zero,
      settlerRegistry: zero,
      settlerFeature: 0n,
    });
  });

  it("enable entry 1 with a router alone, entry 2 with the allowance holder, registry and feature", () => {
    const one = DeployPlanSchema.parse({ ...basePlan, uniswap: v2v3, aggregators: { router } });
    expect(executorAggregators(one.aggregators)).toMatchObject({ router, allowanceHolder: zero });
    const both = DeployPlanSchema.parse({
      ...basePlan,
      uniswap: v2v3,
      aggregators: { router, allowanceHolder: holder, settlerRegistry: registry, settlerFeature: 2 },
    });
    expect(executorAggregators(both.aggregators)).toEqual({
      router,
      allowanceHolder: holder,
      settlerRegistry: registry,
      settlerFeature: 2n,
    });
  });

  it("name what entry 2 lacks, and refuse unknown fields", () => {
    expect(planError({ ...basePlan, uniswap: v2v3, aggregators: { allowanceHolder: holder } })).toBe(
      "aggregators.settlerRegistry: required with allowanceHolder; aggregators.settlerFeature: required with allowanceHolder",
    );
    expect(
      planError({
        ...basePlan,
        uniswap: v2v3,
        aggregators: { settlerRegistry: registry, settlerFeature: 2 },
      }),
    ).toBe("aggregators.allowanceHolder: required with settlerRegistry and settlerFeature");
    expect(planError({ ...basePlan, uniswap: v2v3, aggregators: { settler: router } })).toMatch(
      /^aggregators: unrecognized key/i,
    );
  });

  it("refuse one contract as both the router and the allowance holder, as the executor does", () => {
    const aggregators = { router: holder, allowanceHolder: holder.toLowerCase(), settlerRegistry: registry };
    expect(
      planError({ ...basePlan, uniswap: v2v3, aggregators: { ...aggregators, settlerFeature: 2 } }),
    ).toBe("aggregators.router: must not be the allowance holder");
  });
});

describe("the example plans in docs/deploy-plans", () => {
  it("are valid plans (each is deployed by an e2e test)", () => {
    const files = readdirSync(EXAMPLES).filter((file) => file.endsWith(".json"));
    expect(files.sort()).toEqual(["ethereum-canonical.json", "no-v4.json", "zero-fee.json"]);
    for (const file of files) expect(() => readDeployPlan(join(EXAMPLES, file)), file).not.toThrow();
    expect(readDeployPlan(join(EXAMPLES, "no-v4.json")).uniswap.v4PoolManager).toBeUndefined();
    expect(readDeployPlan(join(EXAMPLES, "zero-fee.json")).feeSchedule.defaultRouteFeeBps).toBe(0);
  });
});

describe("the deploy's next step", () => {
  it("starts the service through npx with the service's Node flags, shell-quoted", () => {
    expect(startCommand("http://127.0.0.1:8545", "deployment.json")).toBe(
      `JUNCTION_RPC_URL=http://127.0.0.1:8545 JUNCTION_DEPLOYMENT=deployment.json NODE_OPTIONS=${SERVICE_NODE_FLAGS.join(" ")} npx junction start`,
    );
    expect(startCommand("https://node/x?a=1&b=2", "my dir/it's.json")).toContain(
      "JUNCTION_RPC_URL='https://node/x?a=1&b=2' JUNCTION_DEPLOYMENT='my dir/it'\\''s.json'",
    );
  });
});
