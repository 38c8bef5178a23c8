import type { Address } from "viem";
import type { UniswapDeployment } from "../../src/devnet/deploy-uniswap.ts";
import { BLOCK_GAS_LIMIT } from "./scale-anvil.ts";
import type { ScalePool, ScaleTokenDeployed } from "./scale-manifest.ts";
import { seedCall } from "./seed-calls.ts";
import type { Mined, Nonces, Tx } from "./send-and-mine.ts";
import type { ScalePoolSpec } from "./universe.ts";

/** Pool creations sent per mined block: their gas limits fill most of one block. */
const BLOCK_GAS_BUDGET = (BLOCK_GAS_LIMIT * 9n) / 10n;

/**
 * Creates and funds every pool of the universe from the builder, a block's worth of seeding transactions
 * at a time, saying after each block how far it got. Returns the pools and the blocks they were created in.
 */
export async function seedPools(input: {
  specs: readonly ScalePoolSpec[];
  tokens: readonly ScaleTokenDeployed[];
  uniswap: UniswapDeployment;
  builder: Address;
  nonces: Nonces;
  mined: (what: string, txs: Tx[]) => Promise<Mined>;
  progress: (built: number) => void;
}): Promise<{ pools: ScalePool[]; fromBlock: number; toBlock: number }> {
  const { specs, tokens, builder } = input;
  const pools: ScalePool[] = [];
  const blocks: number[] = [];
  for (let next = 0; next < specs.length; ) {
    const txs: Tx[] = [];
    for (let gas = 0n; next < specs.length && gas < BLOCK_GAS_BUDGET; next++) {
      const call = seedCall(specs[next]!, tokens, input.uniswap, builder);
      const { kind, a, b, fee } = call.pool;
      txs.push({
        from: builder,
        nonce: input.nonces.take(builder),
        to: call.to,
        data: call.data,
        value: call.value,
        gas: call.gas,
        label: `${kind} pool ${tokens[a]!.symbol}/${tokens[b]!.symbol}${fee ? ` ${fee}` : ""}`,
      });
      pools.push(call.pool);
      gas += call.gas;
    }
    blocks.push(...(await input.mined("pools", txs)).blocks);
    input.progress(next);
  }
  return { pools, fromBlock: blocks[0] ?? 0, toBlock: blocks.at(-1) ?? 0 };
}
