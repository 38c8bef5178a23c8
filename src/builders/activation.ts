import { type Address, getAbiItem, type Hex, type PublicClient } from "viem";
import { markActivated } from "../auth/keys.ts";
import { createLogScanner, type LogRangePolicy, type LogScanner } from "../chain/log-scanner.ts";
import { oneAtATime } from "../chain/one-at-a-time.ts";
import { builderRegistryArtifact } from "../contracts/artifacts/BuilderRegistry.ts";
import { builderCodes, workspaceByBuilderCode } from "../store/repositories/workspaces.ts";
import type { Db } from "../store/schema.ts";
import { BUILDER_CODE_PATTERN, builderIdOf } from "./builder-code.ts";
import { type RegistryBuilder, readRegistryBuilder } from "./registry-profile.ts";

/**
 * docs/rules.md, state rule 4: a workspace's builder ID becomes active once its registration
 * transaction is confirmed, and "activation updates automatically after confirmation"; it is required
 * before keys with `quote` or `swap` scope (docs/rules.md, auth rule 4). Activation means registered and
 * enabled on chain now: events only say which builders changed; the registry's state at one pinned canonical
 * block (readRegistryBuilder) decides.
 * Activation is never withdrawn here (suspension and re-enabling are governance's, "not shown"); every
 * attributed quote reads the registry at its own block anyway.
 */

type RegistryClient = Pick<PublicClient, "getLogs" | "getBlock" | "getBlockNumber" | "multicall">;

const abi = builderRegistryArtifact.abi;
const EVENTS = [
  getAbiItem({ abi, name: "BuilderRegistered" }),
  getAbiItem({ abi, name: "BuilderEnabledSet" }),
] as const;

/** A follower on `latest` rescans this many blocks, so a registration reorged into a later block is seen. */
const REORG_OVERLAP_BLOCKS = 12n;

export type ActivationCheck =
  | { status: "unregistered" }
  | { status: "suspended"; builder: RegistryBuilder }
  /**
   * Registered by another wallet than the one the workspace is bound to (or the workspace is bound to
   * none): the workspace stays inactive. `boundTo` is the workspace's owner, null when unbound.
   */
  | { status: "owner-mismatch"; builder: RegistryBuilder; boundTo: Address | null }
  | { status: "enabled"; builder: RegistryBuilder; newlyActivated: boolean };

/**
 * Reads `code` on the registry and, when it is registered and enabled by the wallet its workspace is bound
 * to (`BuilderRegistered.owner`, the registry's `owner` of the code), marks the workspace activated: a
 * wallet that did not register a code cannot activate a workspace for it (docs/rules.md, ours: activation
 * binding). An ownership handed over on chain later follows the registry's current owner.
 * The operator CLI calls it before refusing a quote or swap key, so activation never waits for a follower.
 */
export async function activateIfRegistered(
  client: RegistryClient,
  db: Db,
  registry: Address,
  code: string,
  now = new Date(),
): Promise<ActivationCheck> {
  const { builder } = await readRegistryBuilder(client, registry, code);
  if (!builder) return { status: "unregistered" };
  if (!builder.enabled) return { status: "suspended", builder };
  const boundTo = ((await workspaceByBuilderCode(db, code))?.owner ?? null) as Address | null;
  if (boundTo === null || boundTo.toLowerCase() !== builder.owner.toLowerCase())
    return { status: "owner-mismatch", builder, boundTo };
  return { status: "enabled", builder, newlyActivated: await markActivated(db, code, now) };
}

export type ActivationScan = { fromBlock: bigint; toBlock: bigint; activated: string[] };

/**
 * Scans the registry's `BuilderRegistered` and `BuilderEnabledSet` logs from `fromBlock` to `toBlock`
 * (default: the `tag` block, latest unless told finalized) in ranges sized to the node, and activates every waiting workspace
 * whose builder appears there and is registered and enabled now. Without waiting workspaces it reads no
 * logs at all. Idempotent: rescanning a range changes nothing.
 */
