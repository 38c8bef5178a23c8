import { type Address, getAddress, type Hex, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import type { SettlementEntry } from "./history.ts";
import { type SettlementLogsClient, withRegistryPolicy } from "./settlement-logs.ts";

/**
 * Which registry state completes an `Attributed` record (docs/rules.md, history rule 1): the state before its
 * block, unless the registry logged a change earlier in that same block; one read per (builder, block).
 */
const REGISTRY = getAddress("0x00000000000000000000000000000000000000ee");
const WALLET = getAddress("0x00000000000000000000000000000000000000aa");
const BUILDER = `0x${"01".repeat(32)}` as Hex;

function entry(blockNumber: bigint, logIndex: number): SettlementEntry {
  return {
    quoteId: `0x${"02".repeat(32)}`,
    builderCode: "",
    builderId: BUILDER,
    keyIdHash: `0x${"03".repeat(32)}`,
    payer: zeroAddress,
    recipient: zeroAddress,
    tokenIn: zeroAddress,
    amountIn: 1n,
    tokenOut: zeroAddress,
    grossAmountOut: 5n,
    routeFee: 0n,
    builderFee: 0n,
    amountOut: 5n,
    builderRecipient: zeroAddress,
    policyVersion: 0n,
    hash: `0x${"04".repeat(32)}`,
    blockNumber,
    blockHash: `0x${"05".repeat(32)}`,
    logIndex,
    status: "finalized",
  };
}

/** A node whose registry logged changes at `changes` and answers `recordPolicy` with the block it was read at. */
function node(changes: { blockNumber: bigint; logIndex: number }[]) {
  const reads: bigint[] = [];
  const client = {
    getLogs: async (params: { address: Address; fromBlock: bigint; toBlock: bigint }) => {
      expect(params.address).toBe(REGISTRY);
      return changes.filter((c) => c.blockNumber >= params.fromBlock && c.blockNumber <= params.toBlock);
    },
    readContract: async (params: { functionName: string; args: [Hex]; blockNumber: bigint }) => {
      expect(params.functionName).toBe("recordPolicy");
      expect(params.args).toEqual([BUILDER]);
      reads.push(params.blockNumber);
      return [WALLET, params.blockNumber] as const;
    },
  };
  return { client: client as unknown as SettlementLogsClient, reads };
}

describe("withRegistryPolicy", () => {
  it("reads the state before the record's block when the registry did not change in it", async () => {
    const { client, reads } = node([{ blockNumber: 8n, logIndex: 0 }]);
    const [filled] = await withRegistryPolicy(client, REGISTRY, [entry(10n, 5)]);
    expect(filled).toMatchObject({ builderRecipient: WALLET, policyVersion: 9n });
    expect(reads).toEqual([9n]);
  });

  it("reads the state after the block when the registry changed earlier in it, before otherwise", async () => {
    const { client } = node([{ blockNumber: 10n, logIndex: 3 }]);
    const filled = await withRegistryPolicy(client, REGISTRY, [entry(10n, 5), entry(10n, 2)]);
    expect(filled.map((e) => e.policyVersion)).toEqual([10n, 9n]);
  });

  it("reads each (builder, block) once, and nothing without records", async () => {
    const { client, reads } = node([]);
    await withRegistryPolicy(client, REGISTRY, [entry(12n, 1), entry(12n, 4), entry(14n, 0)]);
    expect(reads).toEqual([11n, 13n]);
    const empty = node([]);
    expect(await withRegistryPolicy(empty.client, REGISTRY, [])).toEqual([]);
    expect(empty.reads).toEqual([]);
  });
});
