import type { Address, Hex, PublicClient } from "viem";
import { erc20Abi } from "viem";
import { POOL_SOURCE_FIELDS, POOL_SOURCES, type PoolSourceId } from "../config/pool-sources.ts";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";
import { executorArtifact } from "../contracts/artifacts/Executor.ts";
import { AGGREGATOR_GETTERS } from "../contracts/executor-constructor.ts";
import { OperatorError } from "./cli-errors.ts";
import { type DeployPlan, executorAggregators, executorImmutables } from "./deploy-plan.ts";

/** What `junction deploy` checks on chain before and after it sends anything (see deploy-command.ts). */

/** Uniswap addresses the service never calls: listed in `/api/v2/config` for integrators when given. */
const OPTIONAL_UNISWAP = new Set([
  "permit2",
  "v2Router02",
  "v3PositionManager",
  "v3SwapRouter",
  "v3QuoterV2",
  "v4Quoter",
  "universalRouter",
]);

/** What a preset named that this chain lacks: periphery addresses, and whole pool sources. */
export type LeftOut = { periphery: string[]; sources: { id: PoolSourceId; missing: string }[] };

/**
 * Every Uniswap address of the plan holds code, and every token: else the service could never use them.
 * A preset lists more than a chain may hold: its optional addresses without code are left out of the plan,
 * and so is a pool source none of whose contracts has code (a chain without V4), both returned to say so.
 * A source with only some of its contracts is refused all the same, as is a plan left with no source. An
 * explicit plan is the operator's own claim: nothing in it is left out.
 */
export async function requireCode(client: PublicClient, plan: DeployPlan): Promise<LeftOut> {
  const left: LeftOut = { periphery: [], sources: [] };
  const hasCode = async (address: unknown) => {
    const code = await client.getCode({ address: address as Address });
    return !!code && code !== "0x";
  };
  const uniswap = plan.uniswap as Record<string, unknown>;
  if (plan.uniswapPreset) {
    for (const [field, address] of Object.entries(uniswap)) {
      if (!OPTIONAL_UNISWAP.has(field) || typeof address !== "string" || (await hasCode(address))) continue;
      delete uniswap[field];
      left.periphery.push(`${field} (${address})`);
    }
    for (const id of POOL_SOURCES) {
      const fields = POOL_SOURCE_FIELDS[id].filter((field) => !field.endsWith("InitCodeHash"));
      const present = await Promise.all(fields.map((field) => hasCode(uniswap[field])));
      if (present.some(Boolean)) continue;
      left.sources.push({ id, missing: fields.map((field) => `${field} (${uniswap[field]})`).join(", ") });
      for (const field of POOL_SOURCE_FIELDS[id]) delete uniswap[field];
    }
    if (left.sources.length === POOL_SOURCES.length)
      throw new OperatorError(
        `preset ${plan.uniswapPreset}: no Uniswap V2, V3 or V4 contract has code on this chain (wrong node?)`,
      );
  }
  const entries: [string, Address][] = [
    ...Object.entries(plan.uniswap).filter(
      (entry): entry is [string, Address] =>
        typeof entry[1] === "string" && !entry[0].endsWith("InitCodeHash"),
    ),
    ...plan.tokens.map((token, i): [string, Address] => [`tokens[${i}]`, token]),
    ...Object.entries(plan.aggregators ?? {}).flatMap(([field, address]): [string, Address][] =>
      typeof address === "string" ? [[`aggregators.${field}`, address as Address]] : [],
    ),
  ];
  const codes = await Promise.all(entries.map(([, address]) => client.getCode({ address })));
  const missing = entries.filter((_, i) => !codes[i] || codes[i] === "0x");
  if (missing.length > 0)
    throw new OperatorError(
      `no contract code for ${missing.map(([field, address]) => `${field} (${address})`).join(", ")}${
        missing.some(([field]) => field.startsWith("v4"))
          ? "; a chain without Uniswap V4 leaves v4PoolManager, v4PositionManager and v4StateView out of the plan's uniswap object (docs/deploy-plans/no-v4.json)"
          : ""
      }`,
    );
  return left;
}

/**
 * The code at each address is our artifact's: byte for byte for the registry; for the executor (also the
 * reviewed collector), byte for byte outside its immutables (32-byte slots the constructor fills), which are
 * then read back through their getters and compared with what they were built for (the plan's Uniswap
 * contracts and aggregators, and the registry just deployed); and the registry names that executor.
 */
export async function verifyRuntimeCode(
  client: PublicClient,
  contracts: { registry: Address; executor: Address },
  plan: Pick<DeployPlan, "uniswap" | "aggregators">,
): Promise<void> {
  const checks: [string, Address, Hex, boolean][] = [
    ["BuilderRegistry", contracts.registry, builderRegistryArtifact.deployedBytecode, false],
    ["Executor", contracts.executor, executorArtifact.deployedBytecode, true],
  ];
  for (const [name, address, expected, immutables] of checks) {
    const code = ((await client.getCode({ address })) ?? "0x").toLowerCase();
    if (!sameCode(code, expected.toLowerCase(), immutables))
      throw new OperatorError(`the runtime code at ${address} is not our ${name} (build mismatch?)`);
  }
  const aggregators = executorAggregators(plan.aggregators);
  const immutables: Record<string, string | bigint> = {
    ...executorImmutables(plan.uniswap),
    registry: contracts.registry,
    ...Object.fromEntries(
      Object.entries(AGGREGATOR_GETTERS).map(([field, getter]) => [
        getter,
        aggregators[field as keyof typeof aggregators],
      ]),
    ),
  };
  const named = (await client.readContract({
    address: contracts.registry,
    abi: builderRegistryArtifact.abi,
    functionName: "executor",
  })) as Address;
  if (named.toLowerCase() !== contracts.executor.toLowerCase())
    throw new OperatorError(`the registry names executor ${named}, not ${contracts.executor}`);
  for (const [functionName, expected] of Object.entries(immutables)) {
    const actual = (await client.readContract({
      address: contracts.executor,
      abi: executorArtifact.abi,
      functionName: functionName as "weth9",
    })) as string | bigint;
    if (String(actual).toLowerCase() !== String(expected).toLowerCase())
      throw new OperatorError(`the executor's ${functionName} is ${actual}, not ${expected}`);
  }
}

function sameCode(actual: string, expected: string, immutables: boolean): boolean {
  if (actual.length !== expected.length) return false;
  if (!immutables) return actual === expected;
  // solc leaves each immutable as PUSH32 (0x7f) of 32 zero bytes in the artifact's runtime code.
  const immutableSlot = `7f${"0".repeat(64)}`;
  let i = 0;
  while (i < expected.length) {
    if (expected.startsWith(immutableSlot, i) && actual.startsWith("7f", i)) {
      i += immutableSlot.length;
      continue;
    }
    if (actual[i] !== expected[i]) return false;
    i++;
  }
  return true;
}

export async function readTokens(client: PublicClient, tokens: Address[]) {
  return Promise.all(
    tokens.map(async (address) => {
      const read = <T>(functionName: "symbol" | "name" | "decimals") =>
        client.readContract({ address, abi: erc20Abi, functionName }).catch(() => {
          throw new OperatorError(`token ${address} does not answer ${functionName}()`);
        }) as Promise<T>;
      const [symbol, name, decimals] = await Promise.all([
        read<string>("symbol"),
        read<string>("name"),
        read<number>("decimals"),
      ]);
      return { address, symbol, name, decimals, kind: "standard" as const };
    }),
  );
}
