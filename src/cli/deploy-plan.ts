import { readFileSync } from "node:fs";
import { type Address, type Hex, zeroAddress, zeroHash } from "viem";
import { z } from "zod";
import { CHAIN_ID } from "../chain/chain.ts";
import {
  ADDRESS,
  ContractFieldsSchema,
  DeploymentFileError,
  withWholeSources,
} from "../config/deployment.ts";
import { describeIssues } from "../config/describe-issues.ts";
import { UNISWAP_PRESET_NAMES, UNISWAP_PRESETS, type UniswapPresetName } from "../config/uniswap-presets.ts";
import { type ExecutorAggregatorTargets, NO_AGGREGATORS } from "../contracts/executor-constructor.ts";

const address = () => ADDRESS.transform((value) => value as `0x${string}`);
const bps = z.number().int().min(0).max(50);
/** `BuilderRegistry.MAX_PAIR_FEES`. */
export const MAX_PAIR_FEES = 64;
/** The chain's Uniswap contracts: each pool source whole or left out (a chain without V4 leaves out all three V4 fields). */
const UniswapContractsSchema = withWholeSources(
  ContractFieldsSchema.omit({ executor: true, builderRegistry: true, settlementCollector: true }),
);

/** The fields of `aggregators` that enable entry 2 together: each is required with the others. */
const SETTLER_FIELDS = ["allowanceHolder", "settlerRegistry", "settlerFeature"] as const;

/**
 * The third-party aggregator contracts the executor may call (`swapThroughAggregator`,
 * docs/aggregator-execution.md): `router` enables entry 1; `allowanceHolder`, `settlerRegistry` and
 * `settlerFeature` together enable entry 2. What is left out is built as zero: that entry is disabled.
 */
const AggregatorsSchema = z
  .strictObject({
    router: address().optional(),
    allowanceHolder: address().optional(),
    settlerRegistry: address().optional(),
    settlerFeature: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .superRefine((aggregators, context) => {
    // The executor refuses it too (`AggregatorTargetsOverlap`): entry 1's unchecked calldata must never reach
    // the allowance holder, which the executor approves once per token (docs/aggregator-execution.md).
    const { router, allowanceHolder } = aggregators;
    if (
      router !== undefined &&
      allowanceHolder !== undefined &&
      router.toLowerCase() === allowanceHolder.toLowerCase()
    )
      context.addIssue({ code: "custom", path: ["router"], message: "must not be the allowance holder" });
    const given = SETTLER_FIELDS.filter((field) => aggregators[field] !== undefined);
    if (given.length === 0 || given.length === SETTLER_FIELDS.length) return;
    for (const field of SETTLER_FIELDS)
      if (aggregators[field] === undefined)
        context.addIssue({ code: "custom", path: [field], message: `required with ${given.join(" and ")}` });
  });

/**
 * What `junction deploy` is asked to do: the chain's Uniswap contracts (addresses and init code hashes:
 * given or named by a preset, never guessed), where pool discovery starts (the factories' and the PoolManager's own deployment
 * blocks), governance and treasury, the standard fee schedule, whether to commission the registry, and the
 * starter token list (addresses only: symbol, name and decimals are read on chain).
 */
export const DeployPlanSchema = z
  .strictObject({
    chainId: z.literal(CHAIN_ID),
    /** The chain's Uniswap contracts, or the name of a preset listing them (src/config/uniswap-presets.ts). */
    uniswap: z.union([z.enum(UNISWAP_PRESET_NAMES), UniswapContractsSchema]),
    poolsFromBlock: z.string().regex(/^[0-9]+$/, "must be a decimal integer string"),
    /** Governance of the registry and owner of the collector; default: the deployer. */
    governance: address().optional(),
    treasury: address(),
    feeSchedule: z.strictObject({
      defaultRouteFeeBps: bps,
      defaultMaxBuilderFeeBps: bps,
      /** At most `BuilderRegistry.MAX_PAIR_FEES` (64): each has a word in the executor's copy of the policy. */
      pairs: z
        .array(z.strictObject({ tokenA: address(), tokenB: address(), bps }))
        .max(MAX_PAIR_FEES, `at most ${MAX_PAIR_FEES} pairs may have a fee of their own`)
        .default([]),
    }),
    /** Commission the registry at once (builder quotes settle only through a commissioned registry). */
    commissioned: z.boolean().default(true),
    tokens: z.array(address()).min(1),
    /** The aggregator contracts the executor may call; absent: none (both entries disabled). */
    aggregators: AggregatorsSchema.optional(),
  })
  .transform(({ uniswap, ...plan }) =>
    typeof uniswap === "string"
      ? { ...plan, uniswap: UniswapContractsSchema.parse(UNISWAP_PRESETS[uniswap]), uniswapPreset: uniswap }
      : { ...plan, uniswap },
  );

/** A plan as read: `uniswap` always the addresses; `uniswapPreset` the preset they came from, if any. */
export type DeployPlan = z.infer<typeof DeployPlanSchema> & { uniswapPreset?: UniswapPresetName };

/** Reads and validates a deploy plan, naming the file and the offending field on failure. */
export function readDeployPlan(path: string): DeployPlan {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new DeploymentFileError(`cannot read deploy plan ${path}: ${(error as Error).message}`);
  }
  const parsed = DeployPlanSchema.safeParse(json);
  if (!parsed.success)
    throw new DeploymentFileError(`deploy plan ${path}: ${describeIssues(parsed.error, json)}`);
  return parsed.data;
}

/**
 * The Uniswap immutables the executor is built with: a source the plan leaves out is the zero address (and
 * zero hash). The executor never reaches it: the service routes only through the sources the deployment has,
 * a V2 or V3 hop to a pool derived from the zero factory finds no code and reverts, and a zero PoolManager
 * never unlocks nor calls back.
 */
export function executorImmutables(uniswap: DeployPlan["uniswap"]): {
  weth9: Address;
  v2Factory: Address;
  v2PairInitCodeHash: Hex;
  v3Factory: Address;
  v3PoolInitCodeHash: Hex;
  poolManager: Address;
} {
  return {
    weth9: uniswap.weth9,
    v2Factory: uniswap.v2Factory ?? zeroAddress,
    v2PairInitCodeHash: uniswap.v2PairInitCodeHash ?? zeroHash,
    v3Factory: uniswap.v3Factory ?? zeroAddress,
    v3PoolInitCodeHash: uniswap.v3PoolInitCodeHash ?? zeroHash,
    poolManager: uniswap.v4PoolManager ?? zeroAddress,
  };
}

/** The aggregator contracts the executor is built with: what the plan leaves out is zero (that entry disabled). */
export function executorAggregators(aggregators: DeployPlan["aggregators"]): ExecutorAggregatorTargets {
  return {
    router: aggregators?.router ?? NO_AGGREGATORS.router,
    allowanceHolder: aggregators?.allowanceHolder ?? NO_AGGREGATORS.allowanceHolder,
    settlerRegistry: aggregators?.settlerRegistry ?? NO_AGGREGATORS.settlerRegistry,
    settlerFeature: BigInt(aggregators?.settlerFeature ?? NO_AGGREGATORS.settlerFeature),
  };
}
