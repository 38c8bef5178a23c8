import {
  type Address,
  encodeDeployData,
  encodeFunctionData,
  type Hex,
  maxUint256,
  type PublicClient,
  parseAbi,
  zeroAddress,
} from "viem";
import { poolActorArtifact } from "../src/contracts/artifacts/PoolActor.ts";
import type { Random } from "../src/devnet/random.ts";
import type { IndexedPool } from "../src/liquidity/pool-index/pool.ts";
import type { PoolSnapshot } from "../src/liquidity/read/load-pool-states.ts";

const abi = poolActorArtifact.abi;
const tokenAbi = parseAbi([
  "function mint(address to, uint256 amount)",
  "function deposit() payable",
  "function transfer(address to, uint256 amount) returns (bool)",
]);
const Q96 = 1n << 96n;
/** Enough gas for any one action, so a transaction that reverts is mined (reverted) rather than refused. */
const GAS = 1_500_000n;

/** A transaction for an unlocked devnet account (`eth_sendTransaction`). */
export type Tx = { from: Address; to?: Address; data: Hex; value?: bigint };

type Position = { pool: IndexedPool; tickLower: number; tickUpper: number; liquidity: bigint };

/**
 * Random pool activity on the devnet through a `PoolActor` (contracts/devnet/PoolActor.sol): swaps both
 * ways, V2 liquidity added and removed, V3 mints and burns, V4 liquidity added and removed, at ticks near
 * and far from the price. Sizes come from `state` (the pool's current snapshot); some actions revert
 * (a burn of a position a reverted mint never made), which is part of the traffic.
 */
