import type { Address, Hex } from "viem";

/**
 * The direct pool sources a deployment may have: Uniswap V2, V3 and V4, each named as the partner API's
 * swap legs name it. A chain may hold any of them (docs/rules.md, ours: pool sources): a source whose
 * contracts the deployment leaves out is disabled, its pools never indexed, probed or routed through.
 */
export const POOL_SOURCES = ["uniswap-v2", "uniswap-v3", "uniswap-v4"] as const;
export type PoolSourceId = (typeof POOL_SOURCES)[number];

/** The `contracts` fields a source needs, all or none: the first names the source in messages. */
export const POOL_SOURCE_FIELDS = {
  "uniswap-v2": ["v2Factory", "v2PairInitCodeHash"],
  "uniswap-v3": ["v3Factory", "v3PoolInitCodeHash"],
  "uniswap-v4": ["v4PoolManager", "v4PositionManager", "v4StateView"],
} as const;

type SourceFields = {
  v2Factory?: Address;
  v2PairInitCodeHash?: Hex;
  v3Factory?: Address;
  v3PoolInitCodeHash?: Hex;
  v4PoolManager?: Address;
  v4PositionManager?: Address;
  v4StateView?: Address;
};

/** The V2 factory and pair init code hash, or undefined when the deployment has no V2. */
export function v2Of(contracts: SourceFields): { factory: Address; initCodeHash: Hex } | undefined {
  const { v2Factory: factory, v2PairInitCodeHash: initCodeHash } = contracts;
  return factory && initCodeHash ? { factory, initCodeHash } : undefined;
}

/** The V3 factory and pool init code hash, or undefined when the deployment has no V3. */
export function v3Of(contracts: SourceFields): { factory: Address; initCodeHash: Hex } | undefined {
  const { v3Factory: factory, v3PoolInitCodeHash: initCodeHash } = contracts;
  return factory && initCodeHash ? { factory, initCodeHash } : undefined;
}

/** The V4 contracts the service reads, or undefined when the deployment has no V4. */
export function v4Of(
  contracts: SourceFields,
): { v4PoolManager: Address; v4PositionManager: Address; v4StateView: Address } | undefined {
  const { v4PoolManager, v4PositionManager, v4StateView } = contracts;
  return v4PoolManager && v4PositionManager && v4StateView
    ? { v4PoolManager, v4PositionManager, v4StateView }
    : undefined;
}

export type PoolSourceStatus = { id: PoolSourceId; enabled: boolean; reason?: string };

/** Which sources this deployment has, and why one is disabled: for `/api/v2/config` and the start. */
export function poolSources(contracts: SourceFields): PoolSourceStatus[] {
  const present = {
    "uniswap-v2": !!v2Of(contracts),
    "uniswap-v3": !!v3Of(contracts),
    "uniswap-v4": !!v4Of(contracts),
  };
  return POOL_SOURCES.map((id) =>
    present[id]
      ? { id, enabled: true }
      : { id, enabled: false, reason: `no ${POOL_SOURCE_FIELDS[id][0]} in the deployment` },
  );
}

/**
 * Issues of a contracts object whose sources are incomplete: a source is given whole or left out whole,
 * and at least one is given. Each issue names the missing field, for the schemas' `superRefine`.
 */
export function sourceFieldIssues(contracts: Record<string, unknown>): { path: string[]; message: string }[] {
  const issues: { path: string[]; message: string }[] = [];
  let given = 0;
  for (const id of POOL_SOURCES) {
    const fields: readonly string[] = POOL_SOURCE_FIELDS[id];
    const present = fields.filter((field) => contracts[field] !== undefined);
    if (present.length === 0) continue;
    given++;
    for (const field of fields.filter((f) => contracts[f] === undefined))
      issues.push({
        path: [field],
        message: `required with ${present[0]} (${id} needs ${fields.join(", ")}; leave all of them out for a chain without it)`,
      });
  }
  if (given === 0)
    issues.push({
      path: [],
      message: `names no pool source: give at least one of ${POOL_SOURCES.map((id) => POOL_SOURCE_FIELDS[id].join(" + ")).join(", or ")}`,
    });
  return issues;
}
