import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { ADDRESS, ContractsSchema, DeploymentSchema, HASH32 } from "../config/deployment.ts";

const address = () => ADDRESS.transform((value) => value as `0x${string}`);

const PoolKeySchema = z.strictObject({
  currency0: address(),
  currency1: address(),
  fee: z.number().int(),
  tickSpacing: z.number().int(),
  hooks: address(),
});

/** One seeded pool. `routable` is false for V4 pools with hooks or a dynamic fee, which routing excludes. */
export const ManifestPoolSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("v2"),
    address: address(),
    token0: address(),
    token1: address(),
    symbols: z.tuple([z.string(), z.string()]),
    fee: z.literal(3000),
    routable: z.literal(true),
  }),
  z.strictObject({
    kind: z.literal("v3"),
    address: address(),
    token0: address(),
    token1: address(),
    symbols: z.tuple([z.string(), z.string()]),
    fee: z.number().int(),
    tickSpacing: z.number().int(),
    routable: z.literal(true),
  }),
  z.strictObject({
    kind: z.literal("v4"),
    poolId: HASH32.transform((value) => value as `0x${string}`),
    key: PoolKeySchema,
    symbols: z.tuple([z.string(), z.string()]),
    fee: z.number().int(),
    tickSpacing: z.number().int(),
    hook: z.enum(["none", "swap-hook", "dynamic-fee"]),
    routable: z.boolean(),
  }),
]);

/** The devnet's demo workspace as listed in the manifest: devnet only, so its keys may be written down. */
export const DemoWorkspaceSchema = z.strictObject({
  workspaceId: z.string(),
  name: z.string(),
  builderCode: z.string(),
  plan: z.string(),
  /** Full API keys (devnet only): one with every scope, and one per scope. */
  keys: z.strictObject({
    all: z.string(),
    quote: z.string(),
    swap: z.string(),
    tokens: z.string(),
    receipts: z.string(),
  }),
});

/** The devnet's demo partner API keys as listed in the manifest: devnet only, so they may be written down. */
export const DemoPartnerSchema = z.strictObject({
  /** Full partner keys (`Authorization: Bearer`): one with swap permission, one for quotes only. */
  keys: z.strictObject({ swap: z.string(), quote: z.string() }),
});

/**
 * The devnet's transfer-estimate demo: a customer key (`X-Service-Api-Key`) and where the bridge provider
 * stand-ins listen (their `POST /devnet/fault` switches fault modes for tests).
 */
export const DemoTransfersSchema = z.strictObject({
  keys: z.strictObject({ estimates: z.string() }),
  providers: z.record(z.string(), z.string().url()),
});

/**
 * The devnet manifest (`<dataDir>/devnet/manifest.json`): a deployment file plus everything a newcomer or a
 * test needs to use the devnet. Documented in docs/operating.md ("The devnet manifest").
 */
export const ManifestSchema = DeploymentSchema.extend({
  /** The devnet deploys every contract, the optional Uniswap periphery included. */
  contracts: ContractsSchema.required(),
  /** Bumped when the manifest's shape changes. */
  format: z.literal(1),
  /** Identifies the seeded universe (seed, universe plan, bytecode); a warm start reuses state only on a match. */
  fingerprint: HASH32,
  seed: z.number().int(),
  rpcUrl: z.string().url(),
  deploymentBlockHash: HASH32,
  hooks: z.strictObject({ swapHook: address(), dynamicFeeHook: address() }),
  pools: z.array(ManifestPoolSchema),
  /** How Junction's contracts were set up on this devnet (docs/operating.md, "The devnet manifest"). */
  junction: z.strictObject({
    governance: address(),
    treasury: address(),
    demoBuilder: z.strictObject({
      code: z.string(),
      builderId: HASH32.transform((value) => value as `0x${string}`),
      owner: address(),
      recipient: address(),
      builderFeeBps: z.number().int(),
    }),
    feeSchedule: z.strictObject({
      defaultRouteFeeBps: z.number().int(),
      defaultMaxBuilderFeeBps: z.number().int(),
      pairs: z.array(
        z.strictObject({
          symbols: z.tuple([z.string(), z.string()]),
          tokenA: address(),
          tokenB: address(),
          bps: z.number().int(),
        }),
      ),
    }),
  }),
  /** The third-party aggregator stand-ins' contracts (src/devnet/deploy-aggregators.ts). */
  aggregators: z.strictObject({
    aggregatorARouter: address(),
    allowanceHolder: address(),
    settlerRegistry: address(),
    settler: address(),
    staleSettler: address(),
    feeRecipient: address(),
  }),
  accounts: z.array(
    z.strictObject({
      role: z.enum(["deployer", "governance", "test", "treasury"]),
      address: address(),
      privateKey: HASH32.transform((value) => value as `0x${string}`),
    }),
  ),
  /** Written by `junction start`: the demo workspace and its API keys (devnet only). */
  demoWorkspace: DemoWorkspaceSchema.optional(),
  /** Written by `junction start`: the demo partner API keys (devnet only). */
  demoPartner: DemoPartnerSchema.optional(),
  /** Written by `junction start`: the transfer-estimate customer key and bridge stand-ins (devnet only). */
  demoTransfers: DemoTransfersSchema.optional(),
  /**
   * Written by `junction start`: where the swap aggregator stand-ins listen (their `POST /devnet/fault`
   * switches fault modes for tests); aggregator-a's URL includes its chain segment.
   */
  aggregatorStandIns: z.record(z.string(), z.string().url()).optional(),
});

export type Manifest = z.infer<typeof ManifestSchema>;
export type ManifestPool = z.infer<typeof ManifestPoolSchema>;

/** Reads a manifest; undefined when missing or unreadable (the devnet then boots cold). */
export function readManifest(path: string): Manifest | undefined {
  try {
    const parsed = ManifestSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Writes atomically, so a crash never leaves a half-written manifest that a warm start would trust. */
export function writeManifest(path: string, manifest: Manifest): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}