export function createPoolActivity(client: PublicClient, from: Address, random: Random) {
  const request = client.request as (args: { method: string; params: unknown[] }) => Promise<unknown>;
  let actor: Address = zeroAddress;
  const positions: Position[] = [];
  /** The next nonce of `from`: anvil would hand a transaction sent before the last one is mined the same. */
  let nonce = 0;
  const syncNonce = async () => {
    nonce = await client.getTransactionCount({ address: from, blockTag: "pending" });
  };

  const send = (tx: Omit<Tx, "from"> & { gas?: bigint }) =>
    request({
      method: "eth_sendTransaction",
      params: [
        {
          from,
          ...tx,
          nonce: `0x${(nonce++).toString(16)}`,
          gas: `0x${(tx.gas ?? GAS).toString(16)}`,
          ...(tx.value ? { value: `0x${tx.value.toString(16)}` } : {}),
        },
      ],
    }) as Promise<Hex>;

  /** Deploys the actor and funds it with ETH, WETH and `tokens` (minted by their minter, `from`). */
  async function deploy(poolManager: Address, weth: Address, tokens: Address[]): Promise<Address> {
    await syncNonce();
    const hash = await send({
      data: encodeDeployData({ abi, bytecode: poolActorArtifact.bytecode as Hex, args: [poolManager] }),
      gas: 10_000_000n,
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error("deploying the pool actor failed");
    actor = receipt.contractAddress!;
    const ether = 10n ** 30n;
    await request({ method: "anvil_setBalance", params: [actor, `0x${ether.toString(16)}`] });
    await request({ method: "anvil_setBalance", params: [from, `0x${(ether * 2n).toString(16)}`] });
    const funding = [
      await send({
        to: weth,
        data: encodeFunctionData({ abi: tokenAbi, functionName: "deposit" }),
        value: ether,
      }),
      await send({
        to: weth,
        data: encodeFunctionData({ abi: tokenAbi, functionName: "transfer", args: [actor, ether] }),
      }),
      ...(await Promise.all(
        tokens.map((token) =>
          send({
            to: token,
            data: encodeFunctionData({
              abi: tokenAbi,
              functionName: "mint",
              args: [actor, maxUint256 >> 130n],
            }),
          }),
        ),
      )),
    ];
    for (const tx of funding) {
      const done = await client.waitForTransactionReceipt({ hash: tx });
      if (done.status !== "success") throw new Error("funding the pool actor failed");
    }
    return actor;
  }

  /** One random action on `pool`, as a transaction request (not sent). */
  function action(pool: IndexedPool, state: PoolSnapshot): Omit<Tx, "from"> {
    const roll = random.next();
    const call = (functionName: string, args: readonly unknown[]) => ({
      to: actor,
      data: encodeFunctionData({ abi, functionName, args } as never),
    });
    const fraction = (scale: bigint) => (scale * BigInt(random.int(1, 50_000))) / 1_000_000n + 1n;
    const zeroForOne = random.next() < 0.5;
    if (state.kind === "v2") {
      if (roll < 0.7)
        return call("v2Swap", [
          state.address,
          zeroForOne,
          fraction(zeroForOne ? state.reserve0 : state.reserve1),
        ]);
      if (roll < 0.85) {
        const share = BigInt(random.int(1, 300));
        return call("v2Add", [
          state.address,
          (state.reserve0 * share) / 10_000n + 1n,
          (state.reserve1 * share) / 10_000n + 1n,
        ]);
      }
      return call("v2Remove", [state.address, BigInt(random.int(1, 10_000))]);
    }
    const { liquidity, sqrtPriceX96, tick, tickSpacing } = state;
    const scale = zeroForOne ? (liquidity * Q96) / sqrtPriceX96 : (liquidity * sqrtPriceX96) / Q96;
    if (roll < 0.55 || liquidity === 0n) {
      const amount = fraction(scale > 0n ? scale : 10n ** 15n);
      return state.kind === "v3"
        ? call("v3Swap", [state.address, zeroForOne, amount])
        : call("v4Swap", [keyOf(pool), zeroForOne, -amount]);
    }
    if (roll < 0.8 || positions.length === 0) {
      // Near the price mostly; sometimes far (past the held window) or spanning it.
      const far = random.next() < 0.15 ? 200_000 : 3_000;
      // A quarter start exactly at the price's tick boundary (in range by the `tickLower <= tick` rule).
      const offset = random.next() < 0.25 ? 0 : random.int(-far / 4, far);
      const lower = Math.floor((tick - offset) / tickSpacing) * tickSpacing;
      const width = random.int(1, far / 10) * tickSpacing;
      const tickLower = Math.max(lower, Math.ceil(-887_272 / tickSpacing) * tickSpacing);
      const tickUpper = Math.min(tickLower + width, Math.floor(887_272 / tickSpacing) * tickSpacing);
      const amount = fraction(liquidity > 0n ? liquidity : 10n ** 18n);
      positions.push({ pool, tickLower, tickUpper, liquidity: amount });
      return state.kind === "v3"
        ? call("v3Mint", [state.address, tickLower, tickUpper, amount])
        : call("v4Modify", [keyOf(pool), tickLower, tickUpper, amount]);
    }
    const mine = positions.filter((p) => p.pool === pool);
    const position = mine[random.int(0, mine.length - 1)] ?? positions[0]!;
    const burned = random.next() < 0.5 ? position.liquidity : position.liquidity / 2n;
    position.liquidity -= burned;
    if (position.liquidity === 0n) positions.splice(positions.indexOf(position), 1);
    return position.pool.kind === "v3"
      ? call("v3Burn", [position.pool.address, position.tickLower, position.tickUpper, burned])
      : call("v4Modify", [keyOf(position.pool), position.tickLower, position.tickUpper, -burned]);
  }

  /** A V3 swap of exactly `amountIn`, with no price limit short of the pool's own bounds (not sent). */
  function v3Swap(
    pool: IndexedPool & { kind: "v3" },
    zeroForOne: boolean,
    amountIn: bigint,
  ): Omit<Tx, "from"> {
    return {
      to: actor,
      data: encodeFunctionData({ abi, functionName: "v3Swap", args: [pool.address, zeroForOne, amountIn] }),
    };
  }

  return { deploy, action, v3Swap, send, syncNonce };
}

function keyOf(pool: IndexedPool) {
  if (pool.kind !== "v4") throw new RangeError("not a V4 pool");
  return pool.key;
}

/** `anvil_reorg`'s transaction-and-block pairs, for a reorg that includes `txs` in its new blocks. */
export const reorgPairs = (txs: Tx[], depth: number) =>
  txs.map((tx, i) => [
    {
      ...tx,
      gas: `0x${GAS.toString(16)}`,
      ...(tx.value ? { value: `0x${tx.value.toString(16)}` } : {}),
    },
    i % depth,
  ]);
