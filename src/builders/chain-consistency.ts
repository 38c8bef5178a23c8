import type { Address, PublicClient } from "viem";
import { highestQuoteBlock } from "../store/repositories/builder-quotes.ts";
import { highestSettlementBlock } from "../store/repositories/settlements.ts";
import { builderCodes, withdrawActivation } from "../store/repositories/workspaces.ts";
import type { Db } from "../store/schema.ts";
import { readRegistryBuilder } from "./registry-profile.ts";

export type ChainConsistency = {
  chainHead: bigint;
  /** The highest block the database recorded a quote or settlement at, if any. */
  databaseHead: bigint | undefined;
  /** The chain is behind what the database saw: blocks were lost (a devnet killed before it saved). */
  behind: boolean;
  /** Builder codes whose activation the chain no longer proves: their workspaces wait for it again. */
  withdrawn: string[];
};

/**
 * Compares the database with the chain at start. A chain behind the database (a devnet killed between
 * saves; a node resynced from an old snapshot) is reported, and the activation of every workspace whose
 * builder code is not registered on this chain is withdrawn: it waits again, and the activation follower
 * restores it once the registration is back on chain. A suspended code stays activated (suspension never
 * withdraws activation). One registry read per activated workspace.
 */
export async function reconcileWithChain(options: {
  client: Pick<PublicClient, "getBlock" | "getBlockNumber" | "multicall">;
  db: Db;
  registry: Address;
}): Promise<ChainConsistency> {
  const { client, db, registry } = options;
  const [chainHead, quoted, settled] = await Promise.all([
    client.getBlockNumber(),
    highestQuoteBlock(db),
    highestSettlementBlock(db),
  ]);
  const databaseHead = [quoted, settled].reduce<bigint | undefined>(
    (max, block) => (block !== undefined && (max === undefined || block > max) ? block : max),
    undefined,
  );
  const withdrawn: string[] = [];
  for (const code of await builderCodes(db, { activated: true })) {
    const { builder } = await readRegistryBuilder(client, registry, code);
    if (!builder && (await withdrawActivation(db, code))) withdrawn.push(code);
  }
  return {
    chainHead,
    databaseHead,
    behind: databaseHead !== undefined && databaseHead > chainHead,
    withdrawn,
  };
}
