import { readFileSync } from "node:fs";
import { z } from "zod";
import { CHAIN_ID } from "../chain/chain.ts";
import { describeIssues } from "./describe-issues.ts";
import { sourceFieldIssues } from "./pool-sources.ts";

export const ADDRESS = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address");
export const HASH32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex hash");
const UINT = z.string().regex(/^[0-9]+$/, "must be a decimal integer string");

const address = () => ADDRESS.transform((value) => value as `0x${string}`);

/**
 * Contract addresses of the chain, without the rule that ties each pool source's fields together (for
 * schemas that pick or omit fields; `ContractsSchema` adds it). Required: WETH9 and Junction's own. Each
 * pool source is given whole or left out (docs/rules.md, ours: pool sources): V2 (factory and pair init
 * code hash), V3 (factory and pool init code hash), V4 (PoolManager, PositionManager and StateView); at
 * least one. Optional: the other Uniswap periphery (routers, quoters, Permit2), only listed in
 * `/api/v2/config` for integrators when given.
 */
export const ContractFieldsSchema = z.strictObject({
  weth9: address(),
  permit2: address().optional(),
  v2Factory: address().optional(),
  v2Router02: address().optional(),
  v3Factory: address().optional(),
  v3PositionManager: address().optional(),
  v3SwapRouter: address().optional(),
  v3QuoterV2: address().optional(),
  v4PoolManager: address().optional(),
  /** Read to recover V4 pool keys (docs/rules.md, comparison rule 10). */
  v4PositionManager: address().optional(),
  /** Read for V4 pool state. */
  v4StateView: address().optional(),
  v4Quoter: address().optional(),
  universalRouter: address().optional(),
  v2PairInitCodeHash: HASH32.transform((value) => value as `0x${string}`).optional(),
  v3PoolInitCodeHash: HASH32.transform((value) => value as `0x${string}`).optional(),
  /** Junction's executor: `tx.to` of every prepared swap and the spender to approve for ERC-20 input. */
  executor: address(),
  /** Builder codes, profiles and the standard service fee schedule (fee policy source). */
  builderRegistry: address(),
  /** "The reviewed collector": holds fees and emits the settlement events history reads. */
  settlementCollector: address(),
});

/** Adds each source's all-or-none rule to a contracts schema, naming the missing field. */
export function withWholeSources<T extends z.ZodType<Record<string, unknown>>>(schema: T) {
  return schema.superRefine((contracts, context) => {
    for (const issue of sourceFieldIssues(contracts))
      context.addIssue({ code: "custom", path: issue.path, message: issue.message });
  });
}

export const ContractsSchema = withWholeSources(ContractFieldsSchema);

export const TokenSchema = z.strictObject({
  address: address(),
  symbol: z.string().min(1),
  name: z.string().min(1),
  decimals: z.number().int().min(0).max(36),
  /** How the token keeps balances (devnet universe); `standard` on real deployments unless known otherwise. */
  kind: z.enum(["standard", "fee-on-transfer", "solady-layout", "erc7201-namespaced", "rebasing-shares"]),
});

/**
 * What the service reads to run against a chain: the devnet writes it as part of its manifest; for a real
 * chain `junction deploy` (later) or the operator writes it and points `JUNCTION_DEPLOYMENT` at it.
 */
export const DeploymentSchema = z.object({
  chainId: z.literal(CHAIN_ID),
  /** First block holding Junction's contracts: registry and settlement event scans start here. */
  deploymentBlock: UINT,
  /**
   * First block of pool discovery: the earliest deployment block of the V2 and V3 factories and the V4
   * PoolManager given (pools created before Junction's contracts must be found). Default 0, the whole chain: set
   * it to save the scan.
   */
  poolsFromBlock: UINT.default("0"),
  contracts: ContractsSchema,
  /** The starter token list. */
  tokens: z.array(TokenSchema),
});

export type Deployment = z.infer<typeof DeploymentSchema>;
export type Contracts = Deployment["contracts"];
export type Token = z.infer<typeof TokenSchema>;

export class DeploymentFileError extends Error {
  override name = "DeploymentFileError";
}

/** Reads and validates a deployment file, naming the file and the offending field on failure. */
export function readDeployment(path: string): Deployment {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new DeploymentFileError(`cannot read deployment file ${path}: ${(error as Error).message}`);
  }
  const parsed = DeploymentSchema.safeParse(json);
  if (!parsed.success)
    throw new DeploymentFileError(`deployment file ${path}: ${describeIssues(parsed.error, json)}`);
  return parsed.data;
}