export async function scanActivations(options: {
  client: RegistryClient;
  db: Db;
  registry: Address;
  fromBlock: bigint;
  toBlock?: bigint;
  tag?: "latest" | "finalized";
  /** Sizes the eth_getLogs ranges to the node (default: a new adaptive scanner, see log-scanner.ts). */
  logs?: LogScanner;
  now?: () => Date;
}): Promise<ActivationScan> {
  const { client, db, registry, fromBlock } = options;
  const toBlock = options.toBlock ?? (await tagBlock(client, options.tag ?? "latest"));
  const scan: ActivationScan = { fromBlock, toBlock, activated: [] };
  if (toBlock < fromBlock) return scan;
  const waiting = await waitingWorkspaces(db);
  if (waiting.size === 0) return scan;

  const changed = new Set<Hex>();
  const logs = await (options.logs ?? createLogScanner()).scan(fromBlock, toBlock, (from, to) =>
    client.getLogs({ address: registry, events: EVENTS, fromBlock: from, toBlock: to }),
  );
  for (const log of logs) {
    const id = log.args.builderId?.toLowerCase() as Hex | undefined;
    if (id && waiting.has(id)) changed.add(id);
  }
  for (const id of changed) {
    const code = waiting.get(id)!;
    const check = await activateIfRegistered(client, db, registry, code, options.now?.() ?? new Date());
    if (check.status === "enabled" && check.newlyActivated) scan.activated.push(code);
  }
  return scan;
}

/**
 * Follows the registry: each `scan` reads from where the last one ended (less a reorg overlap on
 * `latest`) through `toBlock` (default: the tag block), one scan at a time. The head follower runs one
 * when a block's logs show the registry changed, and now and then besides (src/runtime/head-tasks.ts). A
 * failed scan (an RPC hiccup) is reported and leaves the start where it was, so the next one covers it.
 */
export function followActivations(options: {
  client: RegistryClient;
  db: Db;
  registry: Address;
  fromBlock: bigint;
  tag?: "latest" | "finalized";
  onError: (error: unknown) => void;
  onActivated?: (codes: string[]) => void;
  /** How `eth_getLogs` ranges are sized (default: adaptive, see log-scanner.ts). */
  logRanges?: LogRangePolicy;
}): { scan: (toBlock?: bigint) => Promise<void> } {
  let next = options.fromBlock;
  // One scanner for the follower's life: what it learns of the node's range limits carries over.
  const logs = createLogScanner(options.logRanges);
  const queue = oneAtATime();
  const overlap = (options.tag ?? "latest") === "latest" ? REORG_OVERLAP_BLOCKS : 0n;
  const scanOnce = async (toBlock?: bigint) => {
    const fromBlock = next - overlap > options.fromBlock ? next - overlap : options.fromBlock;
    try {
      const scan = await scanActivations({
        ...options,
        fromBlock,
        logs,
        ...(toBlock !== undefined ? { toBlock } : {}),
      });
      if (scan.toBlock + 1n > next) next = scan.toBlock + 1n;
      if (scan.activated.length > 0) options.onActivated?.(scan.activated);
    } catch (error) {
      options.onError(error);
    }
  };
  return { scan: (toBlock) => queue(() => scanOnce(toBlock)) };
}

/** Workspaces with a builder code and no activation yet, by lower-case builder id. */
async function waitingWorkspaces(db: Db): Promise<Map<Hex, string>> {
  const waiting = new Map<Hex, string>();
  for (const code of await builderCodes(db, { activated: false })) {
    // A code the registry would refuse can never be registered; nothing to wait for.
    if (BUILDER_CODE_PATTERN.test(code)) waiting.set(builderIdOf(code).toLowerCase() as Hex, code);
  }
  return waiting;
}

async function tagBlock(client: RegistryClient, tag: "latest" | "finalized"): Promise<bigint> {
  if (tag === "latest") return client.getBlockNumber();
  return (await client.getBlock({ blockTag: "finalized" })).number;
}
